import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AccountProfile } from '../generators/account';
import type { CallColumn } from './calls';
import type { ColumnJob } from './column-worker';
import type { Work } from './order';

/** Calls from which a key column is drawn on worker threads: below it one thread takes a tenth of a second. */
export const THREADED_MIN = 1_000_000;
/** Threads at most: a column is memory-bound past a few. */
const MAX_THREADS = 4;
/** How long the requesting thread blocks between two checks, ms: its event loop turns between them. */
const WAIT_MS = 2;

const WORKER_FILE = join(__dirname, 'column-worker.js');
/** The threads, made on first use; null when there are none (run from TypeScript sources, or one failed). */
let threads: Worker[] | null | undefined;
/** Set when a thread failed: a scan under way then goes on in this thread. */
let broken = false;

function pool(): Worker[] | null {
  if (threads !== undefined) return threads;
  // Under ts-jest the source has no compiled worker beside it: everything runs in this thread.
  if (!existsSync(WORKER_FILE)) {
    threads = null;
    return threads;
  }
  const made = Array.from({ length: Math.min(MAX_THREADS, availableParallelism()) }, () => {
    const worker = new Worker(WORKER_FILE);
    // Idle threads must not keep a finished process alive.
    worker.unref();
    worker.on('error', (err) => {
      broken = true;
      threads = null;
      process.stderr.write(
        `callrec-emulator: a column thread failed (${err.message}); sorting on in the main thread\n`,
      );
    });
    return worker;
  });
  threads = made;
  return made;
}

/**
 * The key column of `n` seeded calls, drawn by the worker threads (one contiguous share each)
 * into shared memory while this thread's event loop keeps turning, or null when threads are not
 * used: fewer than THREADED_MIN calls, no compiled worker, or a thread failed (the caller then
 * draws the column itself). The keys are the ones `callKeysInto` writes in this thread.
 */
export function* keysOnThreads(
  account: AccountProfile,
  column: CallColumn,
  n: number,
  step: string,
): Work<Uint16Array | null> {
  if (n < THREADED_MIN || broken) return null;
  const workers = pool();
  if (workers === null) return null;
  const keys = new SharedArrayBuffer(n * 2);
  const signal = new SharedArrayBuffer(8);
  const ranks = account.parties.ranks();
  // A share is whole blocks of calls, so no block's layout is read by two threads.
  const share = Math.ceil(n / workers.length / 8) * 8;
  let jobs = 0;
  for (const [k, worker] of workers.entries()) {
    const from = k * share;
    const to = Math.min(n, from + share);
    if (from >= to) continue;
    const job: ColumnJob = {
      calls: account.streams.seeded.calls.hashes,
      blocks: account.streams.recordingBlock.hashes,
      endpoints: account.endpoints.length,
      ranks: { pool: ranks.pool, endpoints: ranks.endpoints, anonymous: ranks.anonymous },
      column,
      from,
      to,
      keys,
      signal,
    };
    worker.postMessage(job);
    jobs++;
  }
  const state = new Int32Array(signal);
  for (;;) {
    const finished = Atomics.load(state, 0);
    if (finished >= jobs) return new Uint16Array(keys);
    if (broken) return null;
    Atomics.wait(state, 0, finished, WAIT_MS);
    yield { step, done: Atomics.load(state, 1), total: n };
  }
}
