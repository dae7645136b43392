import type { CallDirection, CallFacts, CallRecord, CallStatus, LiveStatus } from './call-record';

/**
 * A call's life as production writes it (Restcomm's `Call` actor for outbound calls, the
 * `VoiceInterpreter` for inbound ones): which status text a record holds, which of start_time,
 * end_time, duration, ring_duration and answered_by it has, and what it shows before it ends.
 * Pure functions of the record (and the clock, for a call that has not ended).
 */

/** Every state a call shows, live or final. */
export type CallState = CallStatus | LiveStatus;

// The Call actor stores the state enum's name (QUEUED, NO_ANSWER...) for most states; its
// InProgress and Completed actions write the text instead (in-progress, completed, and canceled,
// as a cancel passes through Completed). The interpreter writes every inbound status as the text.
const ENUM_NAMES: Partial<Record<CallState, string>> = {
  queued: 'QUEUED',
  ringing: 'RINGING',
  busy: 'BUSY',
  'not-found': 'NOT_FOUND',
  'no-answer': 'NO_ANSWER',
  failed: 'FAILED',
};

/**
 * The status text production stores for a state of a call going this way.
 * @example storedStatus('outbound-api', 'no-answer') // 'NO_ANSWER'
 * @example storedStatus('inbound', 'no-answer') // 'no-answer'
 */
export function storedStatus(direction: CallDirection, state: CallState): string {
  return direction === 'inbound' ? state : (ENUM_NAMES[state] ?? state);
}

/** Every status text a record can hold, both spellings. @example STORED_STATUSES.includes('NO_ANSWER') // true */
export const STORED_STATUSES: readonly string[] = [
  ...new Set(
    (
      ['queued', 'ringing', 'in-progress', 'completed', 'no-answer', 'busy', 'failed', 'not-found', 'canceled'] as const
    ).flatMap((s) => [storedStatus('inbound', s), storedStatus('outbound-api', s)]),
  ),
];

/** The state a status text names, whichever spelling and case. @example stateOfText('No_Answer') // 'no-answer' */
export function stateOfText(text: string): CallState | undefined {
  const t = text.toLowerCase().replace('_', '-');
  return (STORED_STATUSES as readonly string[]).includes(t) ? (t as CallState) : undefined;
}

const outbound = (call: CallFacts) => call.direction !== 'inbound';

/**
 * Whether a call that ended so has no end_time: an outbound call that ends busy, no-answer,
 * failed or not-found (the Call actor sets only their status; busy also its duration and
 * ring_duration).
 * @example endsWithoutEndTime('outbound-api', 'busy') // true
 */
export function endsWithoutEndTime(direction: CallDirection, status: CallStatus): boolean {
  return direction !== 'inbound' && status !== 'completed' && status !== 'canceled';
}

/** Whether the record, as it stands, has been answered: completed, or in-progress now. */
function answered(call: CallFacts): boolean {
  return call.live === undefined ? call.status === 'completed' : call.live.status === 'in-progress';
}

/** The status text the record holds now. @example shownStatus(busyOutbound) // 'BUSY' */
export function shownStatus(call: CallFacts): string {
  if (call.row !== undefined) return call.row.status ?? '';
  if (call.swept === true) return 'completed';
  return storedStatus(call.direction, call.live?.status ?? call.status);
}

/**
 * start_time in whole seconds: the creation, reset to the answer once answered (both writers
 * reset it there, so that duration is talk time).
 */
export function shownStartSec(call: CallFacts): number {
  // A row's NULL start_time is NaN: it fails every comparison, as NULL does in SQL.
  if (call.row !== undefined) return call.row.start_time === null ? Number.NaN : call.row.start_time / 1000;
  return answered(call) ? call.startSec + call.ringSec : call.startSec;
}

/** end_time in milliseconds, as stored (whole seconds), or undefined where production writes none: before the end, and see `endsWithoutEndTime`. */
export function shownEndMs(call: CallFacts): number | undefined {
  if (call.row !== undefined) return call.row.end_time ?? undefined;
  if (call.live !== undefined || endsWithoutEndTime(call.direction, call.status)) return undefined;
  // The call ends at its instant (its life, its callbacks), but production keeps end_time in a
  // MariaDB DATETIME, which holds whole seconds (init.sql): that is what it prints and filters.
  return call.endMs - (call.endMs % 1000);
}

/** duration, or undefined while live and where production writes none (see `CallSortFields.duration`). */
export function shownDuration(call: CallFacts): number | undefined {
  if (call.row !== undefined) return call.row.duration ?? undefined;
  return call.live !== undefined || call.duration === null ? undefined : call.duration;
}

/**
 * ring_duration: outbound only, set at the answer (creation to answer) and on busy (how long it
 * rang); never on inbound calls.
 */
export function shownRingDuration(call: CallRecord): number | undefined {
  if (call.row !== undefined) return call.row.ring_duration ?? undefined;
  if (!outbound(call)) return undefined;
  if (answered(call)) return call.ringSec;
  return call.live === undefined && call.status === 'busy' ? call.ringSec : undefined;
}

