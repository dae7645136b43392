import { problems, ValidationError } from '../errors';
import { isoMillis } from '../format/dates';
import { durationMs } from '../input/duration';
import { asObject, checkKeys, instantAt } from '../input/fields';
import type { World } from '../store/world';
import type { AdminHandler } from './context';
import { checkPassed, deliverWorldPassed, worldClockAccounts } from './created-calls';
import { recordEnded, sendRecorded } from './recorded-calls';
import { ok } from './reply';

/** The last instant the date formats can write. */
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The clock as the admin API shows it. */
export interface ClockView {
  /** The clock now, ISO 8601 (UTC, milliseconds). */
  now: string;
  /** Where it started (`--clock`), and where a reset puts it back. */
  start: string;
  /** How far it has moved since, in milliseconds. */
  advanced_ms: number;
  /** False with --clock-rate: the clock then follows wall time, and answers change as it passes. */
  deterministic: boolean;
  /** The --clock-rate, or null: the clock moves only when told. */
  rate: number | null;
}

/** A sandbox's own clock, in the same shape (it starts at its parent's clock when forked, and never follows wall time). */
export function accountClockView(world: World, nowMs: number): ClockView {
  return {
    now: isoMillis(nowMs),
    start: isoMillis(world.clockMs),
    advanced_ms: nowMs - world.clockMs,
    deterministic: true,
    rate: null,
  };
}

/** @example clockView(world) // { now: '2025-06-01T12:05:00.000Z', start: '2025-06-01T12:00:00.000Z', advanced_ms: 300000, deterministic: true, rate: null } */
export function clockView(world: World): ClockView {
  return {
    now: isoMillis(world.nowMs),
    start: isoMillis(world.clockMs),
    advanced_ms: world.nowMs - world.clockMs,
    deterministic: world.clockRate === null,
    rate: world.clockRate,
  };
}

/** How far `advance` moves the clock: an ISO 8601 duration, or seconds (a number, fractions to the millisecond). */
function advanceMs(value: unknown): number {
  const ms =
    typeof value === 'number'
      ? Number.isFinite(value) && value >= 0
        ? Math.round(value * 1000)
        : null
      : typeof value === 'string'
        ? durationMs(value)
        : null;
  if (ms === null) throw new ValidationError('body.advance', problems.clockAdvance);
  return ms;
}

/**
 * Where a move would put the clock, checked: never before now, never past the year 9999.
 * `{"advance": "PT5M" | 300}` or `{"to": "<instant>"}`, exactly one.
 */
export function clockTarget(world: World, raw: unknown, nowMs = world.nowMs): number {
  const body = asObject(raw, 'body');
  checkKeys(body, 'body', ['advance', 'to']);
  const advance = body['advance'] !== undefined;
  if (advance === (body['to'] !== undefined)) throw new ValidationError('body', problems.clockMove);
  const at = advance ? 'body.advance' : 'body.to';
  const to = advance ? nowMs + advanceMs(body['advance']) : instantAt(at, body['to']);
  if (to < nowMs) throw new ValidationError(at, problems.clockBackwards(isoMillis(nowMs)));
  if (to > LAST_MS) throw new ValidationError(at, problems.clockRange);
  return to;
}

/** `GET /__admin/clock`. */
export const getClock: AdminHandler = (ctx) => ok(clockView(ctx.world));

/** `POST /__admin/clock`: the clock moved forward; a refused move leaves it where it is. */
export const moveClock: AdminHandler = (ctx, req) => {
  const fromMs = ctx.world.nowMs;
  const toMs = clockTarget(ctx.world, req.body());
  checkPassed(worldClockAccounts(ctx), fromMs, toMs);
  ctx.world.setClock(toMs);
  // Recorded calls that ended meanwhile have their recordings now, on every replica.
  const recorded = recordEnded(ctx, worldClockAccounts(ctx), fromMs, ctx.world.nowMs);
  // Every callback the move passed is sent, in order, before it answers (not sandboxes': their clocks stay).
  const settle = req.takenHere
    ? sendRecorded(ctx, recorded, deliverWorldPassed(ctx, fromMs, ctx.world.nowMs))
    : undefined;
  return settle === undefined ? ok(clockView(ctx.world)) : { ...ok(clockView(ctx.world)), settle };
};
