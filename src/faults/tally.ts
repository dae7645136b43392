/**
 * A fault's counters: how many requests it matched (the index of the next seeded draw), how many
 * it acted on (what `times` bounds), and its rate window. One process keeps them itself; a fleet
 * keeps them in one place (the `--workers` primary, or Redis), because a fault set to act twice
 * must act twice on the fleet, not twice on each replica.
 */
export interface TallyState {
  matched: number;
  applied: number;
  /** Where the current rate window began (ms), or null before the first request it counted. */
  windowStartMs: number | null;
  windowCount: number;
}

/**
 * One step of a match, done atomically where the counters are: `draw` takes the next draw index
 * (a probability is then decided with the seeded stream, which only this code can compute);
 * `apply` counts the request against the rate window and `times`; `take` is both at once, for a
 * fault with no probability. Every step first checks `times`, so two replicas racing for a
 * fault's last use cannot both have it.
 * @example { key: 'callrec:tally:3', step: 'take', times: 2, rate: null, nowMs: 1748779200000 }
 */
export interface TallyOp {
  key: string;
  step: 'draw' | 'apply' | 'take';
  /** The fault's `times`, or null for unbounded. */
  times: number | null;
  rate: { limit: number; windowMs: number } | null;
  /** Wall time for the rate window; Redis reads its own clock instead, the one the fleet shares. */
  nowMs: number;
}

/**
 * What a step gave: `spent` (its `times` are used up: the fault no longer applies), `drawn` (a
 * draw index and nothing else), `under` (within its rate limit: no effect), `limited` (over it:
 * a 429, `retryS` seconds before the window ends), `applied` (it acts).
 * @example { verdict: 'applied', draw: 0, retryS: 0 }
 */
export interface TallyReply {
  verdict: 'spent' | 'drawn' | 'under' | 'limited' | 'applied';
  /** The draw index the step took, or -1 for none. */
  draw: number;
  retryS: number;
}

/** Where a fault's counters are kept. A local tally answers at once; a fleet's, over the network. */
export interface Tally {
  step(op: TallyOp): TallyReply | Promise<TallyReply>;
  /** The counters of these keys, for the admin views (zero for a key never counted). */
  read(keys: readonly string[]): TallyState[] | Promise<TallyState[]>;
}

export const emptyTally = (): TallyState => ({ matched: 0, applied: 0, windowStartMs: null, windowCount: 0 });

/**
 * One step on one fault's counters, in place: the rule every place that keeps them follows (the
 * Redis script in `fleet/redis-log.ts` is this function in Lua).
 */
export function stepTally(s: TallyState, op: TallyOp): TallyReply {
  if (op.times !== null && s.applied >= op.times) return { verdict: 'spent', draw: -1, retryS: 0 };
  const draw = op.step === 'apply' ? -1 : s.matched++;
  if (op.step === 'draw') return { verdict: 'drawn', draw, retryS: 0 };
  if (op.rate !== null) {
    const { limit, windowMs } = op.rate;
    if (s.windowStartMs === null || op.nowMs >= s.windowStartMs + windowMs) {
      s.windowStartMs = op.nowMs;
      s.windowCount = 0;
    }
    s.windowCount++;
    if (s.windowCount <= limit) return { verdict: 'under', draw, retryS: 0 };
    s.applied++;
    return { verdict: 'limited', draw, retryS: Math.max(1, Math.ceil((s.windowStartMs + windowMs - op.nowMs) / 1000)) };
  }
  s.applied++;
  return { verdict: 'applied', draw, retryS: 0 };
}

/** Counters kept in a map: one process's, and the `--workers` primary's for its fleet. */
export function localTally(): Tally & { drop(key: string): void; clear(): void } {
  const states = new Map<string, TallyState>();
  const of = (key: string) => {
    let s = states.get(key);
    if (s === undefined) {
      s = emptyTally();
      states.set(key, s);
    }
    return s;
  };
  return {
    step: (op) => stepTally(of(op.key), op),
    read: (keys) => keys.map((k) => ({ ...(states.get(k) ?? emptyTally()) })),
    drop: (key) => states.delete(key),
    clear: () => states.clear(),
  };
}
