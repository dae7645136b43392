import { problems, ValidationError } from '../errors';
import { parseInstant } from '../format/dates';

/** A JSON object from a body or a file. */
export type Fields = Record<string, unknown>;

/** True for a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or a ValidationError naming where one was expected. */
export function asObject(value: unknown, at: string): Fields {
  if (!isObject(value)) throw new ValidationError(at, problems.object);
  return value;
}

/** The value as a non-empty string, or a ValidationError naming where. */
export function asNonEmptyString(value: unknown, at: string): string {
  if (typeof value !== 'string' || value === '') throw new ValidationError(at, problems.nonEmptyString);
  return value;
}

/** The value as an array (absent: empty), or a ValidationError naming where. */
export function asList(value: unknown, at: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ValidationError(at, problems.array);
  return value;
}

/** Refuses fields outside `allowed`, and says so separately for fields the emulator derives. */
export function checkKeys(body: Fields, at: string, allowed: readonly string[], derived: readonly string[] = []): void {
  for (const key of Object.keys(body)) {
    if (derived.includes(key)) throw new ValidationError(`${at}.${key}`, problems.derived);
    if (!allowed.includes(key)) throw new ValidationError(`${at}.${key}`, problems.unknownField(allowed));
  }
}

/**
 * A Reader over an object that may hold only the `allowed` fields (and none the emulator derives).
 * @example readerOf({ calls: 3 }, 'body', ['calls']).integer('calls', 0, 9) // 3
 */
export function readerOf(
  raw: unknown,
  at: string,
  allowed: readonly string[],
  derived: readonly string[] = [],
): Reader {
  const body = asObject(raw, at);
  checkKeys(body, at, allowed, derived);
  return new Reader(body, at);
}

/**
 * An ISO 8601 instant with a zone, in ms since the epoch, or a ValidationError naming `at`.
 * @example instantAt('body.clock', '2025-06-01T12:00:00Z') // 1748779200000
 */
export function instantAt(at: string, raw: unknown): number {
  // Only a string is read: anything else (an object with its own toString) is refused as it is.
  const ms = typeof raw === 'string' ? parseInstant(raw) : undefined;
  if (ms === undefined) throw new ValidationError(at, problems.instant(raw));
  return ms;
}

/** How deep JSON input may nest: far more than any body or file of the emulator needs. */
export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The deepest nesting of arrays and objects in JSON text, counted without parsing (strings skipped). */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * JSON text (or its UTF-8 bytes) parsed, or a ValidationError naming the source. Nesting past
 * MAX_JSON_DEPTH is refused before parsing: a value thousands of levels deep overflows the stack
 * of whatever walks it later. Messages never quote the input (it may be any file), only where
 * parsing stopped. A leading byte-order mark is skipped.
 * @example parseJson('{"a":1}', 'f.json') // { a: 1 }
 */
export function parseJson(input: string | Uint8Array, source: string): unknown {
  let text: string;
  try {
    text = typeof input === 'string' ? input : utf8.decode(input);
  } catch {
    throw new ValidationError(source, problems.notUtf8);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (depthOf(text) > MAX_JSON_DEPTH) throw new ValidationError(source, problems.tooDeep(MAX_JSON_DEPTH));
  try {
    return JSON.parse(text);
  } catch (err) {
    const at = /position (\d+)/.exec((err as Error).message)?.[1];
    const detail =
      at !== undefined
        ? `at position ${at}`
        : /end of JSON/.test((err as Error).message)
          ? 'it ends too soon'
          : 'an unexpected character';
    throw new ValidationError(source, problems.notJson(detail));
  }
}

/**
 * Typed reads of one object's fields: undefined when absent, a ValidationError naming the field
 * (`at.field`) when of the wrong kind. Every admin body, fixture and state file is read with it.
 */
export class Reader {
  constructor(
    readonly body: Fields,
    readonly at: string,
  ) {}

  fail(field: string, problem: string): never {
    throw new ValidationError(`${this.at}.${field}`, problem);
  }

  has(field: string): boolean {
    return this.body[field] !== undefined;
  }

  /** A string of 1 to 200 characters, matching `pattern` when given (`what` describes it). */
  string(field: string, pattern?: RegExp, what = 'a string'): string | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.length === 0 || v.length > 200 || (pattern !== undefined && !pattern.test(v))) {
      this.fail(field, problems.string(what, v));
    }
    return v;
  }

  /** true or false. */
  boolean(field: string): boolean | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') this.fail(field, problems.boolean);
    return v;
  }

  oneOf<T extends string>(field: string, values: readonly T[]): T | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
      this.fail(field, problems.oneOf(values, v));
    return v as T;
  }

  integer(field: string, min: number, max: number): number | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      this.fail(field, problems.intRange(min, max, v));
    return v;
  }

  number(field: string, min: number, max: number): number | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      this.fail(field, problems.numberRange(min, max, v));
    }
    return v;
  }

  /** A nested object, read with its own Reader. */
  object(field: string): Reader | undefined {
    const v = this.body[field];
    return v === undefined ? undefined : new Reader(asObject(v, `${this.at}.${field}`), `${this.at}.${field}`);
  }

  /** A value that must equal the one the emulator has (account_sid, api_version). */
  fixed(field: string, expected: string): void {
    const v = this.body[field];
    if (v !== undefined && v !== expected) this.fail(field, problems.fixed(expected, v));
  }
}

/**
 * The parameters of an admin query string, none but `allowed`: any other is a ValidationError
 * naming it (`query.colour`), so a misspelt parameter is never silently ignored.
 * @example queryOf('account=AC1', ['account']).get('account') // 'AC1'
 */
export function queryOf(rawQuery: string, allowed: readonly string[]): URLSearchParams {
  const q = new URLSearchParams(rawQuery);
  for (const name of q.keys()) {
    if (!allowed.includes(name)) throw new ValidationError(`query.${name}`, problems.unknownField(allowed));
  }
  return q;
}

/**
 * A query parameter as a whole number from `min` to `max`, or undefined when absent; a
 * ValidationError naming it otherwise.
 * @example queryInt(new URLSearchParams('limit=5'), 'limit', 1, 100) // 5
 */
export function queryInt(q: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new ValidationError(`query.${name}`, problems.intBetween(min, max));
  }
  return Number(v);
}
