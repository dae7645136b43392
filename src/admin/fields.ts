import { ApiError, messages } from '../errors';

/** A JSON object from a request body, or a 400 naming where it was expected. */
export type Fields = Record<string, unknown>;

export function asObject(value: unknown, at: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, messages.badField(at, 'must be a JSON object'));
  }
  return value as Fields;
}

/** Refuses fields outside `allowed`, and says so separately for fields the emulator derives. */
export function checkKeys(body: Fields, at: string, allowed: readonly string[], derived: readonly string[] = []): void {
  for (const key of Object.keys(body)) {
    if (derived.includes(key)) throw new ApiError(400, messages.derivedField(`${at}.${key}`));
    if (!allowed.includes(key)) throw new ApiError(400, messages.unknownField(`${at}.${key}`, allowed));
  }
}

/** Typed readers: undefined when absent, a 400 naming the field when of the wrong kind. */
export class Reader {
  constructor(
    private readonly body: Fields,
    private readonly at: string,
  ) {}

  fail(field: string, problem: string): never {
    throw new ApiError(400, messages.badField(`${this.at}.${field}`, problem));
  }

  has(field: string): boolean {
    return this.body[field] !== undefined;
  }

  string(field: string, pattern?: RegExp, what = 'a string'): string | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.length === 0 || v.length > 200 || (pattern !== undefined && !pattern.test(v))) {
      this.fail(field, `must be ${what}, got ${JSON.stringify(v)}`);
    }
    return v as string;
  }

  oneOf<T extends string>(field: string, values: readonly T[]): T | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) this.fail(field, `must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`);
    return v as T;
  }

  integer(field: string, min: number, max: number): number | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) this.fail(field, `must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return v as number;
  }

  number(field: string, min: number, max: number): number | undefined {
    const v = this.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) this.fail(field, `must be a number from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return v as number;
  }

  /** A value that must equal the one the emulator has (account_sid, api_version). */
  fixed(field: string, expected: string): void {
    const v = this.body[field];
    if (v !== undefined && v !== expected) this.fail(field, `must be ${JSON.stringify(expected)}, got ${JSON.stringify(v)}`);
  }
}
