import { Reader, asObject, checkKeys } from '../admin/fields';
import { ApiError, messages } from '../errors';
import { StreamFamily, type Stream } from '../random/stream';

export type Delay =
  | { distribution: 'uniform'; min_ms: number; max_ms: number }
  | { distribution: 'lognormal'; median_ms: number; sigma: number };

/** A fault as created through the admin API (its JSON form). */
export interface FaultSpec {
  path?: string;
  account?: string;
  method?: string;
  delay_ms?: number;
  delay?: Delay;
  status?: number;
  body?: unknown;
  fault?: 'connection_reset' | 'empty_response';
  rate_limit?: { limit: number; window_s: number };
  times?: number;
  probability?: number;
}

/** What happens to a request a fault applies to. */
export interface FaultAction {
  id: string;
  /** For the journal: 'delay', 'status', 'connection_reset', 'empty_response', 'rate_limit'. */
  effect: string;
  delayMs: number;
  /** A response to send instead of the real one (after the delay). */
  respond?: { status: number; body: unknown; headers: Record<string, string> };
  /** Cut the connection instead of answering. */
  cut?: 'connection_reset' | 'empty_response';
}

interface Fault {
  id: string;
  spec: FaultSpec;
  matcher: RegExp | null;
  matched: number;
  applied: number;
  draws: StreamFamily;
  window: { startMs: number; count: number } | null;
}

const FIELDS = ['path', 'account', 'method', 'delay_ms', 'delay', 'status', 'body', 'fault', 'rate_limit', 'times', 'probability'] as const;
const ACCOUNT_IN_PATH = /\/Accounts\/([^/]+)/;

