import { problems, ValidationError } from '../errors';
import { asList, asObject, isObject, parseJson, readerOf } from '../input/fields';

/** One named state of a states file: an account to set up, and records to insert into it. */
export interface StateDef {
  description?: string;
  /** Default values of the `{{name}}` placeholders; a request's `params` override them. */
  params: Record<string, unknown>;
  /** The placeholders the state uses, in order of first use: each has a default in `params`. */
  placeholders: string[];
  account: unknown;
  calls?: unknown[];
  recordings?: unknown[];
}

const STATE_FIELDS = ['description', 'params', 'account', 'calls', 'recordings'];

/**
 * Reads a states file: `{"states": {"name": {"params": {...}, "account": {...}, "calls": [...], "recordings": [...]}}}`.
 * Values may hold `{{param}}` placeholders; the records are checked when a state is set up.
 */
export function parseStates(text: string | Uint8Array, source: string): Map<string, StateDef> {
  const data = parseJson(text, source);
  if (!isObject(data) || !isObject(data['states']))
    throw new ValidationError(`${source}: states`, problems.namedStates);
  const states = new Map<string, StateDef>();
  for (const [name, raw] of Object.entries(data['states'])) {
    const at = `${source}: states[${JSON.stringify(name)}]`;
    const r = readerOf(raw, at, STATE_FIELDS);
    const params = r.object('params')?.body ?? {};
    asObject(r.body['account'], `${at}.account`);
    // A placeholder with no default would be filled with "undefined" when the state is set up,
    // long after start-up: say so now, as for any other error in the file.
    const placeholders = placeholdersOf([
      r.body['description'],
      r.body['account'],
      r.body['calls'],
      r.body['recordings'],
    ]);
    const missing = placeholders.filter((p) => !Object.hasOwn(params, p));
    if (missing.length > 0) throw new ValidationError(`${at}.params`, problems.placeholderDefaults(missing));
    const def: StateDef = { params, placeholders, account: r.body['account'] };
    if (typeof r.body['description'] === 'string') def.description = r.body['description'];
    if (r.has('calls')) def.calls = asList(r.body['calls'], `${at}.calls`);
    if (r.has('recordings')) def.recordings = asList(r.body['recordings'], `${at}.recordings`);
    states.set(name, def);
  }
  return states;
}

/** The `{{name}}` placeholders in a value, each once, in order of first use. */
function placeholdersOf(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    for (const m of value.matchAll(/\{\{(\w+)\}\}/g)) if (!found.includes(m[1] as string)) found.push(m[1] as string);
  } else if (Array.isArray(value)) {
    for (const v of value) placeholdersOf(v, found);
  } else if (isObject(value)) {
    for (const v of Object.values(value)) placeholdersOf(v, found);
  }
  return found;
}
