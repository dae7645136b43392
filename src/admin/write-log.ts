import { ApiError, messages, ValidationError } from '../errors';
import { nextTurn, runSliced } from '../http/slices';
import type { Work } from '../store/order';
import { CheckpointRule } from './checkpoint-rule';
import {
  type AdminWrite,
  BadEntry,
  entryProblem,
  LogDiverged,
  type LogEntry,
  type LogTransport,
  OutcomeUnknown,
} from './log-transport';
import type { AdminReply } from './reply';

/**
 * What the write log does with what it orders, given by the app: apply an entry (`takenHere`:
 * this process took it, and waits for its answer), and write the world out as a checkpoint or
 * take one back. The log itself knows no handler and no world.
 */
export interface LogSides {
  apply(entry: LogEntry, takenHere: boolean): AdminReply | Promise<AdminReply>;
  /** The world at `version` (just applied) as JSON text pieces, captured at once. */
  capture(version: number): Generator<string>;
  /** Makes the world a checkpoint's; returns its version. */
  restore(checkpoint: string): Work<number>;
}

type Outcome = { reply: AdminReply } | { error: unknown };

/**
 * The log in this process alone: an entry is ordered as it is appended. What a single emulator
 * (and each test's in-process one) runs on, through the same path as a fleet's.
 */
export function localTransport(): LogTransport {
  let version = 0;
  let deliver: ((version: number, entry: LogEntry) => void) | null = null;
  return {
    where: 'this process',
    up: true,
    open: (d) => {
      deliver = d;
      return Promise.resolve();
    },
    append: (entry) => {
      deliver?.(++version, entry);
      return Promise.resolve();
    },
    head: () => Promise.resolve(version),
    close: () => Promise.resolve(),
  };
}

/** A checkpoint's text whole, a piece a turn: what a transport stores. */
async function checkpointText(pieces: Generator<string>, turn: () => Promise<void>): Promise<string> {
  const parts: string[] = [];
  for (const piece of pieces) {
    parts.push(piece);
    await turn();
  }
  return parts.join('');
}

/** A handler's refusal (a 4xx, nothing changed), as opposed to a fault of the emulator's own. */
const isRefusal = (err: unknown) =>
  err instanceof ValidationError || (err instanceof ApiError && err.status >= 400 && err.status < 500);

/** An entry's size as JSON: the same in every replica, whichever way it came. */
const entryWeight = (entry: LogEntry) => JSON.stringify(entry).length;

/** A reason for a message, from whatever a transport threw. */
const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The ordered log of writes, as one replica sees it: it applies entries one at a time in log
 * order (a write taken here waits for its own turn, and answers with what applying it gave),
 * counts the version it has reached, and lets a request wait for a version.
 */
export class WriteLog {
  private applied = 0;
  /** The newest version handed over (applied, being applied, or queued). */
  private received = 0;
  private readonly queue: [number, LogEntry][] = [];
  private draining: Promise<void> | null = null;
  /** Writes taken here, by entry id, waiting for their turn. */
  private readonly mine = new Map<string, (version: number, outcome: Outcome) => void>();
  /** Requests waiting for a version (X-Callrec-Version), in no order: they are few. */
  private waiters: { version: number; wake: () => void }[] = [];
  private serial = 0;
  private sides: LogSides | null = null;
  /** A version was skipped: the log lost entries this replica never saw. */
  private gap: number | null = null;
  /**
   * Why this replica stopped applying the log (an entry it cannot apply), or null. It stops
   * rather than skip: the entry was meant to change the world, and guessing how would diverge.
   */
  halted: string | null = null;
  /** Told once, when the replica halts: the app logs it. */
  onHalt: (reason: string) => void = () => undefined;
  /** The wall time of the entry being applied, else null (see AdminWrite.wallMs). */
  applyingWallMs: number | null = null;
  /** Resolves once this replica has applied what the log held when it opened. */
  ready: Promise<void> = Promise.resolve();
  /** Where checkpoints fall; null when the transport keeps none. */
  private readonly rule: CheckpointRule | null;
  /** The checkpoint this replica started from, and the newest it made: versions, 0 for none. */
  readonly checkpoints = { startedFrom: 0, made: 0 };
  /** The restore of a checkpoint under way: entries after it wait for it. */
  private restoring: Promise<void> | null = null;

