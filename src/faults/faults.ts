import { messages } from '../errors';
import { ERROR_BODIES, type ErrorBodyBuilder } from '../format/envelopes';
import { runsOnly } from '../input/wildcard';
import { type Stream, StreamFamily } from '../random/stream';
import { emptyTally, localTally, type Tally, type TallyOp, type TallyReply, type TallyState } from './tally';

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
  /** Headers of the injected answer (a status or a rate limit's 429), e.g. its own `Retry-After`. */
  headers?: Record<string, string>;
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
  /** A response to send instead of the real one (after the delay): its body already written. */
  respond?: { status: number; body: string; headers: Record<string, string> };
  /** Cut the connection instead of answering. */
  cut?: 'connection_reset' | 'empty_response';
}

/** The request as the front door saw it: the account sid already decoded from the path. */
export interface FaultTarget {
  method: string;
  path: string;
  account: string | null;
}

/** See Faults.book. */
export interface FaultBook {
  counter: number;
  made: number;
  list: { id: string; serial: number; key: string; spec: FaultSpec }[];
}

interface Fault {
  id: string;
  /** Creation order: the first fault that matches acts, whichever index it is found in. */
  serial: number;
  spec: FaultSpec;
  /** Whether the fault's `path` takes a request path. */
  matches: (path: string) => boolean;
  /** The injected response's body and type, written once when the fault is made. */
  response: { body: string; type: string } | null;
  /** Its counters' key in the tally: unique for the life of the log, as ids are not (a clear reuses them). */
  key: string;
  draws: StreamFamily;
}

/** A path pattern: a prefix, or with `*`, a whole-path match where `*` is any run of characters. */
function pathMatcher(path: string | undefined): (requested: string) => boolean {
  if (path === undefined) return () => true;
  if (!path.includes('*')) return (requested) => requested.startsWith(path);
  return runsOnly(path, '*');
}

