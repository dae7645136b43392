import type { AccountProfile, WorldContext } from './account';
import type { TrafficSpec } from './account-spec';
import { drawDefaults } from './call';
import type { CallRecord } from './call-record';
import { OFFSETS_MIN, type RecordingRecord } from './recording';

/** Seconds between slots: arrival j falls in slot j, at a seeded point of it. */
const slotSec = (t: TrafficSpec) => 3600 / t.callsPerHour;

/**
 * When arrival `j` is created: a second after the reference instant at the earliest, at a point
 * of its own slot drawn from its stream, so arrivals are strictly in `j` order and the `j`-th
 * needs none of the others. Whole seconds since the epoch.
 * @example arrivalSec(world, account, { callsPerHour: 120 }, 0) // world.clockSec + 1 + (0..29)
 */
export function arrivalSec(world: WorldContext, account: AccountProfile, t: TrafficSpec, j: number): number {
  const u = account.streams.traffic.at(j).float();
  return world.clockSec + 1 + Math.floor((j + u) * slotSec(t));
}

/**
 * How many calls have arrived by `nowSec`: O(1), from the slot the instant falls in and at most
 * two arrival times either side of it.
 * @example arrivedCount(world, account, { callsPerHour: 120 }, world.clockSec + 3600) // 119, 120 or 121
 */
export function arrivedCount(world: WorldContext, account: AccountProfile, t: TrafficSpec, nowSec: number): number {
  if (nowSec <= world.clockSec) return 0;
  let c = Math.max(0, Math.floor((nowSec - world.clockSec - 1) / slotSec(t)));
  while (c > 0 && arrivalSec(world, account, t, c - 1) > nowSec) c--;
  while (arrivalSec(world, account, t, c) <= nowSec) c++;
  return c;
}

/** Arrivals of live traffic come in blocks of this many, of which RECORDED_PER_BLOCK are recorded. */
export const TRAFFIC_BLOCK = 8;
export const RECORDED_PER_BLOCK = 3;

/**
 * The recorded arrivals of a block, as positions in it, ascending: a seeded choice of
 * RECORDED_PER_BLOCK of TRAFFIC_BLOCK, so that how many recordings the traffic has is a formula
 * of how many calls arrived (a clock moved four weeks once scanned every arrival: 6-8 s frozen).
 * @example recordedInBlock(account, 0) // Uint8Array [1, 4, 6]
 */
export function recordedInBlock(account: AccountProfile, block: number): Uint8Array {
  const s = account.streams.trafficLayout.at(block);
  const picks = new Set<number>();
  while (picks.size < RECORDED_PER_BLOCK) picks.add(s.int(0, TRAFFIC_BLOCK - 1));
  return Uint8Array.from([...picks].sort((a, b) => a - b));
}

/** Whether arrival `j` is recorded: it is then answered, whatever its stream would have drawn. */
export function isRecorded(account: AccountProfile, j: number): boolean {
  return recordedInBlock(account, Math.floor(j / TRAFFIC_BLOCK)).includes(j % TRAFFIC_BLOCK);
}

/**
 * How many of the arrivals below `n` are recorded: whole blocks by the formula, and the last
 * block's layout.
 * @example recordedBelow(account, 16) // 6
 */
export function recordedBelow(account: AccountProfile, n: number): number {
  const block = Math.floor(n / TRAFFIC_BLOCK);
  const rest = n % TRAFFIC_BLOCK;
  let count = block * RECORDED_PER_BLOCK;
  if (rest > 0) for (const p of recordedInBlock(account, block)) if (p < rest) count++;
  return count;
}

/**
 * Arrival `j` in its final form: its fields drawn from its own stream as an inserted call's are,
 * its sid encoding `j` (so it is found by sid). A recorded arrival is answered, after a seeded
 * ring, talking a seeded 30 s to 10 min, when its stream drew a call that was not.
 */
export function trafficOutcome(world: WorldContext, account: AccountProfile, t: TrafficSpec, j: number): CallRecord {
  const startSec = arrivalSec(world, account, t, j);
  const s = account.streams.traffic.at(j);
  s.float();
  const call = drawDefaults(world, account, s, startSec, false);
  if (call.status !== 'completed' && isRecorded(account, j)) {
    const answer = account.streams.trafficTalk.at(j);
    const talk = answer.int(30, 600);
    call.status = 'completed';
    call.ringSec = call.direction === 'inbound' ? answer.int(0, 3) : answer.int(3, 25);
    call.duration = talk;
    call.endMs = (startSec + call.ringSec + talk) * 1000 + (call.endMs % 1000);
  }
  call.sid = `${call.instanceId}-CA${account.sids.traffic.encode(j)}`;
  return call;
}

/** The arrival number a traffic call's sid encodes, if it is one. */
export function trafficIndex(account: AccountProfile, sid: string): number | undefined {
  const m = /^ID[0-9a-f]{32}-CA([0-9a-f]{32})$/.exec(sid);
  return m === null ? undefined : account.sids.traffic.decode(m[1] ?? '');
}

/** Longest a call of live traffic lives (four hours of talk and its ring) plus the longest recording lag. */
export const SETTLE_SEC = 4 * 3600 + 60 + 120;

/**
 * The recording of arrival `j`, if it has one (3 arrivals of every 8, see `recordedInBlock`),
 * once, inside the talk; it appears a seeded 5–120 s after the call ends (production uploads it
 * then), and before that it is in no list and its audio is a 404. Its `date_created` is that
 * moment: production stamps the row when it builds it, once the file is stored, so a new
 * recording lands at the head of the newest-first list, never back among older ones.
 */
export function trafficRecording(
  world: WorldContext,
  account: AccountProfile,
  t: TrafficSpec,
  j: number,
): { rec: RecordingRecord; appearSec: number } | null {
  if (!isRecorded(account, j)) return null;
  const call = trafficOutcome(world, account, t, j);
  const s = account.streams.trafficRecording.at(j);
  const answered = call.startSec + call.ringSec;
  const endSec = Math.floor(call.endMs / 1000);
  // Where in the talk it started, which bounds how long it can be.
  const startedSec = answered + s.int(0, Math.max(0, endSec - answered - 1));
  const room = endSec - startedSec;
  const duration = Math.max(1, Math.floor(room * (0.3 + 0.7 * s.float()) * 1000) / 1000);
  const offsetMin = s.pick(OFFSETS_MIN);
  const appearSec = endSec + s.int(5, 120);
  const rec: RecordingRecord = {
    sid: trafficRecordingSid(account, j),
    callSid: call.sid,
    createdSec: appearSec,
    offsetMin,
    duration,
  };
  return { rec, appearSec };
}

/** The sid of arrival `j`'s recording. @example trafficRecordingSid(account, 0) // 'RE5f…' (34 characters) */
export function trafficRecordingSid(account: AccountProfile, j: number): string {
  return `RE${account.sids.trafficRecording.encode(j)}`;
}

/** The arrival number a traffic recording's sid encodes, if it is one. */
export function trafficRecordingIndex(account: AccountProfile, sid: string): number | undefined {
  const m = /^RE([0-9a-f]{32})$/.exec(sid);
  return m === null ? undefined : account.sids.trafficRecording.decode(m[1] ?? '');
}