/** answered_by: outbound only, the callee (the record's `to`), once answered. */
export function shownAnsweredBy(call: CallRecord): string | undefined {
  if (call.row !== undefined) return call.row.answered_by ?? undefined;
  return outbound(call) && answered(call) ? call.to : undefined;
}

/** date_updated in whole seconds: every setter bumps it, so it is the second of the last change. */
export function shownUpdatedSec(call: CallRecord): number {
  if (call.row !== undefined) return Math.floor((call.row.date_updated ?? call.row.date_created) / 1000);
  return call.live === undefined ? Math.floor(call.endMs / 1000) : call.live.updatedSec;
}

/** One state of a call's life and the second it is entered. */
export interface LifeStep {
  status: LiveStatus;
  atSec: number;
}

/**
 * The states a call passes through before its final one, in order: an outbound call is created
 * queued and rings a second later, an inbound one is created ringing; an answered call is
 * in-progress from its answer. An insert given a live status starts in that status instead.
 * @example lifeSteps(outboundAnswered) // [{ status: 'queued', atSec: c }, { status: 'ringing', atSec: c + 1 }, { status: 'in-progress', atSec: c + 12 }]
 */
export function lifeSteps(call: CallRecord): LifeStep[] {
  const c = call.startSec;
  // An insert given in-progress lives as any answered call (in-progress from its answer); one
  // given queued or ringing stays so until it ends. A created call (`natural`) lives as a seeded one.
  const given =
    call.lifecycle?.status === 'in-progress' || call.lifecycle?.natural === true ? undefined : call.lifecycle?.status;
  const first: LiveStatus = given ?? (outbound(call) ? 'queued' : 'ringing');
  const steps: LifeStep[] = [{ status: first, atSec: c }];
  const answerSec = c + call.ringSec;
  const lastSec = call.status === 'completed' ? answerSec : Math.floor(call.endMs / 1000);
  if (given === undefined && first === 'queued' && c + 1 <= lastSec) {
    steps.push({ status: 'ringing', atSec: c + 1 });
  }
  if (call.status === 'completed') {
    // Answered in the second it was created or began to ring: in-progress from then.
    while (steps.length > 0 && (steps[steps.length - 1] as LifeStep).atSec >= answerSec) steps.pop();
    steps.push({ status: 'in-progress', atSec: answerSec });
  }
  return steps;
}

/**
 * A call as it stands at `nowMs`: its final form from its end (to the millisecond: production
 * writes end_time as "now", so no reader sees an end ahead of the clock), else the last state it
 * has entered, with that state's second as its date_updated.
 * @example callAtClock(call, call.endMs - 1).live // { status: 'in-progress', updatedSec: … }
 */
export function callAtClock(call: CallRecord, nowMs: number): CallRecord {
  if (nowMs >= call.endMs) return call;
  const nowSec = Math.floor(nowMs / 1000);
  const steps = lifeSteps(call);
  let step = steps[0] as LifeStep;
  for (const s of steps) if (s.atSec <= nowSec) step = s;
  return { ...call, live: { status: step.status, updatedSec: step.atSec } };
}

/**
 * A stored call as it stands at `nowMs`: an insert given a live status moves with the clock
 * (`callAtClock`); every other stored call shows its final form.
 */
export function storedAtClock(call: CallRecord, nowMs: number, sweeps: readonly RestartSweep[] = []): CallRecord {
  return call.lifecycle === undefined ? call : sweptAtClock(call, nowMs, sweeps);
}

/**
 * A node's restart, as production's start-up runs it: every call of that node (its InstanceId;
 * null: every node) that is queued, ringing or in progress becomes `completed`.
 * @example { instanceId: 'ID…', atMs: 1748782800000 }
 */
export interface RestartSweep {
  instanceId: string | null;
  atMs: number;
}

/**
 * A call as it stands at `nowMs` (the true time; its node's clock reads `skewMs` more), after
 * restart sweeps: the first sweep of its node that found it live, once created, left it so for
 * good, with its status `completed` and nothing else changed (`call-detail-records.xml` sets
 * the status alone: no end_time, no duration, date_updated as it was).
 * @example sweptAtClock(liveCall, later, [{ instanceId: null, atMs: during }]).swept // true
 */
export function sweptAtClock(call: CallRecord, nowMs: number, sweeps: readonly RestartSweep[], skewMs = 0): CallRecord {
  for (const sweep of sweeps) {
    if (sweep.atMs > nowMs) break;
    if (sweep.instanceId !== null && sweep.instanceId !== call.instanceId) continue;
    const nodeMs = sweep.atMs + skewMs;
    if (nodeMs < call.startSec * 1000 || nodeMs >= call.endMs) continue;
    return { ...callAtClock(call, nodeMs), swept: true };
  }
  return callAtClock(call, nowMs + skewMs);
}
