import { Stream } from '../random/stream';
import { Weights } from '../random/weights';
import type { AccountProfile, WorldContext } from './account';
import type { CallbackFaults, OutcomeSpec } from './account-spec';
import { priceIntOf, STATUS_MIX, talkOf } from './call-draws';
import { lifeSteps } from './call-life';
import type { CallbackSubscription } from './call-record';
import { CALL_STATUSES, type CallRecord, type CallStatus } from './call-record';
import { insertedCallDefaults } from './inserted';
import type { RecordingRecord } from './recording';

/**
 * A call made through `POST Calls.json`: an `outbound-api` call that lives its life on the
 * account's clock (queued, ringing, answered or not, ended) as Restcomm's Call actor writes it,
 * and the status callbacks it sends on the way (`Call.executeStatusCallback`).
 */

/** What a create request gives, read and normalized (see admin/created-calls.ts). */
export interface CallRequest {
  from: string;
  to: string;
  /** Seconds the callee may ring before the call is given up: `Timeout`, 60 when absent. */
  timeoutSec: number;
  callback: Omit<CallbackSubscription, 'createdMs'> | null;
  /** Twilio's `Record=true`, with its recording status callback (absent: not recorded). */
  record?: CallRecord['record'];
}

/** The weight table of an account's outcomes: the given weights, or production's mix. */
function outcomeTable(spec: OutcomeSpec | undefined): Weights<CallStatus> {
  const given = spec?.weights;
  // Absent: the seeded calls' mix, so a created call ends as a listed one does.
  if (given === undefined) return STATUS_MIX;
  return new Weights(CALL_STATUSES.filter((s) => (given[s] ?? 0) > 0).map((s) => [s, given[s] as number] as const));
}

/**
 * The k-th call created in the account, at `nowMs`: its sid and ids as the k-th insert's (so
 * creates and admin inserts number alike), its outcome drawn from a stream keyed by that sid
 * (unless the account fixes it), its ring and talk from the same stream.
 * - answered: rings 2 to 20 s (never to the timeout), talks as a seeded call does;
 * - busy: rings 1 to 10 s; canceled: rings 3 s to the timeout (the caller gives up);
 * - no-answer: rings the whole `Timeout`; failed and not-found: end as they are dialled.
 * @example createdCall(world, account, 0, nowMs, { from: '+15126002188', to: '+15550001111', timeoutSec: 60, callback: null }).status // 'completed'
 */
export function createdCall(
  world: WorldContext,
  account: AccountProfile,
  k: number,
  nowMs: number,
  request: CallRequest,
  outcomes?: OutcomeSpec,
): CallRecord {
  const call = insertedCallDefaults(world, account, k);
  const s = Stream.of([call.sid, 'outcome']);
  const table = outcomeTable(outcomes);
  const drawn = table.values[table.index(s.float())] as CallStatus;
  const status = outcomes?.byTo?.[request.to] ?? drawn;
  const timeout = request.timeoutSec;
  const startSec = Math.floor(nowMs / 1000);
  const ringSec = ringOfOutcome(status, timeout, s);
  const talk = status === 'completed' ? talkOf(0, false, s.float()) : 0;
  const priceDraw = s.float();
  const endMs = (startSec + ringSec + talk) * 1000 + s.int(0, 999);
  call.direction = 'outbound-api';
  call.from = request.from;
  call.to = request.to;
  call.callerName = userOf(request.from);
  call.status = status;
  call.startSec = startSec;
  call.ringSec = ringSec;
  call.endMs = Math.max(endMs, nowMs);
  call.duration = status === 'completed' ? talk : status === 'canceled' ? ringSec : status === 'busy' ? 0 : null;
  call.priceInt = status === 'completed' ? priceIntOf(talk, false, priceDraw) : 0;
  call.lifecycle = { status: 'queued', natural: true };
  if (request.callback !== null) call.callback = { ...request.callback, createdMs: nowMs };
  if (request.record !== undefined) call.record = request.record;
  return call;
}

/**
 * The recording of a created call with `Record=true`, once it has ended: an answered call's, from
 * its answer, as long as its talk, with a sid of its own keyed by the call's; none for a call that
 * was not answered. Made from the call alone, so every replica makes the same.
 * @example createdRecording(answeredCall)?.duration // the talk, in seconds
 */
export function createdRecording(call: CallRecord): RecordingRecord | null {
  if (call.record === undefined || call.status !== 'completed') return null;
  return {
    sid: `RE${Stream.of([call.sid, 'recording']).hex(32)}`,
    callSid: call.sid,
    createdSec: call.startSec + call.ringSec,
    offsetMin: 0,
    duration: call.duration ?? 0,
  };
}

/** Seconds a created call rings before its outcome. */
function ringOfOutcome(status: CallStatus, timeout: number, s: Stream): number {
  switch (status) {
    case 'completed':
      return Math.min(s.int(2, 20), Math.max(timeout - 1, 2));
    case 'busy':
      return Math.min(s.int(1, 10), timeout);
    case 'canceled':
      return Math.max(1, Math.min(s.int(3, 30), timeout - 1));
    case 'no-answer':
      return timeout;
    default:
      return 0;
  }
}