/** A status fault's body: given text as is, given JSON written once, or the emulator's message. */
function responseOf(spec: FaultSpec, errorBody: ErrorBodyBuilder): Fault['response'] {
  if (spec.status === undefined) return null;
  if (typeof spec.body === 'string') return { body: spec.body, type: 'text/plain' };
  const body =
    spec.body === undefined ? errorBody(spec.status, messages.injected(spec.status)) : JSON.stringify(spec.body);
  return { body, type: 'application/json' };
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

/** Runs a match to its end, stepping the tally at once while it answers at once. */
function drive<R>(
  run: Generator<TallyOp, R, TallyReply>,
  tally: Tally,
  from: IteratorResult<TallyOp, R>,
): R | Promise<R> {
  let at = from;
  while (at.done !== true) {
    const reply = tally.step(at.value);
    if (reply instanceof Promise) return reply.then((r) => drive(run, tally, run.next(r)));
    at = run.next(reply);
  }
  return at.value;
}

/**
 * Injected faults, matched in creation order: the first fault whose path, account and method
 * match, and whose `times` and `probability` let it apply, acts on the request. Probabilities and
 * delays draw from streams keyed by the seed and the fault, so a CI run repeats exactly. The
 * counters (`matched`, `applied`, rate windows) are the tally's: this process's, or the fleet's.
 */
export class Faults {
  private list: Fault[] = [];
  private counter = 0;
  /** Faults ever made: the tally's keys, never reused (ids start again at a clear). */
  private made = 0;
  /**
   * The faults again, indexed: a request is matched against the faults of no account and those
   * of its own, never those scoped to the thousand other sandboxes of a shared emulator.
   */
  private global: Fault[] = [];
  private byAccount = new Map<string, Fault[]>();

  constructor(
    private readonly seed: () => string,
    private readonly tally: Tally & { drop?(key: string): void } = localTally(),
    /** The dialect's error body, for the emulator's own injected answers. */
    private readonly errorBody: ErrorBodyBuilder = ERROR_BODIES.spec,
  ) {}

  add(spec: FaultSpec): Record<string, unknown> {
    const id = `fault-${++this.counter}`;
    const fault: Fault = {
      id,
      serial: this.counter,
      spec,
      matches: pathMatcher(spec.path),
      response: responseOf(spec, this.errorBody),
      key: `tally:${++this.made}`,
      draws: new StreamFamily([this.seed(), 'faults', id]),
    };
    this.list.push(fault);
    this.index();
    return this.view(fault, emptyTally());
  }

  /**
   * The faults as a checkpoint carries them: each with its id, place and tally key, and the
   * counters that number the next one. The tally's counts are not in it: they are the fleet's.
   * @example faults.book() // { counter: 1, made: 3, list: [{ id: 'fault-1', serial: 1, key: 'tally:3', spec: { status: 503 } }] }
   */
  book(): FaultBook {
    return {
      counter: this.counter,
      made: this.made,
      list: this.list.map((f) => ({ id: f.id, serial: f.serial, key: f.key, spec: f.spec })),
    };
  }

  /** Puts back the faults of a checkpoint (see `book`), replacing these; the tally keeps its counts. */
  restoreBook(book: FaultBook): void {
    this.counter = book.counter;
    this.made = book.made;
    this.list = book.list.map((f) => ({
      ...f,
      matches: pathMatcher(f.spec.path),
      response: responseOf(f.spec, this.errorBody),
      draws: new StreamFamily([this.seed(), 'faults', f.id]),
    }));
    this.index();
  }

  /** Keeps the faults for which `keep` holds; the tally forgets the others (when it is this process's). */
  private keep(keep: (f: Fault) => boolean): void {
    for (const f of this.list) if (!keep(f)) this.tally.drop?.(f.key);
    this.list = this.list.filter(keep);
    this.index();
  }

  remove(id: string): boolean {
    const before = this.list.length;
    this.keep((f) => f.id !== id);
    return this.list.length < before;
  }

  /** Drops the faults scoped to an account that has gone: none of them can match again. */
  removeScopedTo(account: string): number {
    const scoped = this.byAccount.get(account)?.length ?? 0;
    if (scoped === 0) return 0;
    this.keep((f) => f.spec.account !== account);
    return scoped;
  }

  clear(): void {
    this.keep(() => false);
    this.counter = 0;
  }

  /** Rebuilds the index from the list (faults are few and change rarely; requests are many). */
  private index(): void {
    this.global = [];
    this.byAccount = new Map();
    for (const f of this.list) {
      const account = f.spec.account;
      if (account === undefined) {
        this.global.push(f);
      } else {
        const own = this.byAccount.get(account);
        if (own === undefined) this.byAccount.set(account, [f]);
        else own.push(f);
      }
    }
  }

  /**
   * The faults that may touch a request of `account`, in creation order, as they were when asked
   * (a fleet's match waits on its tally between them, and the index may be rebuilt meanwhile).
   */
  private *candidates(account: string | null): Generator<Fault> {
    const own = account === null ? undefined : this.byAccount.get(account);
    const global = this.global;
    if (own === undefined) {
      yield* global;
      return;
    }
    let g = 0;
    let o = 0;
    while (g < global.length || o < own.length) {
      const a = global[g];
      const b = own[o];
      if (b === undefined || (a !== undefined && a.serial < b.serial)) {
        g++;
        yield a as Fault;
      } else {
        o++;
        yield b;
      }
    }
  }

  /** Every fault as the admin API shows it, with its counters (a fleet's come from its tally). */
  views(): Record<string, unknown>[] | Promise<Record<string, unknown>[]> {
    const list = this.list;
    const counts = this.tally.read(list.map((f) => f.key));
    const show = (states: TallyState[]) => list.map((f, i) => this.view(f, states[i] as TallyState));
    return counts instanceof Promise ? counts.then(show) : show(counts);
  }

  get size(): number {
    return this.list.length;
  }

  private view(f: Fault, counts: TallyState): Record<string, unknown> {
    return { id: f.id, ...f.spec, matched: counts.matched, applied: counts.applied };
  }

  /**
   * The action for a request, or null; `nowMs` is the wall clock, for rate windows only. At once
   * with this process's tally; with a fleet's, once it has answered for each fault that matched.
   */
  claim(target: FaultTarget, nowMs: number): FaultAction | null | Promise<FaultAction | null> {
    if (this.list.length === 0) return null;
    const run = this.decide(target, nowMs);
    return drive(run, this.tally, run.next());
  }

  /** `claim` for this process's tally, which always answers at once. */
  match(target: FaultTarget, nowMs: number): FaultAction | null {
    const action = this.claim(target, nowMs);
    if (action instanceof Promise) throw new Error("Faults.match: the tally is a fleet's; use claim");
    return action;
  }

  /** The match, as steps of the tally it waits on. */
  private *decide(target: FaultTarget, nowMs: number): Generator<TallyOp, FaultAction | null, TallyReply> {
    for (const f of this.candidates(target.account)) {
      const { spec } = f;
      if (spec.method !== undefined && spec.method !== target.method) continue;
      if (spec.account !== undefined && spec.account !== target.account) continue;
      if (!f.matches(target.path)) continue;
      const rate = spec.rate_limit === undefined ? null : spec.rate_limit;
      const op = {
        key: f.key,
        times: spec.times ?? null,
        rate: rate === null ? null : { limit: rate.limit, windowMs: rate.window_s * 1000 },
        nowMs,
      };
      let s: Stream;
      let r: TallyReply;
      if (spec.probability !== undefined) {
        // The draw decides, and only this code can draw it: take the index, then apply if it passes.
        const drawn = yield { ...op, step: 'draw' };
        if (drawn.verdict === 'spent') continue;
        s = f.draws.at(drawn.draw);
        if (s.float() >= spec.probability) continue;
        r = yield { ...op, step: 'apply' };
      } else {
        r = yield { ...op, step: 'take' };
        s = f.draws.at(r.draw);
      }
      if (r.verdict === 'spent' || r.verdict === 'under') continue;
      if (rate !== null) {
        return {
          id: f.id,
          effect: 'rate_limit',
          delayMs: 0,
          respond: {
            status: 429,
            body: this.errorBody(429, messages.rateLimited(rate.limit, rate.window_s), undefined, spec.path),
            headers: { 'Content-Type': 'application/json', 'Retry-After': String(r.retryS), ...spec.headers },
          },
        };
      }
      const action: FaultAction = { id: f.id, effect: 'delay', delayMs: drawDelay(spec, s) };
      if (f.response !== null && spec.status !== undefined) {
        action.effect = 'status';
        action.respond = {
          status: spec.status,
          body: f.response.body,
          headers: { 'Content-Type': f.response.type, ...spec.headers },
        };
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
