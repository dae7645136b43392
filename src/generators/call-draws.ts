import { StepTable } from '../random/step-table';
import type { Stream } from '../random/stream';
import { Weights } from '../random/weights';
import type { AccountProfile } from './account';
import type { CallDirection, CallStatus } from './call-record';
import { partyIndex } from './parties';
import { CALLS_PER_BLOCK, recordedMask } from './recording-layout';

/**
 * What a call is drawn from: the weights of its direction and outcome, its ring and talk, its
 * parties and price, as numbers read straight off its stream (call.ts assembles the record).
 */
// The observed values dominate; the rest exist so that sorting by them means something.
const DIRECTIONS = new Weights<CallDirection>([
  ['inbound', 70],
  ['outbound-api', 15],
  ['outbound-dial', 15],
]);
// Not-found takes the top of failed's share, so no other call changes its outcome for it.
const STATUSES = new Weights<CallStatus>([
  ['completed', 80],
  ['no-answer', 8],
  ['busy', 5],
  ['failed', 3],
  ['not-found', 1],
  ['canceled', 3],
]);
// Indexes into the weight tables' values: a head works on these, not on the texts.
const COMPLETED = STATUSES.values.indexOf('completed');
const FAILED = STATUSES.values.indexOf('failed');
const BUSY = STATUSES.values.indexOf('busy');
const CANCELED = STATUSES.values.indexOf('canceled');
const NOT_FOUND = STATUSES.values.indexOf('not-found');
const INBOUND = DIRECTIONS.values.indexOf('inbound');
/**
 * Ring and talk together stay under four hours, so no seeded call ends after the reference
 * instant; a filter by time relies on both bounds (see `boundMarks` in store/calls.ts).
 */
export const MAX_RING_SEC = 60;
const MAX_DURATION_SEC = 4 * 3600 - MAX_RING_SEC;
/** The longest a call rings and talks, in whole seconds (its end adds under one second). */
export const MAX_CALL_SEC = MAX_RING_SEC + MAX_DURATION_SEC;
/** A call that holds recordings lasts at least this long, so they fit inside it. */
const MIN_RECORDED_DURATION_SEC = 5;
/** Per-minute rates in USD; outbound to far destinations costs more, so a few calls pass $1. */
const INBOUND_RATE = 0.0085;
const OUTBOUND_RATES = [0.013, 0.02, 0.09, 0.35] as const;

/**
 * How long a call rang, as ranges [lo, hi] of seconds for an inbound, then an outbound call: an
 * app answers an inbound call within seconds, a callee within half a minute; outbound no-answer
 * gives up at 30-60 s; busy and failed end fast.
 */
const RINGS: Record<CallStatus, readonly [number, number, number, number]> = {
  completed: [0, 3, 3, 25],
  'no-answer': [15, 60, 30, MAX_RING_SEC],
  busy: [1, 8, 1, 8],
  failed: [0, 2, 0, 2],
  'not-found': [0, 1, 0, 1],
  canceled: [2, 30, 2, 30],
};
/** RINGS flat, in the status table's order: a sort of fifty million calls reads one a call. */
const RING_RANGES = Int8Array.from(STATUSES.values.flatMap((status) => RINGS[status]));

/** The ring seconds of range `k` (an index into RING_RANGES, a multiple of 2) from `f` in [0, 1). */
function ringWithin(k: number, f: number): number {
  const lo = RING_RANGES[k] as number;
  return lo + Math.floor(f * ((RING_RANGES[k + 1] as number) - lo + 1));
}

/**
 * Talk time with a long tail from a uniform `u`: a log-logistic law of shape 2 (median 75 s,
 * about 1% over 12 min), drawn with a square root so that every machine computes the same value.
 * It never falls as `u` grows, so a table of its steps answers it (`TALK`).
 */
export function talkOfDraw(u: number): number {
  return Math.min(MAX_DURATION_SEC, Math.max(1, Math.round(75 * Math.sqrt(u / (1 - u)))));
}
/** `talkOfDraw` by table: about 95% of draws fall in a bucket without a step (the tail has them all). */
const TALK = new StepTable(talkOfDraw, 16384);

/**
 * The head of a call: the first draws of its stream, which are all that a sort or a filter
 * reads. The parties are indexes (an endpoint of the account, an entry of its pool), so a scan
 * of ten million calls makes no string; `drawHead` writes into one of these in place.
 */
