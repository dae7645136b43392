import { parentPort, workerData } from 'node:worker_threads';
import { ByteSink } from '../format/byte-sink';
import { writeCallJson } from '../format/call';
import { type AccountProfile, makeAccountProfile, makeWorldContext, type WorldContext } from '../generators/account';
import { generateCall } from '../generators/call';

/** What a page thread is given when made: the slots its pages are written into, shared. */
export interface PageThreadData {
  slots: SharedArrayBuffer;
  slotBytes: number;
}

/**
 * A page's seeded calls to write, joined by commas, into slot `slot`: every seeded call is a pure
 * function of (seed, reference instant, the sid its data is drawn from, index), so that is all a
 * job carries, and the thread makes the same account profile the main thread has.
 */
export interface PageJob {
  seq: number;
  slot: number;
  seed: string;
  clockMs: number;
  dataOf: string;
  /** The account the calls are written under (a sandbox's own sid, its data its parent's). */
  accountSid: string;
  ids: Uint32Array;
}

/**
 * A job done: the bytes written into its slot; -1 when they did not fit, -2 when writing failed
 * (the main thread then writes the page itself). `firstSid`: the first call's sid, which the
 * main thread checks once per profile against its own.
 */
export interface PageDone {
  seq: number;
  bytes: number;
  firstSid: string;
}

/** Profiles made, by (seed, instant, data): a thread serves whatever accounts are walked. */
const PROFILES_MAX = 32;
const profiles = new Map<string, { world: WorldContext; profile: AccountProfile }>();

function profileOf(job: PageJob): { world: WorldContext; profile: AccountProfile } {
  const key = `${job.seed}\u001f${job.clockMs}\u001f${job.dataOf}`;
  let made = profiles.get(key);
  if (made === undefined) {
    if (profiles.size >= PROFILES_MAX) profiles.clear();
    // Only the data's sid shapes a seeded call (see makeAccountProfile): name and token do not.
    const spec = { friendlyName: '', calls: 0, recordings: 0, sid: job.dataOf, dataOf: job.dataOf };
    made = { world: makeWorldContext(job.seed, job.clockMs), profile: makeAccountProfile(job.seed, spec, 0) };
    profiles.set(key, made);
  }
  return made;
}

const COMMA = Buffer.from(',');

function write(job: PageJob, slots: Buffer, slotBytes: number, sink: ByteSink): PageDone {
  const { world, profile } = profileOf(job);
  sink.at = 0;
  let firstSid = '';
  for (let k = 0; k < job.ids.length; k++) {
    if (k > 0) sink.bytes(COMMA);
    const call = generateCall(world, profile, job.ids[k] as number);
    if (k === 0) firstSid = call.sid;
    writeCallJson(call, job.accountSid, sink);
  }
  if (sink.at > slotBytes) return { seq: job.seq, bytes: -1, firstSid };
  sink.buf.copy(slots, job.slot * slotBytes, 0, sink.at);
  return { seq: job.seq, bytes: sink.at, firstSid };
}

if (parentPort !== null) {
  const port = parentPort;
  const { slots: shared, slotBytes } = workerData as PageThreadData;
  const slots = Buffer.from(shared);
  const sink = new ByteSink(slotBytes);
  port.on('message', (job: PageJob) => {
    let done: PageDone;
    try {
      done = write(job, slots, slotBytes, sink);
    } catch {
      done = { seq: job.seq, bytes: -2, firstSid: '' };
    }
    port.postMessage(done);
  });
  port.postMessage('ready');
}
