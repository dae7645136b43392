import { parentPort } from 'node:worker_threads';
import type { AccountProfile } from '../generators/account';
import type { PartyRanks } from '../generators/parties';
import { StreamFamily } from '../random/stream';
import { type CallColumn, callKeysInto } from './calls';
import { SLICE } from './order';

/** One thread's share of a key column (see column-threads.ts): plain data, cloned or shared. */
export interface ColumnJob {
  calls: [number, number];
  blocks: [number, number];
  endpoints: number;
  ranks: Pick<PartyRanks, 'pool' | 'endpoints' | 'anonymous'>;
  column: CallColumn;
  from: number;
  to: number;
  /** The whole column, shared: this thread writes keys from..to-1. */
  keys: SharedArrayBuffer;
  /** [threads finished, calls read], shared: what the requesting thread waits on. */
  signal: SharedArrayBuffer;
}

/**
 * A worker thread's loop: each message is a share of a column to fill. A call's key reads the
 * account's streams, its endpoint count and its party ranks, nothing else, so that is all a job
 * carries; the stand-in below offers exactly those to the same code the main thread runs.
 */
parentPort?.on('message', (job: ColumnJob) => {
  const account = {
    streams: {
      seeded: { calls: StreamFamily.fromHashes(job.calls) },
      recordingBlock: StreamFamily.fromHashes(job.blocks),
    },
    endpoints: { length: job.endpoints },
    parties: { ranks: () => job.ranks },
  } as unknown as AccountProfile;
  const keys = new Uint16Array(job.keys);
  const signal = new Int32Array(job.signal);
  for (let from = job.from; from < job.to; from += SLICE) {
    const to = Math.min(job.to, from + SLICE);
    callKeysInto(account, job.column, from, to, keys);
    Atomics.add(signal, 1, to - from);
  }
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
