import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import type { AccountProfile } from '../generators/account';
import { callKeysInto, type KeyColumn } from '../generators/call-keys';
import type { PartyRanks } from '../generators/parties';
import { StreamFamily } from '../random/stream';
import { SLICE } from './order';

/** Keys in a column: each thread counts its share's (see column-threads.ts). */
export const KEY_COUNT = 1 << 16;

/** What every job of a thread carries: its share and where it says how far it is. */
interface Share {
  from: number;
  to: number;
  /** The whole column, shared: a keys job writes keys from..to-1, a place job reads them. */
  keys: SharedArrayBuffer;
  /** [threads finished, calls handled], shared: what the requesting thread waits on. */
  signal: SharedArrayBuffer;
}

/** One thread's share of a key column to draw, and to count by key. */
export interface KeysJob extends Share {
  kind: 'keys';
  calls: [number, number];
  blocks: [number, number];
  endpoints: number;
  ranks: Pick<PartyRanks, 'pool' | 'endpoints' | 'anonymous'>;
  column: KeyColumn;
  /** How many of this share's calls hold each key, written at [share · KEY_COUNT + key]. */
  counts: SharedArrayBuffer;
  share: number;
}

/** One thread's share of an order to place: call i goes at `at[keys[i]]`, which then moves on. */
export interface PlaceJob extends Share {
  kind: 'place';
  /** Where this share's first call of each key goes in the order. */
  at: Uint32Array;
  /** The order, shared: every thread writes its own calls' places. */
  order: SharedArrayBuffer;
}

export type ColumnJob = KeysJob | PlaceJob;

/**
 * A call's key reads the account's streams, its endpoint count and its party ranks, nothing
 * else, so that is all a job carries; this stand-in offers exactly those to the same code the
 * main thread runs.
 */
function standIn(job: KeysJob): AccountProfile {
  return {
    streams: {
      seeded: { calls: StreamFamily.fromHashes(job.calls) },
      recordingBlock: StreamFamily.fromHashes(job.blocks),
    },
    endpoints: { length: job.endpoints },
    parties: { ranks: () => job.ranks },
  } as unknown as AccountProfile;
}

function drawKeys(job: KeysJob, signal: Int32Array): void {
  const account = standIn(job);
  const keys = new Uint16Array(job.keys);
  const counts = new Uint32Array(job.counts, job.share * KEY_COUNT * 4, KEY_COUNT);
  for (let from = job.from; from < job.to; from += SLICE) {
    const to = Math.min(job.to, from + SLICE);
    callKeysInto(account, job.column, from, to, keys);
    // Counted while the slice is still in cache: the sort needs no counting pass of its own.
    for (let i = from; i < to; i++) counts[keys[i] as number]!++;
    Atomics.add(signal, 1, to - from);
  }
}

function place(job: PlaceJob, signal: Int32Array): void {
  const keys = new Uint16Array(job.keys);
  const order = new Uint32Array(job.order);
  const at = job.at;
  for (let from = job.from; from < job.to; from += SLICE) {
    const to = Math.min(job.to, from + SLICE);
    for (let i = from; i < to; i++) order[at[keys[i] as number]!++] = i;
    Atomics.add(signal, 1, to - from);
  }
}

/**
 * A full collection of this thread's heap. A shared buffer's memory is freed only once every
 * thread that was sent it has collected its handle, and an idle thread, whose own heap never
 * grows, never collects: without this, each column and order ever drawn here (hundreds of MB at
 * fifty million calls) would stay in memory after the main thread let it go. `gc` is given to a
 * new context once the flag is set; where it is not, nothing is collected early.
 */
const collect: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  return typeof gc === 'function' ? (gc as () => void) : () => {};
})();

/** A worker thread's loop: each message is a share of a column to draw, or of an order to place. */
parentPort?.on('message', (job: ColumnJob) => {
  const signal = new Int32Array(job.signal);
  if (job.kind === 'keys') drawKeys(job, signal);
  else place(job, signal);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
  // After the notice, so the requesting thread does not wait for it.
  setImmediate(collect);
});
