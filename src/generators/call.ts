import { personName, sipUser } from '../random/faker';
import type { Stream } from '../random/stream';
import type { AccountProfile, Endpoint, WorldContext } from './account';
import { blockLayout, CALLS_PER_BLOCK } from './recording-layout';
import { MIN_GAP_SEC, newerStartSec, startFromDraw } from './timeline';

/**
 * How a call ended, in production's texts (`CallStateChanged.State`). The status a record shows
 * is spelled from it and the direction (see `storedStatus` in call-life.ts).
 */
export const CALL_STATUSES = ['completed', 'no-answer', 'busy', 'failed', 'not-found', 'canceled'] as const;
export const CALL_DIRECTIONS = ['inbound', 'outbound-api', 'outbound-dial'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
/** The states a call passes through before its final one (see generators/call-life.ts). */
export type LiveStatus = 'queued' | 'ringing' | 'in-progress';
export type CallDirection = (typeof CALL_DIRECTIONS)[number];

/** The fields a call can be sorted by (besides its creation time, which is its index order). */
export interface CallSortFields {
  from: string;
  to: string;
  direction: CallDirection;
  status: CallStatus;
  /**
   * The duration the final record shows, whole seconds: the talk time of an answered call; the
   * ring time of an inbound call that was not answered and of a canceled outbound one; 0 for an
   * outbound busy call; null (not shown) for outbound no-answer, failed and not-found.
   */
  duration: number | null;
  /** Integer part of the price: production sorts by `cast(price as int)`. */
  priceInt: number;
}

/** A call without its caller name: all a recording needs of its call. */
export interface CallCore extends CallSortFields {
  sid: string;
  instanceId: string;
  phoneNumberSid: string;
  /** date_created, whole seconds since the epoch: when the call was created. */
  startSec: number;
  /**
   * Whole seconds it rang: from creation to the answer (start_time then moves to the answer), or
   * to the end of a call that was not answered.
   */
  ringSec: number;
  /**
   * When the call ended, in milliseconds since the epoch (end_time, where production writes one;
   * date_updated's second always): creation + ring + talk seconds + under one second.
   */
  endMs: number;
}

/** A call as the store knows it; `format/call.ts` turns it into the wire shape. */
export interface CallRecord extends CallCore {
  callerName: string;
  /**
   * Set on the view of a call that has not ended yet (see `callAtClock` in call-life.ts): its
   * present state and that state's second, which is its `date_updated`. It has no `end_time` and
   * no `duration` on the wire yet.
   */
  live?: { status: LiveStatus; updatedSec: number };
  /**
   * An inserted call given a live status: it shows that status from its creation (and
   * `in-progress` from its answer) until its end, then its final form. Only inserts carry it.
   */
  lifecycle?: { status: LiveStatus };
  /**
   * Set when a restart sweep found the call live (see `sweptAtClock`): it shows `completed`,
   * and stays as the sweep left it.
   */
  swept?: true;
}

// The observed values dominate; the rest exist so that sorting by them means something.
const DIRECTION_WEIGHTS = [
  ['inbound', 70],
  ['outbound-api', 15],
  ['outbound-dial', 15],
] as const;
// Not-found takes the top of failed's share, so no other call changes its outcome for it.
const STATUS_WEIGHTS = [
  ['completed', 80],
  ['no-answer', 8],
  ['busy', 5],
  ['failed', 3],
  ['not-found', 1],
  ['canceled', 3],
] as const;
/** Ring and talk together stay under four hours, so no seeded call ends after the reference instant. */
const MAX_RING_SEC = 60;
const MAX_DURATION_SEC = 4 * 3600 - MAX_RING_SEC;
/** A call that holds recordings lasts at least this long, so they fit inside it. */
const MIN_RECORDED_DURATION_SEC = 5;
/** Per-minute rates in USD; outbound to far destinations costs more, so a few calls pass $1. */
const INBOUND_RATE = 0.0085;
const OUTBOUND_RATES = [0.013, 0.02, 0.09, 0.35] as const;
const INBOUND_PARTIES = [
  ['us', 50],
  ['intl', 10],
  ['digits', 20],
  ['sip', 15],
  ['anonymous', 5],
] as const;
// Nobody dials "Anonymous": a withheld number only ever calls in.
const OUTBOUND_PARTIES = [
  ['us', 55],
  ['intl', 10],
  ['digits', 20],
  ['sip', 15],
] as const;
const COUNTRY_CODES = ['44', '49', '33', '34', '39', '55', '61', '81', '91'] as const;

/**
 * How long a call rang, from `f` in [0, 1): an app answers an inbound call within seconds, a
 * callee within half a minute; outbound no-answer gives up at 30-60 s; busy and failed end fast.
 */
function ringOf(status: CallStatus, inbound: boolean, f: number): number {
  const within = (lo: number, hi: number) => lo + Math.floor(f * (hi - lo + 1));
  switch (status) {
    case 'completed':
      return inbound ? within(0, 3) : within(3, 25);
    case 'no-answer':
      return inbound ? within(15, 60) : within(30, MAX_RING_SEC);
    case 'busy':
      return within(1, 8);
    case 'canceled':
      return within(2, 30);
    case 'failed':
      return within(0, 2);
    case 'not-found':
      return within(0, 1);
  }
}

/**
 * The duration production's final record shows (see `CallSortFields.duration`): an inbound call
 * ends through the interpreter, which writes end minus start_time whatever the status; an
 * outbound one through the Call actor, which writes it only on completion (and 0 on busy).
 */
function finalDuration(status: CallStatus, inbound: boolean, ring: number, talk: number): number | null {
  if (status === 'completed') return talk;
  if (inbound || status === 'canceled') return ring;
  return status === 'busy' ? 0 : null;
}

/**
 * Talk time with a long tail: a log-logistic law of shape 2 (median 75 s, about 1% over 12 min),
 * drawn with a square root so that every machine computes the same value.
 */
function drawDuration(s: Stream): number {
  const u = s.float();
  return Math.min(MAX_DURATION_SEC, Math.max(1, Math.round(75 * Math.sqrt(u / (1 - u)))));
}

/** The other party: an E.164 number, bare digits, a SIP user name or a withheld caller. */
function drawParty(s: Stream, inbound: boolean): string {
  const kind = s.weighted<'us' | 'intl' | 'digits' | 'sip' | 'anonymous'>(inbound ? INBOUND_PARTIES : OUTBOUND_PARTIES);
  switch (kind) {
    case 'us':
      return `+1${s.int(2, 9)}${s.digits(9)}`;
    case 'intl':
      return `+${s.pick(COUNTRY_CODES)}${s.digits(s.int(9, 10))}`;
    case 'digits':
      return `1${s.int(2, 9)}${s.digits(9)}`;
    case 'sip':
      return sipUser(s);
    case 'anonymous':
      return 'Anonymous';
  }
}

/** How many recordings the layout puts on call `i` (0 to 3); a recorded call was answered. */
export function recordingsOnCall(
  account: AccountProfile,
  i: number,
  layout = blockLayout(account, Math.floor(i / CALLS_PER_BLOCK)),
): number {
  const offset = i % CALLS_PER_BLOCK;
  let n = 0;
  for (const x of layout) if (x === offset) n++;
  return n;
}

/**
 * The start of the call's stream: the time-line draw, then the sortable fields. Building a sort
 * order reads only this much; `generateCall` goes on with the same stream for the rest.
 */
/**
 * How far into a call's stream a sort key needs to draw: each stage draws what the earlier ones
 * do, then its own field. A sort by Direction reads two draws of the stream, not the whole head.
 */
export const CALL_STAGES = ['direction', 'status', 'duration', 'parties', 'price'] as const;
export type CallStage = (typeof CALL_STAGES)[number];
const STAGE = Object.fromEntries(CALL_STAGES.map((s, i) => [s, i])) as Record<CallStage, number>;

/** What a head drawn only up to a stage holds in the fields it did not reach. */
const UNDRAWN = { from: '', to: '', priceInt: 0 } as const;

function drawHead(
  account: AccountProfile,
  s: Stream,
  recorded: boolean,
  upTo: CallStage = 'price',
): { u: number; endpoint: Endpoint; fields: CallSortFields; ringSec: number } {
  const stop = STAGE[upTo];
  const u = s.float();
  const direction = s.weighted(DIRECTION_WEIGHTS);
  const inbound = direction === 'inbound';
  // The ring time comes from where the status draw fell in its bucket: no draw of its own.
  const [drawnStatus, rest] = s.weightedRest(STATUS_WEIGHTS);
  // A call that holds recordings was answered; the status is still drawn to keep the stream
  // aligned. Nothing calls in to a number that is not found: an inbound not-found failed.
  const status: CallStatus = recorded ? 'completed' : inbound && drawnStatus === 'not-found' ? 'failed' : drawnStatus;
  const ringSec = ringOf(status, inbound, rest);
  const drawnTalk = stop < STAGE.duration ? 0 : drawDuration(s);
  const talk = status !== 'completed' ? 0 : recorded ? Math.max(drawnTalk, MIN_RECORDED_DURATION_SEC) : drawnTalk;
  const duration = finalDuration(status, inbound, ringSec, talk);
  const firstEndpoint = account.endpoints[0] as Endpoint;
  if (stop < STAGE.parties) {
    return { u, endpoint: firstEndpoint, ringSec, fields: { direction, status, duration, ...UNDRAWN } };
  }
  const endpoint = s.pick(account.endpoints);
  const other = drawParty(s, inbound);
  const rate = inbound ? INBOUND_RATE : s.pick(OUTBOUND_RATES);
  return {
    u,
    endpoint,
    ringSec,
    fields: {
      direction,
      status,
      duration,
      from: inbound ? other : endpoint.address,
      to: inbound ? endpoint.address : other,
      priceInt: Math.floor(Math.ceil(talk / 60) * rate),
    },
  };
}

/**
 * The sortable fields of call `i` alone: what the store keeps in columns to build orders.
 * `layout` is the call's recording block layout, when the caller already has it; `upTo` draws
 * only as far as a field needs (fields past it hold placeholders: '' and 0).
 */
export function callSortFields(
  account: AccountProfile,
  i: number,
  layout?: Uint8Array,
  upTo: CallStage = 'price',
): CallSortFields {
  return drawHead(account, account.streams.seeded.calls.at(i), recordingsOnCall(account, i, layout) > 0, upTo).fields;
}

function drawCore(world: WorldContext, account: AccountProfile, i: number, s: Stream): CallCore {
  const recorded = recordingsOnCall(account, i) > 0;
  const { u, endpoint, fields, ringSec } = drawHead(account, s, recorded);
  const instanceId = s.pick(world.instanceIds);
  const sid = `${instanceId}-CA${account.sids.seeded.calls.encode(i)}`;
  const startSec = startFromDraw(world, account, i, u);
  // A recorded call's recordings lie in its talk and before the next call's creation (see
  // recording.ts), which can be as little as MIN_GAP_SEC later: its ring leaves them that room.
  const ring = recorded
    ? Math.min(ringSec, Math.max(0, newerStartSec(world, account, i) - startSec - MIN_GAP_SEC))
    : ringSec;
  return finishCore(fields, endpoint, sid, instanceId, startSec, ring, s);
}

function finishCore(
  fields: CallSortFields,
  endpoint: Endpoint,
  sid: string,
  instanceId: string,
  startSec: number,
  ringSec: number,
  s: Stream,
): CallCore {
  const talk = fields.status === 'completed' ? (fields.duration as number) : 0;
  const endMs = (startSec + ringSec + talk) * 1000 + s.int(0, 999);
  return {
    from: fields.from,
    to: fields.to,
    direction: fields.direction,
    status: fields.status,
    duration: fields.duration,
    priceInt: fields.priceInt,
    sid,
    instanceId,
    phoneNumberSid: endpoint.phoneNumberSid,
    startSec,
    ringSec,
    endMs,
  };
}

/**
 * A call drawn like a seeded one from stream `s`, starting at `startSec`, with a random sid:
 * the defaults of an admin-inserted call (see inserted.ts).
 */
export function drawDefaults(
  world: WorldContext,
  account: AccountProfile,
  s: Stream,
  startSec: number,
  recorded: boolean,
): CallCore {
  const { endpoint, fields, ringSec } = drawHead(account, s, recorded);
  const instanceId = s.pick(world.instanceIds);
  return finishCore(fields, endpoint, `${instanceId}-CA${s.hex(32)}`, instanceId, startSec, ringSec, s);
}

/** Call `i` without its caller name (the costliest field), for recordings. */
export function generateCallCore(world: WorldContext, account: AccountProfile, i: number): CallCore {
  return drawCore(world, account, i, account.streams.seeded.calls.at(i));
}

/**
 * The index of the seeded call with this sid, or undefined: the sid's hex digits decode to an
 * index, and the call at that index must carry exactly this sid.
 */
export function seededCallIndex(
  world: WorldContext,
  account: AccountProfile,
  sid: string,
  count: number,
): number | undefined {
  const m = /^(ID[0-9a-f]{32})-CA([0-9a-f]{32})$/.exec(sid);
  if (m === null) return undefined;
  const i = account.sids.seeded.calls.decode(m[2] ?? '');
  if (i === undefined || i >= count) return undefined;
  return generateCallCore(world, account, i).sid === sid ? i : undefined;
}

/** Call `i` of the account: a pure function of (seed, account, index). */
export function generateCall(world: WorldContext, account: AccountProfile, i: number): CallRecord {
  const s = account.streams.seeded.calls.at(i);
  const call = drawCore(world, account, i, s) as CallRecord;
  call.callerName = call.from === 'Anonymous' ? 'Anonymous' : personName(s);
  return call;
}
