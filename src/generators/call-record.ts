import type { CallRow } from './rows';

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

/**
 * What a filter reads of a call: its sortable fields, times and state, without its ids and
 * caller name. A scan of ten million seeded calls writes these into one object (see
 * `callFacts`); a whole record has them all.
 */
export type CallFacts = Omit<CallRecord, 'sid' | 'instanceId' | 'phoneNumberSid' | 'callerName'>;

/** A call as the store knows it; `format/call.ts` turns it into the wire shape. */
export interface CallRecord extends CallCore {
  /** The name of whoever the call is from: the pool entry's, the endpoint's, or `Anonymous`. */
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
  lifecycle?: { status: LiveStatus; natural?: true };
  /** A call made by `POST Calls.json` with a StatusCallback: where its callbacks go (see created-call.ts). */
  callback?: CallbackSubscription;
  /**
   * Twilio's `Record=true` on a create: the call is recorded from its answer to its end, the
   * recording appears when the call ends (see `createdRecording`), and `callback` is its
   * `RecordingStatusCallback`, if any.
   */
  record?: { callback: RecordingSubscription | null };
  /**
   * Set when a restart sweep found the call live (see `sweptAtClock`): it shows `completed`,
   * and stays as the sweep left it.
   */
  swept?: true;
  /**
   * A row of production's own data (see generators/rows.ts): the call as production holds it,
   * which every reading of the call (`shownStatus` and the rest) and its converters read instead
   * of the fields above. Those are set from it for sorting: `from` and `to` its sender and
   * recipient, `startSec` its date_created (with its fraction), `duration` and `priceInt` its own.
   */
  row?: CallRow;
}

/** Where a recorded call's recording status callbacks go: Twilio's `RecordingStatusCallback` and its events. */
export interface RecordingSubscription {
  url: string;
  method: string;
  /** `completed` (the recording made) and `absent` (the call ended unanswered: none made). */
  events: readonly ('completed' | 'absent')[];
}

/** Where a created call's status callbacks go, as the request asked: production's defaults filled in. */
export interface CallbackSubscription {
  /** The StatusCallback URL as given (its own query is sent too: see format/callback.ts). */
  url: string;
  /** StatusCallbackMethod as given, POST when absent; compared ignoring case when sent. */
  method: string;
  /** The instant of the request, in ms: the `initiated` callback's. */
  createdMs: number;
  /**
   * Twilio's `StatusCallbackEvent`: the states to send, `completed` alone by default, and
   * `completed` for every end (busy, no-answer, failed too). Absent: Restcomm's rule, every state.
   */
  events?: readonly ('initiated' | 'ringing' | 'answered' | 'completed')[];
}
