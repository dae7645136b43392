import type { Work } from '../store/order';

/** How long work runs before it lets the event loop turn: other requests wait at most about this. */
export const SLICE_MS = 8;

/** Resolves on the next turn of the event loop, after pending I/O. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs work a slice at a time: after about SLICE_MS of it, the event loop turns (other
 * connections are served), then it goes on. The order of ten million calls is built this way,
 * while a health check is answered within milliseconds.
 */
export async function runSliced<T>(work: Work<T>): Promise<T> {
  let started = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done === true) return step.value;
    if (performance.now() - started >= SLICE_MS) {
      await nextTurn();
      started = performance.now();
    }
  }
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
