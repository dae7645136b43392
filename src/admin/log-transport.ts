import type { Tally } from '../faults/tally';

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

/** What a transport hands on in place of an entry it could not read (its text is not JSON). */
export class BadEntry {
  constructor(readonly reason: string) {}
}
