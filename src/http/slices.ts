import type { Work } from '../store/order';

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
    try {
      const step = job.work.next();
      if (step.done === true) job.resolve(step.value);
      else queue.push(job);
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
export function runSliced<T>(work: Work<T>): Promise<T> {
  // The first step runs at once: an order already built (most requests) waits for no turn.
  let first: IteratorResult<void, T>;
  try {
    first = work.next();
  } catch (err) {
    return Promise.reject(err);
  }
  if (first.done === true) return Promise.resolve(first.value);
  return new Promise<T>((resolve, reject) => {
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    schedule();
  });
}

/**
 * Work that two requests need at once is done once: the second waits for the first's result.
 * Keyed by what determines the result; a key is forgotten once its work is done.
 */
export class Shared<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Work<T>): Promise<T> {
    let promise = this.running.get(key);
    if (promise === undefined) {
      promise = runSliced(work()).finally(() => this.running.delete(key));
      this.running.set(key, promise);
    }
    return promise;
  }
}
