import { problems, ValidationError } from '../errors';
import type { FaultBook } from '../faults/faults';
import { asObject } from '../input/fields';
import type { Work } from '../store/order';
import type { ForkBook } from '../store/world';
import type { AdminContext } from './context';
import { forkBaseEntry, importState, stateChunks } from './state';

const CHECKPOINT_FORMAT = 1;

/** What a checkpoint carries beside the state export: what the export leaves out and later writes read. */
interface CheckpointHead {
  format: number;
  /** The log version the checkpoint stands for: the world after applying entries 1 to `version`. */
  version: number;
  forks: ForkBook;
  /** What each sandbox's reset goes back to, by sid (see forkBaseEntry). */
  bases: Record<string, unknown>;
  faults: FaultBook;
  /** With --clock-rate: the wall time and clock its clock counts from. */
  follow: { wallAt: number; clockAt: number } | null;
}

/**
 * The world at `version` as JSON text pieces: captured at once (the caller has just applied
 * that version and applies nothing before calling), written as the pieces are taken. A
 * replica that imports it applies later writes exactly as one that applied every entry.
 * @example [...captureCheckpoint(ctx, 10000)].join('') // '{"format":1,"version":10000,"forks":{…},…,"state":{…}}'
 */
export function captureCheckpoint(ctx: AdminContext, version: number): Generator<string> {
  const bases: Record<string, unknown> = {};
  for (const s of ctx.world.sandboxes()) {
    const account = ctx.world.account(s.sid);
    const base = account === undefined ? null : forkBaseEntry(account);
    if (base !== null) bases[s.sid] = base;
  }
  const head: CheckpointHead = {
    format: CHECKPOINT_FORMAT,
    version,
    forks: ctx.world.forkBook(),
    bases,
    faults: ctx.faults.book(),
    follow: ctx.world.followAnchor,
  };
  const state = stateChunks(ctx.world);
  return (function* () {
    yield `${JSON.stringify(head).slice(0, -1)},"state":`;
    yield* state;
    yield '}';
  })();
}

/**
 * Makes `ctx`'s world (and faults) the checkpoint's; returns its version. A ValidationError
 * when the text is not a checkpoint of this format, changing nothing.
 */
export function* restoreCheckpoint(ctx: AdminContext, text: string): Work<number> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ValidationError('checkpoint', problems.notJson(err instanceof Error ? err.message : String(err)));
  }
  const body = asObject(raw, 'checkpoint') as unknown as CheckpointHead & { state: unknown };
  if (body.format !== CHECKPOINT_FORMAT || !Number.isSafeInteger(body.version) || body.version < 1)
    throw new ValidationError('checkpoint.format', problems.stateFormat(CHECKPOINT_FORMAT));
  yield* importState(ctx.world, body.state, asObject(body.bases, 'checkpoint.bases'));
  ctx.world.restoreForkBook(body.forks);
  ctx.world.followAnchor = body.follow;
  ctx.faults.restoreBook(body.faults);
  return body.version;
}
