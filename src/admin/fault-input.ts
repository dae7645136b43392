import { problems, ValidationError } from '../errors';
import type { Delay, FaultSpec } from '../faults/faults';
import { checkKeys, type Reader, readerOf } from '../input/fields';

const FIELDS = [
  'path',
  'account',
  'method',
  'delay_ms',
  'delay',
  'status',
  'body',
  'headers',
  'fault',
  'rate_limit',
  'times',
  'probability',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const MAX_DELAY_MS = 60_000;

function readDelay(d: Reader): Delay {
  const kind = d.oneOf('distribution', ['uniform', 'lognormal']);
  if (kind === 'uniform') {
    checkKeys(d.body, d.at, ['distribution', 'min_ms', 'max_ms']);
    const min = d.integer('min_ms', 0, MAX_DELAY_MS) ?? 0;
    return {
      distribution: 'uniform',
      min_ms: min,
      max_ms: d.integer('max_ms', min, MAX_DELAY_MS) ?? d.fail('max_ms', problems.needed),
    };
  }
  if (kind === 'lognormal') {
    checkKeys(d.body, d.at, ['distribution', 'median_ms', 'sigma']);
    const median = d.number('median_ms', 0, MAX_DELAY_MS) ?? d.fail('median_ms', problems.needed);
    return { distribution: 'lognormal', median_ms: median, sigma: d.number('sigma', 0, 5) ?? 0.5 };
  }
  return d.fail('distribution', problems.distribution);
}

/** Names a fault may not set: they frame the answer, which the emulator writes. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

/**
 * The headers of an injected answer (`Retry-After` on a 429 is the usual one): an object of
 * names to string values, with a status or a rate limit, at most 32 of them, nothing that
 * frames the answer, and no line breaks.
 */
function readHeaders(r: Reader): Record<string, string> {
  const headers = r.object('headers') ?? r.fail('headers', problems.object);
  const out: Record<string, string> = {};
  const names = Object.keys(headers.body);
  if (names.length > 32) r.fail('headers', problems.headerCount(32));
  for (const name of names) {
    const value = headers.body[name];
    if (!HEADER_NAME.test(name) || FRAMING.has(name.toLowerCase())) headers.fail(name, problems.headerName);
    if (typeof value !== 'string' || !/^[\x20-\x7e]{0,1024}$/.test(value)) headers.fail(name, problems.headerValue);
    out[name] = value as string;
  }
  return out;
}

/**
 * A fault's JSON, validated: where it applies (path, account, method), what it does (one of a
 * delay, a status, a cut connection or a rate limit, a delay also with one of the others) and
 * how often (times, probability). A ValidationError naming the field otherwise.
 * @example parseFault({ path: '/call', status: 503 }) // { path: '/call', status: 503 }
 */
export function parseFault(raw: unknown): FaultSpec {
  const r: Reader = readerOf(raw, 'body', FIELDS);
  const spec: FaultSpec = {};
  const set = <K extends keyof FaultSpec>(key: K, value: FaultSpec[K] | undefined) => {
    if (value !== undefined) spec[key] = value;
  };
  set('path', r.string('path', /^\//, problems.path));
  set('account', r.string('account', /^AC[0-9a-f]{32}$/, problems.accountSidShape));
  set('method', r.oneOf('method', METHODS));
  set('delay_ms', r.integer('delay_ms', 0, MAX_DELAY_MS));
  const delay = r.object('delay');
  if (delay !== undefined) spec.delay = readDelay(delay);
  set('status', r.integer('status', 200, 599));
  if (r.has('body')) {
    if (spec.status === undefined) r.fail('body', problems.goesWith('status'));
    spec.body = r.body['body'];
  }
  if (r.has('headers')) spec.headers = readHeaders(r);
  set('fault', r.oneOf('fault', ['connection_reset', 'empty_response']));
  const limit = r.object('rate_limit');
  if (limit !== undefined) {
    checkKeys(limit.body, limit.at, ['limit', 'window_s']);
    spec.rate_limit = {
      limit: limit.integer('limit', 1, 1e9) ?? limit.fail('limit', problems.needed),
      window_s: limit.number('window_s', 0.001, 86_400) ?? limit.fail('window_s', problems.needed),
    };
  }
  set('times', r.integer('times', 1, 1e9));
  set('probability', r.number('probability', 0, 1));
  const present = (...values: unknown[]) => values.filter((x) => x !== undefined).length;
  if (present(spec.delay_ms, spec.delay, spec.status, spec.fault, spec.rate_limit) === 0) {
    throw new ValidationError('body', problems.needsEffect);
  }
  if (spec.headers !== undefined && spec.status === undefined && spec.rate_limit === undefined) {
    r.fail('headers', problems.goesWith('status or rate_limit'));
  }
  if (present(spec.status, spec.fault, spec.rate_limit) > 1) {
    throw new ValidationError('body', problems.excludeEachOther('status, fault and rate_limit'));
  }
  if (spec.delay_ms !== undefined && spec.delay !== undefined) {
    throw new ValidationError('body', problems.excludeEachOther('delay_ms and delay'));
  }
  return spec;
}