  constructor(
    readonly transport: LogTransport,
    /** This process's name in entry ids (host and pid), unique in the fleet. */
    readonly replica: string,
    /** Writes between two checkpoints (`--checkpoint-every`). */
    checkpointEvery = 10_000,
  ) {
    this.rule = transport.checkpoint === undefined ? null : new CheckpointRule(checkpointEvery);
  }

  /** Starts applying the log through `sides` (the app's world and handlers). */
  open(sides: LogSides): void {
    this.sides = sides;
    this.ready = this.transport
      .open(
        (version, entry) => this.deliver(version, entry),
        (version, text) => this.start(sides, version, text),
      )
      .then(() => this.idle())
      .then(() => {
        // A replica that cannot apply what the log holds must not start: it would answer stale.
        if (this.halted !== null) throw new ValidationError('', this.halted);
      });
  }

  /** Starts from a checkpoint: the world becomes the log's at `version`, before any entry is applied. */
  private start(sides: LogSides, version: number, text: string): Promise<void> {
    this.received = version;
    this.restoring = runSliced(sides.restore(text))
      .then((restored) => {
        // Entries after it may have been handed over meanwhile (`received` counts them): they wait in the queue.
        if (restored !== version) throw new Error(`it says it is version ${restored}`);
        this.applied = version;
        this.checkpoints.startedFrom = version;
        this.rule?.restart();
      })
      .catch((err: unknown) => {
        const problem = err instanceof ValidationError ? `${err.path}: ${err.problem}` : reasonOf(err);
        throw new ValidationError('', messages.logCheckpointUnusable(this.transport.where, String(version), problem));
      });
    return this.restoring;
  }

  /** Writes the world at `version` (just applied) out as the log's checkpoint, in slices, after this turn. */
  private checkpoint(version: number): void {
    const keep = this.transport.checkpoint?.bind(this.transport);
    if (keep === undefined || this.sides === null) return;
    const pieces = this.sides.capture(version);
    void checkpointText(pieces, nextTurn)
      .then((text) => keep(version, text))
      .then(() => {
        this.checkpoints.made = Math.max(this.checkpoints.made, version);
      })
      // A checkpoint not kept costs only memory: the next one is made a span later.
      .catch(() => undefined);
  }

  /** The version this replica has applied: how many writes its world holds. */
  get version(): number {
    return this.applied;
  }

  /** Versions the log holds that this replica has not applied yet. */
  async lag(): Promise<number> {
    const head = await this.transport.head().catch(() => this.received);
    return Math.max(0, head - this.applied);
  }

  /** Whether the log can be reached now. */
  get up(): boolean {
    return this.transport.up;
  }

  /** Takes a write: orders it, waits for its turn, answers with its version and reply (or throws its error). */
  write(route: string, params: Record<string, string>, query: string, body: { value: unknown } | undefined) {
    const entry: AdminWrite = {
      kind: 'admin',
      route,
      params,
      query,
      ...(body === undefined ? {} : { body: body.value }),
      id: `${this.replica}#${++this.serial}`,
      wallMs: Date.now(),
    };
    return this.submit(entry);
  }

  /** Orders a sandbox's expiry; a log that cannot be reached leaves the sandbox (it can be deleted). */
  expire(sid: string, serial: number): void {
    this.submit({ kind: 'expire', sid, serial, id: `${this.replica}#${++this.serial}`, wallMs: Date.now() }).catch(
      () => undefined,
    );
  }