export interface CallHead {
  /** The time-line draw (see `startFromDraw`). */
  u: number;
  direction: CallDirection;
  status: CallStatus;
  ringSec: number;
  /** Talk seconds: 0 unless completed. */
  talk: number;
  duration: number | null;
  /** Index of the account's endpoint the call arrived at or left from. */
  endpoint: number;
  /** Index of the other party in the account's pool, or ANONYMOUS. */
  party: number;
  priceInt: number;
  /** Whether recordings lie on the call (it was then answered, and talked long enough). */
  recorded: boolean;
}

/** A head to draw into. @example drawHead(account, stream, false, newHead()).direction // 'inbound' */
export function newHead(): CallHead {
  return {
    u: 0,
    direction: 'inbound',
    status: 'completed',
    ringSec: 0,
    talk: 0,
    duration: 0,
    endpoint: 0,
    party: 0,
    priceInt: 0,
    recorded: false,
  };
}

/**
 * Draws a call's head from its stream into `out`: seven draws, always all of them, so what
 * follows in the stream (instance, end) sits at the same place for every call.
 */
export function drawHead(account: AccountProfile, s: Stream, recorded: boolean, out: CallHead): CallHead {
  // Arguments are evaluated left to right: the draws keep their order in the stream.
  return headOf(account, recorded, s.float(), s.float(), s.float(), s.float(), s.float(), s.float(), s.float(), out);
}

/** A call's head from its seven draws, in stream order (see `drawHead`). */
function headOf(
  account: AccountProfile,
  recorded: boolean,
  u: number,
  directionDraw: number,
  statusDraw: number,
  talkDraw: number,
  endpointDraw: number,
  partyDraw: number,
  rateDraw: number,
  out: CallHead,
): CallHead {
  out.u = u;
  outcomeOf(recorded, directionDraw, statusDraw, talkDraw, rateDraw, out);
  return partiesOf(account, endpointDraw, partyDraw, out);
}

/** Direction, status, ring, talk, duration and price from their draws, into `out`. */
function outcomeOf(
  recorded: boolean,
  directionDraw: number,
  statusDraw: number,
  talkDraw: number,
  rateDraw: number,
  out: CallHead,
): CallHead {
  out.recorded = recorded;
  const dk = directionIndex(directionDraw);
  const inbound = dk === INBOUND;
  const k = STATUSES.index(statusDraw);
  const sk = statusIndex(recorded, inbound, k);
  const status = STATUSES.values[sk] as CallStatus;
  const ringSec = ringOf(sk, inbound, k, statusDraw);
  const talk = talkOf(sk, recorded, talkDraw);
  out.direction = directionOf(dk);
  out.status = status;
  out.ringSec = ringSec;
  out.talk = talk;
  out.duration = durationOf(sk, inbound, ringSec, talk);
  out.priceInt = priceIntOf(talk, inbound, rateDraw);
  return out;
}

/**
 * The direction table's entry a call's second draw falls in (see `directionOf`), and whether
 * it is inbound: what a key scan reads without making a head.
 * @example directionIndex(0.1) // 0 (inbound)
 */
export function directionIndex(directionDraw: number): number {
  return DIRECTIONS.index(directionDraw);
}

/** Whether the direction table's entry `dk` is inbound. @example isInbound(0) // true */
export function isInbound(dk: number): boolean {
  return dk === INBOUND;
}

/** The status table's entry the status draw falls in (see `statusIndex`). @example drawnStatus(0.5) // 0 */
export function drawnStatus(statusDraw: number): number {
  return STATUSES.index(statusDraw);
}

/**
 * The status table's entry of a call (see `STATUSES`) from the one its draw fell in, `k`. A call
 * that holds recordings was answered; the status is still drawn to keep the stream aligned.
 * Nothing calls in to a number that is not found: an inbound not-found failed.
 * @example statusIndex(false, false, drawnStatus(0.5)) // 0 (completed)
 */
export function statusIndex(recorded: boolean, inbound: boolean, k: number): number {
  if (recorded) return COMPLETED;
  return inbound && k === NOT_FOUND ? FAILED : k;
}

