import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AccountProfile } from '../generators/account';
import type { KeyColumn } from '../generators/call-keys';
import { type ColumnJob, KEY_COUNT, type KeysJob } from './column-worker';
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

/** Contiguous shares of 0..n-1, one a thread, each whole blocks of calls (no block's layout read twice). */
function sharesOf(n: number, count: number): { from: number; to: number }[] {
  const size = Math.ceil(n / count / 8) * 8;
  return Array.from({ length: count }, (_, k) => ({ from: k * size, to: Math.min(n, (k + 1) * size) })).filter(
    (s) => s.from < s.to,
  );
}

/**
 * Posts one job a share and waits for all of them, a few ms at a time, so this thread's event
 * loop keeps turning (other requests are answered meanwhile). False when a thread failed.
 */
function* runShares(
  workers: Worker[],
  jobs: readonly ColumnJob[],
  signal: SharedArrayBuffer,
  step: string,
  total: number,
): Work<boolean> {
  for (const [k, job] of jobs.entries()) (workers[k] as Worker).postMessage(job);
  const state = new Int32Array(signal);
  for (;;) {
    const finished = Atomics.load(state, 0);
    if (finished >= jobs.length) return true;
    if (broken) return false;
    Atomics.wait(state, 0, finished, WAIT_MS);
    yield { step, done: Atomics.load(state, 1), total };
  }
}

/** A key column drawn on threads: the keys, how many calls hold each, and the way to order them there too. */
export interface ThreadedKeys {
  keys: Uint16Array;
  /** How many calls hold each key (the column's key groups, see `keyGroups`). */
  counts: Uint32Array;
  /**
   * The calls ordered by key (ascending or descending, ties by index ascending), each thread
   * placing its own share's calls; null when a thread failed (the caller then sorts the keys).
   */
  order(direction: 'asc' | 'desc'): Work<Uint32Array | null>;
}

/**
 * The key column of `n` seeded calls, drawn by the worker threads (one contiguous share each)
 * into shared memory while this thread's event loop keeps turning, or null when threads are not
 * used: fewer than THREADED_MIN calls, no compiled worker, or a thread failed (the caller then
 * draws the column itself). The keys are the ones `callKeysInto` writes in this thread; each
 * thread counts its share's keys as it goes, so an order needs no counting pass.
 */
export function* keysOnThreads(
  account: AccountProfile,
  column: KeyColumn,
  n: number,
  step: string,
): Work<ThreadedKeys | null> {
  if (n < THREADED_MIN || broken) return null;
  const workers = pool();
  if (workers === null) return null;
  const shares = sharesOf(n, workers.length);
  const keys = new SharedArrayBuffer(n * 2);
  const shareCounts = new SharedArrayBuffer(shares.length * KEY_COUNT * 4);
  const signal = new SharedArrayBuffer(8);
  const ranks = account.parties.ranks();
  const jobs = shares.map(
    ({ from, to }, share): KeysJob => ({
      kind: 'keys',
      calls: account.streams.seeded.calls.hashes,
      blocks: account.streams.recordingBlock.hashes,
      endpoints: account.endpoints.length,
      ranks: { pool: ranks.pool, endpoints: ranks.endpoints, anonymous: ranks.anonymous },
      column,
      from,
      to,
      keys,
      counts: shareCounts,
      share,
      signal,
    }),
  );
  if (!(yield* runShares(workers, jobs, signal, step, n))) return null;
  const perShare = shares.map((_, s) => new Uint32Array(shareCounts, s * KEY_COUNT * 4, KEY_COUNT));
  const counts = new Uint32Array(KEY_COUNT);
  for (const part of perShare) for (let key = 0; key < KEY_COUNT; key++) counts[key]! += part[key] as number;
  return {
    keys: new Uint16Array(keys),
    counts,
    *order(direction) {
      const order = new SharedArrayBuffer(n * 4);
      // Where each share's first call of each key goes: keys in the order's direction, and
      // within a key the shares in index order, so ties stay by index ascending either way.
      const at = shares.map(() => new Uint32Array(KEY_COUNT));
      let next = 0;
      for (let j = 0; j < KEY_COUNT; j++) {
        const key = direction === 'asc' ? j : KEY_COUNT - 1 - j;
        for (const [s, part] of perShare.entries()) {
          (at[s] as Uint32Array)[key] = next;
          next += part[key] as number;
        }
      }
      const placing = new SharedArrayBuffer(8);
      const places = shares.map(
        ({ from, to }, s): ColumnJob => ({
          kind: 'place',
          from,
          to,
          keys,
          signal: placing,
          at: at[s] as Uint32Array,
          order,
        }),
      );
      if (!(yield* runShares(workers, places, placing, 'Sorting', n))) return null;
      return new Uint32Array(order);
    },
  };
}
