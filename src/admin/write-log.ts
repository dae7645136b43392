import { ApiError, messages, ValidationError } from '../errors';
import type { Tally } from '../harness/tally';
import { nextTurn, runSliced } from '../http/slices';
import { CheckpointRule, captureCheckpoint, checkpointText, restoreCheckpoint } from './checkpoint';
import { type AdminContext, type AdminHandler, type AdminReply, adminRequestOf, endAccount, ok } from './context';

/**
 * One write as the log carries it: plain JSON, the same in every process that applies it. An
 * admin write is the request itself (its route, path parameters, raw query and body), because
 * every handler is a pure function of the world and the request: applied in the same order
 * everywhere, the same requests make the same world. That is the whole of the fleet's
 * agreement, and why no replica ever ships its state to another.
 */
export type LogEntry = AdminWrite | SandboxExpiry | RefusedWrite;

export interface AdminWrite {
  kind: 'admin';
  /** The route's method and path pattern, e.g. `POST /__admin/accounts/:sid/calls`. */
  route: string;
  params: Record<string, string>;
  query: string;
  /** The JSON body, when one was sent. */
  body?: unknown;
  /** `replica#n`: the process that took the request waits for this entry's outcome. */
  id: string;
  /**
   * Wall time when the request was taken. Only `--clock-rate` reads it (a clock move anchors
   * there, in every replica alike); it never shapes data.
   */
  wallMs: number;
}

/** A sandbox's `ttl_s` has run out: it ends, unless a newer sandbox has its sid by now. */
export interface SandboxExpiry {
  kind: 'expire';
  sid: string;
  serial: number;
  id: string;
  wallMs: number;
}

/**
 * What stands in the log for a write every replica refused (a 4xx: nothing changed anywhere):
 * its body is not kept for replicas yet to come, who apply it as nothing too.
 */
export interface RefusedWrite {
  kind: 'refused';
  id: string;
}

/** Where the log is kept: this process, the primary of `--workers`, or a Redis stream. */
export interface LogTransport {
  /** For messages: `this process`, `the primary process`, `Redis at redis://…`. */
  readonly where: string;
  /**
   * Hands every entry, in order and once, to `deliver`, as read (the write log checks its
   * shape); resolves once everything the log held when it was called is handed. A log that
   * holds a checkpoint hands that to `start` first, and only the entries after it once `start`
   * has resolved.
   */
  open(
    deliver: (version: number, entry: unknown) => void,
    start?: (version: number, checkpoint: string) => Promise<void>,
  ): Promise<void>;
  /** Orders an entry (it comes back through `deliver`); rejects when the log cannot be reached. */
  append(entry: LogEntry): Promise<void>;
  /** The newest version the log holds, as far as this process can tell (for the lag). */
  head(): Promise<number>;
  /** Whether the log can be reached now (for the health check and metrics). */
  readonly up: boolean;
  /**
   * The write at `version` (entry `id`) was refused by its handler where it was taken: the log
   * may keep a `RefusedWrite` in its place, or nothing a reader cannot tell from one.
   */
  refused?(version: number, id: string): void;
  /**
   * Keeps `checkpoint`, the world at `version`, for replicas yet to start, and lets go of the
   * entries it makes needless (a transport may keep one span more, for replicas still reading
   * them). Absent: the log is this process's alone, and holds nothing to trim.
   */
  checkpoint?(version: number, checkpoint: string): Promise<void>;
  /** Wall time the fleet's clock counts from with --clock-rate (the first replica's start); none alone. */
  readonly genesisWallMs?: number;
  /** The other replicas, where there are some: their shared fault counters, and their journals. */
  readonly fleet?: FleetLink;
  close(): Promise<void>;
}

/** What the fleet can be asked of each replica: its journal's entries, its journaled list pages, its metrics. */
export type GatherKind = 'requests' | 'walk-pages' | 'metrics';

/** How long a gather waits for the replicas' answers: one that has not answered by then is left out. */
export const GATHER_WAIT_MS = 3000;

/** One replica's answer to a gather. */
export interface Gathered {
  replica: string;
  answer: unknown;
}

/**
 * A fleet as one replica reaches it. Reads stay local; only what must be one for the fleet goes
 * through it: fault counters (a fault's `times` are the fleet's), and gathering every replica's
 * journal for `?fleet=true`.
 */
export interface FleetLink {
  readonly tally: Tally;
  /** Every replica's answer (this one's too), from those that answered within a few seconds. */
  gather(kind: GatherKind, query: string): Promise<Gathered[]>;
  /** How this replica answers a gather (set once, by the app). */
  answer(fn: (kind: GatherKind, query: string) => Promise<unknown>): void;
}