/**
 * Ring seconds of a call with status entry `sk`, whose status draw fell in entry `k`. They come
 * from where the draw fell in its bucket: no draw of their own.
 * @example ringOf(0, true, 0, 0.5) // 2 (an inbound answered call rings 0-3 s)
 */
export function ringOf(sk: number, inbound: boolean, k: number, statusDraw: number): number {
  return ringWithin(sk * 4 + (inbound ? 0 : 2), STATUSES.rest(k, statusDraw));
}

/** Talk seconds of a call with status entry `sk`: 0 unless completed. @example talkOf(0, false, 0.5) // 75 */
export function talkOf(sk: number, recorded: boolean, talkDraw: number): number {
  if (sk !== COMPLETED) return 0;
  const table = TALK.at(talkDraw);
  const drawn = table >= 0 ? table : talkOfDraw(talkDraw);
  return recorded ? Math.max(drawn, MIN_RECORDED_DURATION_SEC) : drawn;
}

/**
 * The duration production's final record shows (see `CallSortFields.duration`), by status
 * entry: an inbound call ends through the interpreter, which writes end minus start_time
 * whatever the status; an outbound one through the Call actor, which writes it only on
 * completion (and 0 on busy; a canceled call's ring).
 * @example durationOf(0, true, 2, 75) // 75
 */
export function durationOf(sk: number, inbound: boolean, ring: number, talk: number): number | null {
  if (sk === COMPLETED) return talk;
  if (inbound || sk === CANCELED) return ring;
  return sk === BUSY ? 0 : null;
}

/** The price's integer part from the talk and the rate draw. @example priceIntOf(600, false, 0.9) // 3 */
export function priceIntOf(talk: number, inbound: boolean, rateDraw: number): number {
  const rate = OUTBOUND_RATES[Math.floor(rateDraw * OUTBOUND_RATES.length)] as number;
  return Math.floor(Math.ceil(talk / 60) * (inbound ? INBOUND_RATE : rate));
}

/** The directions and statuses of the weight tables, in their order: what key tables are laid out by. */
export const DIRECTION_TABLE: readonly CallDirection[] = DIRECTIONS.values;
export const STATUS_TABLE: readonly CallStatus[] = STATUSES.values;
/** How seeded calls end, by weight: what a created call's outcome is drawn from unless its account says otherwise. */
export const STATUS_MIX: Weights<CallStatus> = STATUSES;

/** The direction of the direction table's entry `k`. */
export function directionOf(k: number): CallDirection {
  return DIRECTIONS.values[k] as CallDirection;
}

/** The account's side and the other party, from their draws and the direction already in `out`. */
function partiesOf(account: AccountProfile, endpointDraw: number, partyDraw: number, out: CallHead): CallHead {
  out.endpoint = Math.floor(endpointDraw * account.endpoints.length);
  out.party = partyIndex(partyDraw, out.direction === 'inbound');
  return out;
}

/** A seeded call's draws: the head's seven, the instance pick, the end's milliseconds. */
const SEEDED_DRAWS = new Float64Array(9);

/**
 * The heads of seeded calls from..to-1, in index order, each written over `head` and handed to
 * `use` with the end's milliseconds (the call's ninth draw): what a filter that reads a call's
 * times scans, with no stream object and no layout array (see call-keys.ts for what a sort reads).
 * @example scanHeads(account, 0, 8, newHead(), (h, i, endMilli) => ends[i] = endMilli)
 */
export function scanHeads(
  account: AccountProfile,
  from: number,
  to: number,
  head: CallHead,
  use: (h: CallHead, i: number, endMilli: number) => void,
): void {
  const family = account.streams.seeded.calls;
  let block = -1;
  let recorded = 0;
  for (let i = from; i < to; i++) {
    const d = family.fill(i, SEEDED_DRAWS);
    // A block's recording layout decides which of its calls were answered; read it once.
    if (Math.floor(i / CALLS_PER_BLOCK) !== block) {
      block = Math.floor(i / CALLS_PER_BLOCK);
      recorded = recordedMask(account, block);
    }
    const on = (recorded & (1 << (i - block * CALLS_PER_BLOCK))) !== 0;
    headOf(
      account,
      on,
      d[0] as number,
      d[1] as number,
      d[2] as number,
      d[3] as number,
      d[4] as number,
      d[5] as number,
      d[6] as number,
      head,
    );
    use(head, i, Math.floor((d[8] as number) * 1000));
  }
}