/**
 * The user part of an address, as production's SIP URIs give it: `sip:alice@host` and
 * `client:alice` are `alice`, a number is itself.
 * @example userOf('sip:alice@example.com') // 'alice'
 */
export function userOf(address: string): string {
  const bare = address.replace(/^(sips?|client):/, '');
  const at = bare.indexOf('@');
  return at === -1 ? bare : bare.slice(0, at);
}

/** The four callback states, in production's order; each one's `SequenceNumber` is its index. */
export const CALLBACK_EVENTS = ['initiated', 'ringing', 'answered', 'completed'] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

/** One status callback a created call sends: its state and when. */
export interface DueCallback {
  event: CallbackEvent;
  /** When it is sent. */
  atMs: number;
  /** The instant its Timestamp says: the state's, whatever a fault does to the sending. */
  stampMs: number;
  /** A seeded delivery fault (see `faultedCallbacks`); absent: sent as production sends it. */
  fault?: CallbackFault;
}

export type CallbackFault = 'drop' | 'duplicate' | 'delay' | 'reorder';

/**
 * The callbacks a call with a subscription sends, in order, from its life (see `lifeSteps`):
 * - `initiated` as it is dialled (the request's instant);
 * - `ringing` when the callee's phone rings (the record's ringing state);
 * - `answered` at the answer;
 * - `completed` at the end of a call that was answered, busy, failed or canceled. A no-answer or
 *   not-found call sends none: the Call actor's NoAnswer and NotFound actions set the status only.
 * A subscription of Twilio's (`events`) sends `completed` at every end, and only the states it names.
 * @example dueCallbacks(answeredCall).map((c) => c.event) // ['initiated', 'ringing', 'answered', 'completed']
 */
export function dueCallbacks(call: CallRecord): DueCallback[] {
  const sub = call.callback;
  if (sub === undefined) return [];
  if (sub.events !== undefined) {
    const asked = sub.events;
    return restcommDue(call, true).filter((d) => asked.includes(d.event));
  }
  return restcommDue(call, false);
}

/** The states Restcomm's Call actor calls back, in order; `everyEnd`: `completed` at any end, as Twilio. */
function restcommDue(call: CallRecord, everyEnd: boolean): DueCallback[] {
  const sub = call.callback as CallbackSubscription;
  const at = (event: CallbackEvent, atMs: number): DueCallback => ({ event, atMs, stampMs: atMs });
  const due: DueCallback[] = [at('initiated', sub.createdMs)];
  for (const step of lifeSteps(call)) {
    if (step.status === 'ringing') due.push(at('ringing', step.atSec * 1000));
    if (step.status === 'in-progress') due.push(at('answered', step.atSec * 1000));
  }
  if (everyEnd || SENDS_COMPLETED.has(call.status)) due.push(at('completed', call.endMs));
  return due;
}

/**
 * The callbacks of call `sid` with the account's seeded faults applied, in the order they are
 * sent. Each callback's fate is drawn from a stream keyed by the call's sid and its state, so the
 * same calls meet the same faults in every run. The initiated callback, sent as the create
 * answers, is never delayed or reordered (only dropped or doubled).
 * @example faultedCallbacks(due, call.sid, { duplicate: 1 }).length // twice as many
 */
export function faultedCallbacks(
  due: readonly DueCallback[],
  sid: string,
  faults: CallbackFaults | undefined,
): DueCallback[] {
  if (faults === undefined) return [...due];
  const ranked: { d: DueCallback; rank: number }[] = [];
  due.forEach((d, i) => {
    const s = Stream.of([sid, d.event, 'callback-fault']);
    const [drop, delay, delayBy, reorder, duplicate] = [s.float(), s.float(), s.float(), s.float(), s.float()];
    if (drop < (faults.drop ?? 0)) {
      ranked.push({ d: { ...d, fault: 'drop' }, rank: i });
      return;
    }
    const next = due[i + 1];
    const movable = d.event !== 'initiated';
    if (movable && faults.delay !== undefined && delay < faults.delay.probability) {
      const atMs = d.atMs + 1 + Math.floor(delayBy * faults.delay.max_ms);
      ranked.push({ d: { ...d, atMs, fault: 'delay' }, rank: i });
    } else if (movable && next !== undefined && reorder < (faults.reorder ?? 0)) {
      // Sent at the next state's instant, just after it.
      ranked.push({ d: { ...d, atMs: next.atMs, fault: 'reorder' }, rank: i + 1.5 });
    } else {
      ranked.push({ d, rank: i });
    }
    if (duplicate < (faults.duplicate ?? 0)) {
      const sent = ranked[ranked.length - 1] as { d: DueCallback; rank: number };
      ranked.push({ d: { ...sent.d, fault: 'duplicate' }, rank: sent.rank + 0.25 });
    }
  });
  return ranked.sort((a, b) => a.d.atMs - b.d.atMs || a.rank - b.rank).map((r) => r.d);
}

const SENDS_COMPLETED = new Set<CallStatus>(['completed', 'busy', 'failed', 'canceled']);
