import type { AccountProfile, WorldContext } from './account';

/** The newest call starts at least this long before the reference instant, so no call is in the future. */
export const HEAD_SEC = 4 * 3600;
/** Consecutive calls start at least this far apart: room for three recordings at distinct seconds. */
export const MIN_GAP_SEC = 4;
/** Bend of the curve: calls are hours apart near the reference instant, minutes apart further back. */
const BEND = 200;

/** The smooth part of a call's age: T·i/(i+BEND), using only exactly-rounded arithmetic. */
function curve(timeScale: number, i: number): number {
  return (timeScale * i) / (i + BEND);
}

/**
 * Start of call `i`, in whole seconds since the epoch, from `u` in [0, 1): the first draw of the
 * call's own stream (see `callStartSec`). Strictly falls as `i` grows, so the index
 * order is the `date_created` descending order and nothing needs sorting for it.
 *
 * The age is HEAD + MIN_GAP·i + floor(curve(i) + u·(curve(i+1) − curve(i))), u drawn per call.
 * The jittered term stays below curve(i+1), so ages rise by at least MIN_GAP per index. The curve
 * saturates, so even 10,000,000 calls span under two years, while a few hundred span weeks.
 */
export function startFromDraw(world: WorldContext, account: AccountProfile, i: number, u: number): number {
  const lo = curve(account.timeScale, i);
  const hi = curve(account.timeScale, i + 1);
  return world.clockSec - (HEAD_SEC + MIN_GAP_SEC * i + Math.floor(lo + u * (hi - lo)));
}

/** Start of call `i` alone, without making the call. */
export function callStartSec(world: WorldContext, account: AccountProfile, i: number): number {
  return startFromDraw(world, account, i, account.streams.seeded.calls.at(i).float());
}

/** When the next newer call than `i` starts: the reference instant for the newest. */
export function newerStartSec(world: WorldContext, account: AccountProfile, i: number): number {
  return i === 0 ? world.clockSec : callStartSec(world, account, i - 1);
}

/**
 * When an account was opened: a day before its oldest seeded call, or a day before the newest
 * possible one when it has none. Derived, never drawn, so no record changes.
 */
export function accountCreatedSec(world: WorldContext, account: AccountProfile, calls: number): number {
  const oldest = calls > 0 ? callStartSec(world, account, calls - 1) : world.clockSec - HEAD_SEC;
  return oldest - 86_400;
}