  private async submit(entry: LogEntry): Promise<{ version: number; reply: AdminReply }> {
    if (this.halted !== null) throw new ApiError(503, messages.logHalted(this.halted));
    if (this.gap !== null) throw new ApiError(503, messages.logDiverged(this.transport.where, this.gap, this.applied));
    const outcome = new Promise<{ version: number; reply: AdminReply }>((resolve, reject) => {
      this.mine.set(entry.id, (version, o) => ('error' in o ? reject(o.error) : resolve({ version, reply: o.reply })));
    });
    // The entry can come back through the log (another connection) before the append's own
    // answer: a refusal would then be a rejection nobody listens to yet, which ends the process.
    outcome.catch(() => undefined);
    try {
      await this.transport.append(entry);
    } catch (err) {
      // Not ordered, or its fate unknown: a late arrival answers nobody.
      this.mine.delete(entry.id);
      if (err instanceof OutcomeUnknown)
        throw new ApiError(503, messages.logOutcomeUnknown(this.transport.where, reasonOf(err)));
      if (err instanceof LogDiverged) {
        this.gap = err.has;
        throw new ApiError(503, messages.logDiverged(this.transport.where, err.has, this.applied));
      }
      throw new ApiError(503, messages.logUnavailable(this.transport.where, reasonOf(err)));
    }
    return outcome;
  }

  /** Resolves true once `version` is applied here, or false after `ms`. */
  waitFor(version: number, ms: number): Promise<boolean> {
    if (this.applied >= version) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        version,
        wake: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, ms);
      this.waiters.push(waiter);
    });
  }

  private deliver(version: number, entry: unknown): void {
    const expected = this.received + 1;
    // Seen already (a reader that went back after a reconnect): applying twice would be a new write.
    if (version < expected || this.halted !== null) return;
    if (version > expected) {
      this.gap = version - 1;
      return;
    }
    const problem = entry instanceof BadEntry ? entry.reason : entryProblem(entry);
    if (problem !== null) {
      this.halt(messages.logEntryUnusable(this.transport.where, version, problem));
      return;
    }
    this.received = version;
    this.queue.push([version, entry as LogEntry]);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private halt(reason: string): void {
    this.halted = reason;
    // Writes waiting for their turn behind the entry will never have it.
    for (const [id, taker] of this.mine) {
      this.mine.delete(id);
      taker(this.applied, { error: new ApiError(503, messages.logHalted(reason)) });
    }
    this.onHalt(reason);
  }

  /** Resolves once nothing handed over is left to apply. */
  private async idle(): Promise<void> {
    // A checkpoint being restored with no entry after it: ready once it is (or never, with its reason).
    if (this.restoring !== null) await this.restoring;
    while (this.draining !== null) await this.draining;
  }

  private async drain(): Promise<void> {
    // A checkpoint that cannot be applied leaves the entries after it unapplied: `ready` says why.
    if (this.restoring !== null && !(await this.restoring.then(() => true).catch(() => false))) return;
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      const [version, entry] = next;
      const taker = this.mine.get(entry.id);
      this.applyingWallMs = entry.kind === 'refused' ? null : entry.wallMs;
      let outcome: Outcome;
      try {
        if (this.sides === null) throw new Error('the write log is not open');
        outcome = { reply: await this.sides.apply(entry, taker !== undefined) };
      } catch (error) {
        // Refused (a 4xx): refused alike everywhere, and nothing changed. Only the taker answers it.
        outcome = { error };
      }
      this.applyingWallMs = null;
      this.applied = version;
      // Counted by every replica alike; made by the replica that took the write, if it lives.
      const weight = this.rule === null || 'error' in outcome || entry.kind === 'refused' ? 0 : entryWeight(entry);
      if (this.rule?.count(weight) === true && taker !== undefined) this.checkpoint(version);
      if (taker !== undefined) {
        this.mine.delete(entry.id);
        // Refused alike by every replica, now and later: the log need not keep what it carried.
        if ('error' in outcome && isRefusal(outcome.error)) this.transport.refused?.(version, entry.id);
        taker(version, outcome);
      }
      if (this.waiters.length > 0) {
        const woken = this.waiters.filter((w) => w.version <= version);
        this.waiters = this.waiters.filter((w) => w.version > version);
        for (const w of woken) w.wake();
      }
    }
  }
}