/** The log holds fewer entries than this replica has applied: it was lost or emptied. */
export class LogDiverged extends Error {
  constructor(readonly has: number) {
    super(`the log holds ${has} entries`);
  }
}

/**
 * An append whose fate is not known: it was sent, and no answer came before the transport gave
 * up finding out. The write may yet be applied, so its answer must not say "send it again".
 */
export class OutcomeUnknown extends Error {}

/**
 * What an entry's text or message must be for a replica to apply it, or why it is not: a log
 * written by hand, by another build, or cut short is refused here, never half applied.
 * @example entryProblem(null) // 'it is null, not an object'
 * @example entryProblem({ kind: 'expire', sid: 'AC…', serial: 1, id: 'h:1#2', wallMs: 0 }) // null
 */
export function entryProblem(entry: unknown): string | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return `it is ${entry === null ? 'null' : Array.isArray(entry) ? 'an array' : typeof entry}, not an object`;
  const e = entry as Record<string, unknown>;
  const text = (k: string) => (typeof e[k] === 'string' ? null : `its ${k} is not a string`);
  const num = (k: string) => (typeof e[k] === 'number' && Number.isFinite(e[k]) ? null : `its ${k} is not a number`);
  const checks =
    e['kind'] === 'admin'
      ? [
          text('route'),
          text('query'),
          text('id'),
          num('wallMs'),
          typeof e['params'] === 'object' &&
          e['params'] !== null &&
          Object.values(e['params'] as object).every((v) => typeof v === 'string')
            ? null
            : 'its params are not an object of strings',
        ]
      : e['kind'] === 'expire'
        ? [text('sid'), num('serial'), text('id'), num('wallMs')]
        : e['kind'] === 'refused'
          ? [text('id')]
          : [`its kind ${JSON.stringify(e['kind'])} is not "admin", "expire" or "refused"`];
  return checks.find((c) => c !== null) ?? null;
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

/** What a transport hands on in place of an entry it could not read (its text is not JSON). */
export class BadEntry {
  constructor(readonly reason: string) {}
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
  private ctx: AdminContext | null = null;
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
  /** Whether the entry being applied was taken by this process (only its taker sets its timers). */
  applyingOwn = false;
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
    private readonly handlers: ReadonlyMap<string, AdminHandler>,
    /** Writes between two checkpoints (`--checkpoint-every`). */
    checkpointEvery = 10_000,
  ) {
    this.rule = transport.checkpoint === undefined ? null : new CheckpointRule(checkpointEvery);
  }

  /** Starts applying the log to `ctx`'s world. */
  open(ctx: AdminContext): void {
    this.ctx = ctx;
    this.ready = this.transport
      .open(
        (version, entry) => this.deliver(version, entry),
        (version, text) => this.start(ctx, version, text),
      )
      .then(() => this.idle())
      .then(() => {
        // A replica that cannot apply what the log holds must not start: it would answer stale.
        if (this.halted !== null) throw new ValidationError('', this.halted);
      });
  }

  /** Starts from a checkpoint: the world becomes the log's at `version`, before any entry is applied. */
  private start(ctx: AdminContext, version: number, text: string): Promise<void> {
    this.received = version;
    this.restoring = runSliced(restoreCheckpoint(ctx, text))
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
    if (keep === undefined || this.ctx === null) return;
    const pieces = captureCheckpoint(this.ctx, version);
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
      this.applyingOwn = taker !== undefined;
      this.applyingWallMs = entry.kind === 'refused' ? null : entry.wallMs;
      let outcome: Outcome;
      try {
        outcome = { reply: await this.run(entry) };
      } catch (error) {
        // Refused (a 4xx): refused alike everywhere, and nothing changed. Only the taker answers it.
        outcome = { error };
      }
      this.applyingOwn = false;
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

  private run(entry: LogEntry): AdminReply | Promise<AdminReply> {
    const ctx = this.ctx;
    if (ctx === null) throw new Error('the write log is not open');
    if (entry.kind === 'refused') return ok({ status: 'refused' });
    if (entry.kind === 'expire') {
      if (ctx.world.forkOf(entry.sid)?.serial === entry.serial) endAccount(ctx, entry.sid);
      return ok({ status: 'expired', sid: entry.sid });
    }
    const handler = this.handlers.get(entry.route);
    // Every replica runs the same build (the log's genesis checks it): an unknown route was
    // written by something else, and is refused alike everywhere.
    if (handler === undefined) throw new ApiError(400, messages.logNoRoute(entry.route));
    return handler(ctx, adminRequestOf(entry.params, entry.query, 'body' in entry ? { value: entry.body } : undefined));
  }
}