/** A path pattern: a prefix, or with `*`, a whole-path match where `*` is any run of characters. */
function matcherOf(path: string | undefined): RegExp | null {
  if (path === undefined || !path.includes('*')) return null;
  return new RegExp(`^${path.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/** Validates a fault's JSON; a 400 naming the field otherwise. */
export function parseFault(raw: unknown): FaultSpec {
  const body = asObject(raw, 'body');
  checkKeys(body, 'body', FIELDS);
  const r = new Reader(body, 'body');
  const spec: FaultSpec = {};
  const path = r.string('path', /^\//, 'a path starting with "/"');
  if (path !== undefined) spec.path = path;
  const account = r.string('account', /^AC[0-9a-f]{32}$/, '"AC" and 32 lower-case hex digits');
  if (account !== undefined) spec.account = account;
  const method = r.oneOf('method', ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
  if (method !== undefined) spec.method = method;
  const delayMs = r.integer('delay_ms', 0, 60_000);
  if (delayMs !== undefined) spec.delay_ms = delayMs;
  if (body['delay'] !== undefined) {
    const d = asObject(body['delay'], 'body.delay');
    const dr = new Reader(d, 'body.delay');
    const kind = dr.oneOf('distribution', ['uniform', 'lognormal']);
    if (kind === 'uniform') {
      checkKeys(d, 'body.delay', ['distribution', 'min_ms', 'max_ms']);
      const min = dr.integer('min_ms', 0, 60_000) ?? 0;
      const max = dr.integer('max_ms', min, 60_000) ?? dr.fail('max_ms', 'is needed');
      spec.delay = { distribution: 'uniform', min_ms: min, max_ms: max };
    } else if (kind === 'lognormal') {
      checkKeys(d, 'body.delay', ['distribution', 'median_ms', 'sigma']);
      const median = dr.number('median_ms', 0, 60_000) ?? dr.fail('median_ms', 'is needed');
      spec.delay = { distribution: 'lognormal', median_ms: median, sigma: dr.number('sigma', 0, 5) ?? 0.5 };
    } else {
      dr.fail('distribution', 'must be uniform or lognormal');
    }
  }
  const status = r.integer('status', 200, 599);
  if (status !== undefined) spec.status = status;
  if (body['body'] !== undefined) {
    if (status === undefined) r.fail('body', 'goes with status');
    spec.body = body['body'];
  }
  const fault = r.oneOf('fault', ['connection_reset', 'empty_response']);
  if (fault !== undefined) spec.fault = fault;
  if (body['rate_limit'] !== undefined) {
    const rl = asObject(body['rate_limit'], 'body.rate_limit');
    checkKeys(rl, 'body.rate_limit', ['limit', 'window_s']);
    const rr = new Reader(rl, 'body.rate_limit');
    spec.rate_limit = {
      limit: rr.integer('limit', 1, 1e9) ?? rr.fail('limit', 'is needed'),
      window_s: rr.number('window_s', 0.001, 86_400) ?? rr.fail('window_s', 'is needed'),
    };
  }
  const times = r.integer('times', 1, 1e9);
  if (times !== undefined) spec.times = times;
  const probability = r.number('probability', 0, 1);
  if (probability !== undefined) spec.probability = probability;
  const effects = [spec.delay_ms, spec.delay, spec.status, spec.fault, spec.rate_limit].filter((x) => x !== undefined).length;
  if (effects === 0) throw new ApiError(400, messages.badField('body', 'needs an effect: delay_ms, delay, status, fault or rate_limit'));
  if ([spec.status, spec.fault, spec.rate_limit].filter((x) => x !== undefined).length > 1) {
    throw new ApiError(400, messages.badField('body', 'status, fault and rate_limit exclude each other'));
  }
  if (spec.delay_ms !== undefined && spec.delay !== undefined) throw new ApiError(400, messages.badField('body', 'delay_ms and delay exclude each other'));
  return spec;
}

function drawDelay(spec: FaultSpec, s: Stream): number {
  if (spec.delay_ms !== undefined) return spec.delay_ms;
  const d = spec.delay;
  if (d === undefined) return 0;
  if (d.distribution === 'uniform') return s.int(d.min_ms, d.max_ms);
  // Box-Muller from two seeded draws; the delay only times a response, it shapes no data.
  const z = Math.sqrt(-2 * Math.log(1 - s.float())) * Math.cos(2 * Math.PI * s.float());
  return Math.min(60_000, Math.round(d.median_ms * Math.exp(d.sigma * z)));
}

/**
 * Injected faults, matched in creation order: the first fault whose path, account and method
 * match, and whose `times` and `probability` let it apply, acts on the request. Probabilities and
 * delays draw from streams keyed by the seed and the fault, so a CI run repeats exactly.
 */
export class Faults {
  private list: Fault[] = [];
  private counter = 0;

  constructor(private readonly seed: () => string) {}

  add(spec: FaultSpec): Record<string, unknown> {
    const id = `fault-${++this.counter}`;
    const fault: Fault = { id, spec, matcher: matcherOf(spec.path), matched: 0, applied: 0, draws: new StreamFamily([this.seed(), 'faults', id]), window: null };
    this.list.push(fault);
    return this.view(fault);
  }

  remove(id: string): boolean {
    const before = this.list.length;
    this.list = this.list.filter((f) => f.id !== id);
    return this.list.length < before;
  }

  clear(): void {
    this.list = [];
    this.counter = 0;
  }

  views(): Record<string, unknown>[] {
    return this.list.map((f) => this.view(f));
  }

  get size(): number {
    return this.list.length;
  }

  private view(f: Fault): Record<string, unknown> {
    return { id: f.id, ...f.spec, matched: f.matched, applied: f.applied };
  }

  /** The action for a request, or null; `nowMs` is the wall clock, for rate windows only. */
  match(method: string, path: string, nowMs: number): FaultAction | null {
    if (this.list.length === 0) return null;
    const account = ACCOUNT_IN_PATH.exec(path)?.[1];
    for (const f of this.list) {
      const { spec } = f;
      if (spec.method !== undefined && spec.method !== method) continue;
      if (spec.account !== undefined && spec.account !== account) continue;
      if (spec.path !== undefined && !(f.matcher === null ? path.startsWith(spec.path) : f.matcher.test(path))) continue;
      if (spec.times !== undefined && f.applied >= spec.times) continue;
      const s = f.draws.at(f.matched++);
      if (spec.probability !== undefined && s.float() >= spec.probability) continue;
      if (spec.rate_limit !== undefined) {
        const { limit, window_s } = spec.rate_limit;
        if (f.window === null || nowMs >= f.window.startMs + window_s * 1000) f.window = { startMs: nowMs, count: 0 };
        f.window.count++;
        if (f.window.count <= limit) continue;
        f.applied++;
        const retry = Math.max(1, Math.ceil((f.window.startMs + window_s * 1000 - nowMs) / 1000));
        return {
          id: f.id,
          effect: 'rate_limit',
          delayMs: 0,
          respond: { status: 429, body: { message: messages.rateLimited(limit, window_s) }, headers: { 'Retry-After': String(retry) } },
        };
      }
      f.applied++;
      const action: FaultAction = { id: f.id, effect: 'delay', delayMs: drawDelay(spec, s) };
      if (spec.status !== undefined) {
        action.effect = 'status';
        action.respond = { status: spec.status, body: spec.body ?? { message: messages.injected(spec.status) }, headers: {} };
      }
      if (spec.fault !== undefined) {
        action.effect = spec.fault;
        action.cut = spec.fault;
      }
      return action;
    }
    return null;
  }
}
