import type { Stream } from '../random/stream';
import type { AccountProfile, Endpoint, WorldContext } from './account';
import { type CallHead, drawHead, newHead } from './call-draws';
import type { CallFacts, CallRecord } from './call-record';
import { ANONYMOUS, ANONYMOUS_TEXT } from './parties';
import { CALLS_PER_BLOCK, recordedMask } from './recording-layout';
import { MIN_GAP_SEC, newerStartSec, startFromDraw } from './timeline';

/** The other party's text: its pool entry's address, or `Anonymous`. */
function partyText(account: AccountProfile, head: CallHead): string {
  return head.party === ANONYMOUS ? ANONYMOUS_TEXT : account.parties.address(head.party);
}

/** The address of the account's side of the call. */
function endpointText(account: AccountProfile, head: CallHead): string {
  return (account.endpoints[head.endpoint] as Endpoint).address;
}

/** Who the call is from. @example callFrom(account, head) // '+15126002188' */
export function callFrom(account: AccountProfile, head: CallHead): string {
  return head.direction === 'inbound' ? partyText(account, head) : endpointText(account, head);
}

/** Who the call is to. @example callTo(account, head) // 'alice' */
export function callTo(account: AccountProfile, head: CallHead): string {
  return head.direction === 'inbound' ? endpointText(account, head) : partyText(account, head);
}

/**
 * The caller name: that of whoever the call is from, the same on each of their calls (as a
 * caller id lookup would give): a pool entry's, the account's endpoint's, or `Anonymous`.
 */
function callerNameOf(account: AccountProfile, head: CallHead): string {
  if (head.direction !== 'inbound') return (account.endpoints[head.endpoint] as Endpoint).callerName;
  return head.party === ANONYMOUS ? ANONYMOUS_TEXT : account.parties.name(head.party);
}

/**
 * Seeded call i's facts from its head and the end's milliseconds (its ninth draw): its start,
 * its ring (a recorded call's recordings lie in its talk and before the next call's creation,
 * `newerSec`, which can be as little as MIN_GAP_SEC later: its ring leaves them that room) and
 * its end. Written into `out`, which is returned.
 */
export function seededFacts<T extends CallFacts>(
  world: WorldContext,
  account: AccountProfile,
  i: number,
  head: CallHead,
  endMilli: number,
  newerSec: number,
  out: T,
): T {
  const startSec = startFromDraw(world, account, i, head.u);
  const ringSec = head.recorded ? Math.min(head.ringSec, Math.max(0, newerSec - startSec - MIN_GAP_SEC)) : head.ringSec;
  return writeFacts(account, head, startSec, ringSec, endMilli, out);
}

/** Writes the facts a head, times and the end's milliseconds (the stream's draw after the instance) make into `out`. */
function writeFacts<T extends CallFacts>(
  account: AccountProfile,
  head: CallHead,
  startSec: number,
  ringSec: number,
  endMilli: number,
  out: T,
): T {
  out.from = callFrom(account, head);
  out.to = callTo(account, head);
  out.direction = head.direction;
  out.status = head.status;
  out.duration = head.duration;
  out.priceInt = head.priceInt;
  out.startSec = startSec;
  out.ringSec = ringSec;
  out.endMs = (startSec + ringSec + head.talk) * 1000 + endMilli;
  return out;
}

/** Facts to write into: one object a scan reuses for every call (see `seededFacts`). */
export function newFacts(): CallFacts {
  return blankCall('', '', '', '');
}

/** An empty record of the one shape every call has (key order included), to write facts into. */
function blankCall(sid: string, instanceId: string, phoneNumberSid: string, callerName: string): CallRecord {
  return {
    from: '',
    to: '',
    direction: 'inbound',
    status: 'completed',
    duration: null,
    priceInt: 0,
    sid,
    instanceId,
    phoneNumberSid,
    startSec: 0,
    ringSec: 0,
    endMs: 0,
    callerName,
  };
}

function drawCall(world: WorldContext, account: AccountProfile, i: number, s: Stream): CallRecord {
  const block = Math.floor(i / CALLS_PER_BLOCK);
  const recorded = (recordedMask(account, block) & (1 << (i - block * CALLS_PER_BLOCK))) !== 0;
  const head = drawHead(account, s, recorded, newHead());
  const instanceId = s.pick(world.instanceIds);
  const call = blankCall(
    `${instanceId}-CA${account.sids.seeded.calls.encode(i)}`,
    instanceId,
    (account.endpoints[head.endpoint] as Endpoint).phoneNumberSid,
    callerNameOf(account, head),
  );
  return seededFacts(
    world,
    account,
    i,
    head,
    s.int(0, 999),
    head.recorded ? newerStartSec(world, account, i) : 0,
    call,
  );
}

/**
 * A call drawn like a seeded one from stream `s`, starting at `startSec`, with a random sid:
 * the defaults of an admin-inserted call and of an arrival of live traffic.
 */
export function drawDefaults(
  world: WorldContext,
  account: AccountProfile,
  s: Stream,
  startSec: number,
  recorded: boolean,
): CallRecord {
  const head = drawHead(account, s, recorded, newHead());
  const instanceId = s.pick(world.instanceIds);
  const phoneNumberSid = (account.endpoints[head.endpoint] as Endpoint).phoneNumberSid;
  const call = blankCall(`${instanceId}-CA${s.hex(32)}`, instanceId, phoneNumberSid, callerNameOf(account, head));
  return writeFacts(account, head, startSec, head.ringSec, s.int(0, 999), call);
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
  return generateCall(world, account, i).sid === sid ? i : undefined;
}

/** Call `i` of the account: a pure function of (seed, account, index). */
export function generateCall(world: WorldContext, account: AccountProfile, i: number): CallRecord {
  return drawCall(world, account, i, account.streams.seeded.calls.at(i));
}
