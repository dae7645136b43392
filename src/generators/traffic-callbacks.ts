import type { AccountProfile, WorldContext } from './account';
import type { InboundCallbacks, NumberCallback, TrafficSpec } from './account-spec';
import type { CallRecord } from './call-record';
import { arrivedCount, SETTLE_SEC, trafficOutcome } from './traffic';

/**
 * The status callbacks of inbound calls of live traffic, as Restcomm's VoiceInterpreter sends
 * them to the StatusCallback of the number called (`BaseVoiceInterpreter.callback`): one per
 * state, each state at most once, at the instants the call's life gives.
 */

/** The states the interpreter sends, as its call state's text. */
export type InboundState = 'ringing' | 'in-progress' | 'completed' | 'busy' | 'failed' | 'no-answer' | 'canceled';

/** One inbound callback: its state, when, and where it goes. */
export interface InboundDue {
  call: CallRecord;
  state: InboundState;
  atMs: number;
  target: NumberCallback;
}

/**
 * The states an inbound call sends and when: `ringing` as it arrives, `in-progress` at the answer
 * of an answered call, then its final state at its end.
 * @example inboundStates(answered).map((s) => s.state) // ['ringing', 'in-progress', 'completed']
 */
export function inboundStates(call: CallRecord): { state: InboundState; atMs: number }[] {
  const states: { state: InboundState; atMs: number }[] = [{ state: 'ringing', atMs: call.startSec * 1000 }];
  if (call.status === 'completed') states.push({ state: 'in-progress', atMs: (call.startSec + call.ringSec) * 1000 });
  states.push({ state: call.status as InboundState, atMs: call.endMs });
  return states;
}

/** The arrivals whose callbacks may fall in (fromMs, toMs]: a call's last is at most SETTLE_SEC after it arrives. */
export function arrivalsBetween(
  world: WorldContext,
  account: AccountProfile,
  traffic: TrafficSpec,
  fromMs: number,
  toMs: number,
): { first: number; end: number } {
  const first = arrivedCount(world, account, traffic, Math.floor(fromMs / 1000) - SETTLE_SEC);
  return { first, end: Math.max(first, arrivedCount(world, account, traffic, Math.floor(toMs / 1000))) };
}

/**
 * The callbacks of an account's inbound traffic due in (fromMs, toMs], in order of instant (then
 * arrival, then state), to the number's StatusCallback or the account's.
 */
export function trafficCallbacksBetween(
  world: WorldContext,
  account: AccountProfile,
  traffic: TrafficSpec,
  targets: InboundCallbacks,
  fromMs: number,
  toMs: number,
): InboundDue[] {
  const due: InboundDue[] = [];
  const { first, end } = arrivalsBetween(world, account, traffic, fromMs, toMs);
  for (let j = first; j < end; j++) {
    const call = trafficOutcome(world, account, traffic, j);
    if (call.direction !== 'inbound') continue;
    const target = targets.byNumber?.[call.to] ?? targets.all;
    if (target === undefined) continue;
    for (const s of inboundStates(call)) {
      if (s.atMs > fromMs && s.atMs <= toMs) due.push({ call, state: s.state, atMs: s.atMs, target });
    }
  }
  return due.sort((a, b) => a.atMs - b.atMs);
}
