import type { Tick, Work } from '../store/order';

/** How long work runs before it lets the event loop turn: other requests wait at most about this. */
export const SLICE_MS = 8;

/** Resolves on the next turn of the event loop, after pending I/O. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

interface Job {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  /** The build it is, when someone may ask how far it is. */
  build?: Build;
}

/**
 * A build under way that says what it is for: the admin API lists them, with the step and how
 * far it is, so that whoever waits (the inspector) can show progress.
 */
export interface Build {
  /** What it is for (account, list, sort, filter), as the listing shows it. */
  readonly about: Readonly<Record<string, string>>;
  /** The account it builds for: a sandbox's admin view lists its own. */
  readonly accountSid: string;
  /** When it began (performance.now), for how long it has run; never shapes data. */
  readonly startedMs: number;
  /** The latest step it named, and how many steps it has named so far. */
  tick: Tick | undefined;
  steps: number;
}

/** What a Build is told when it starts. */
export type BuildLabel = Pick<Build, 'about' | 'accountSid'>;

const building = new Set<Build>();

/** Since start: labelled builds begun, and slices of any long work run (the metrics read them). */
export const sliceCounts = { builds: 0, slices: 0 };

/** The builds under way, oldest first. */
export function buildsUnderWay(): Build[] {
  return [...building];
}

/** Work under way, run in turn: one budget a turn of the event loop for all of it. */
const queue: Job[] = [];
let scheduled = false;

function schedule(): void {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  setImmediate(runTurn);
}

/**
 * One turn's share: slices of the jobs in turn (round-robin) for about SLICE_MS in all, so
 * however many orders are being built at once, a request waits at most about that long.
 */
function runTurn(): void {
  scheduled = false;
  const started = performance.now();
  while (queue.length > 0 && performance.now() - started < SLICE_MS) {
    const job = queue.shift() as Job;
    sliceCounts.slices++;
    try {
      const step = job.work.next();
      if (step.done === true) job.resolve(step.value);
      else {
        if (job.build !== undefined && step.value !== undefined) noteTick(job.build, step.value);
        queue.push(job);
      }
    } catch (err) {
      job.reject(err);
    }
  }
  schedule();
}

/**
 * Runs work a slice at a time, between other work and other requests: the order of ten
 * million calls is built this way while a health check is answered within milliseconds.
 */
export function runSliced<T>(work: Work<T>, label?: BuildLabel): Promise<T> {
  // The first step runs at once: an order already built (most requests) waits for no turn.
  let first: IteratorResult<Tick | undefined, T>;
  try {
    first = work.next();
  } catch (err) {
    return Promise.reject(err);
  }
  if (first.done === true) return Promise.resolve(first.value);
  const build: Build | undefined =
    label === undefined ? undefined : { ...label, startedMs: performance.now(), tick: undefined, steps: 0 };
  if (build !== undefined) {
    sliceCounts.builds++;
    if (first.value !== undefined) noteTick(build, first.value);
    building.add(build);
  }
  const promise = new Promise<T>((resolve, reject) => {
    queue.push({
      work,
      resolve: resolve as (value: unknown) => void,
      reject,
      ...(build === undefined ? {} : { build }),
    });
    schedule();
  });
  if (build === undefined) return promise;
  return promise.finally(() => building.delete(build));
}

function noteTick(build: Build, tick: Tick): void {
  if (build.tick?.step !== tick.step) build.steps++;
  build.tick = tick;
}

/**
 * Work that two requests need at once is done once: the second waits for the first's result.
 * Keyed by what determines the result; a key is forgotten once its work is done.
 */
export class Shared<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Work<T>, label?: BuildLabel): Promise<T> {
    let promise = this.running.get(key);
    if (promise === undefined) {
      promise = runSliced(work(), label).finally(() => this.running.delete(key));
      this.running.set(key, promise);
    }
    return promise;
  }
}
