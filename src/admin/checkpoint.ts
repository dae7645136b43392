import { problems, ValidationError } from '../errors';
import type { FaultBook } from '../harness/faults';
import { asObject } from '../input/fields';
import type { Work } from '../store/order';
import type { ForkBook } from '../store/world';
import type { AdminContext } from './context';
import { forkBaseEntry, importState, stateChunks } from './state';

const CHECKPOINT_FORMAT = 1;

/**
 * Bytes of accepted entries between two checkpoints at most, whatever `--checkpoint-every`
 * says: 400 writes of 1 MB each would otherwise sit in the log until the count came round.
 */
export const CHECKPOINT_BYTES = 16 * 2 ** 20;

/**
 * Where checkpoints fall in a log, counted alike by every replica that applies it: after
 * `every` entries, or once the entries applied since the last one weigh CHECKPOINT_BYTES. A
 * refused write weighs nothing (the log keeps a refusal of it), so a replica that read its body
 * and one that read only the refusal count the same.
 */
export class CheckpointRule {
  private entries = 0;
  private bytes = 0;

  constructor(private readonly every: number) {}

  /** Counts an applied entry of `bytes` (0 when refused); true when a checkpoint falls after it. */
  count(bytes: number): boolean {
    this.entries++;
    this.bytes += bytes;
    if (this.entries < this.every && this.bytes < CHECKPOINT_BYTES) return false;
    this.restart();
    return true;
  }

  /** A checkpoint fell here (or the replica started from one): counting starts again. */
  restart(): void {
    this.entries = 0;
    this.bytes = 0;
  }
}

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

/** A checkpoint's text whole, a piece a turn: what a transport stores. */
export async function checkpointText(pieces: Generator<string>, turn: () => Promise<void>): Promise<string> {
  const parts: string[] = [];
  for (const piece of pieces) {
    parts.push(piece);
    await turn();
  }
  return parts.join('');
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
