import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminContext } from './admin/context';
import { answerGather, soloFleet } from './admin/fleet';
import type { LogTransport } from './admin/log-transport';
import type { StateDef } from './admin/state-defs';
import type { UiAsset } from './admin/ui-asset';
import { type LogSides, localTransport, WriteLog } from './admin/write-log';
import { RenderCache, type RenderCacheOptions } from './cache/render-cache';
import { CallbackDesk } from './callbacks/callback-desk';
import { Faults } from './faults/faults';
import { ERROR_BODIES } from './format/envelopes';
import { DIALECTS, type DialectName, fileBaseOf } from './format/uris';
import { frontDoor } from './front-door';
import { lazyListener } from './http/lazy';
import { createMetrics } from './http/metrics';
import { Journal } from './journal/journal';
import type { RequestLogger } from './logger';
import type { PagingProfile } from './query/paging';
import { ListCaches } from './routes/list-caches';
import { type Lane, listLane } from './routes/list-lane';
import type { ListSettings } from './routes/list-settings';
import { twilioLane } from './routes/twilio-lists';
import type { World } from './store/world';

export interface AppDeps {
  world: World;
  paging: PagingProfile;
  /** Default `spec`: the service as documented. */
  dialect?: DialectName;
  maxPageSize: number | null;
  /** Base of `file_uri`, without a trailing slash. */
  publicUrl: string;
  /** Budgets of the rendered-bytes caches. */
  cache?: RenderCacheOptions;
  /** Entries the request journal keeps (default 1000). */
  journalSize?: number;
  /** Turn warnings into 400s. */
  strict?: boolean;
  /** The server's time zone, in which StartTime and EndTime name days (default UTC). */
  serverZone?: string;
  /** When set, /__admin (but GET /__admin/health) needs `Authorization: Bearer <token>`. */
  adminToken?: string | null;
  /** Host names besides loopback ones (and besides what the server listens on) that /__admin answers. */
  adminHosts?: readonly string[];
  /** Request logs (see logger.ts); none when absent. */
  logger?: RequestLogger | null;
  /** Allow browser apps from any origin. */
  cors?: boolean;
  /** The inspector's files (see load.ts `loadUi`); none when absent. */
  ui?: ReadonlyMap<string, UiAsset>;
  /** Pact provider states by name (see `--states`). */
  states?: ReadonlyMap<string, StateDef>;
  /** Seconds since start, for the health check; never shapes data. */
  uptime?: () => number;
  /** Where unexpected errors are reported. */
  onInternalError?: (err: unknown) => void;
  /** Restcomm's admin console (its webapp folder), served at /restcomm-management/; none when absent. */
  restcommConsole?: string | null;
  /** Where the write log is kept (default: this process alone). */
  log?: LogTransport;
  /** Writes between two checkpoints of a fleet's log (default 10,000; see `--checkpoint-every`). */
  checkpointEvery?: number;
  /** This process's name in the write log's entry ids (default `local`). */
  replica?: string;
  /** How long a request carrying X-Callrec-Version waits for its replica to apply it (default 5000 ms). */
  versionWaitMs?: number;
  /** Hosts besides loopback that status callbacks may go to (default none). */
  callbackHosts?: readonly string[];
  /** A status callback's connect and read timeout (default 6000 ms, production's). */
  callbackTimeoutMs?: number;
  /** A clock move answers before its callbacks are delivered (default: after). */
  callbacksInBackground?: boolean;
}

/**
 * Callback deliveries the journal keeps, at most, and in bytes (as the request journal, 32 MB),
 * and the bytes of each response body it keeps.
 */
const CALLBACK_ENTRIES = 50_000;
const CALLBACK_JOURNAL_BYTES = 32 * 2 ** 20;
const CALLBACK_BODY_BYTES = 1024;

/** The emulator as a node request listener (the front door), with the express app and the harness behind it. */
export interface EmulatorApp {
  (req: IncomingMessage, res: ServerResponse): void;
  /** The express app behind the front door (no log, journal, faults or response cache), loaded when first asked. */
  express: (req: IncomingMessage, res: ServerResponse) => void;
  /** Loads express and the routes behind it now, rather than on the first request that needs them. */
  warm(): Promise<void>;
  cache: RenderCache;
  /** What the list routes keep between requests (orders being built, merged orders): this app's alone. */
  listCaches: ListCaches;
  journal: Journal;
  faults: Faults;
  /** The write log this app applies; `log.ready` resolves once it has caught up. */
  log: WriteLog;
  /** With --clock-rate: moves the clock to wall time and sends the callbacks it passed (the server calls it on a timer). */
  pumpCallbacks(): void;
  /** Aborts status callbacks under way and ends those waiting: a stopping server's last step. */
  closeCallbacks(): void;
}

/** The list lanes: the service's own lists, and Twilio's before them in its dialect. */
function lanes(
  world: World,
  settings: ListSettings,
  own: ListSettings | null,
  onInternal: (err: unknown) => void,
): Lane {
  const ownLane = listLane(world, own ?? settings, onInternal);
  if (own === null) return ownLane;
  const twilio = twilioLane(world, settings, onInternal);
  return (req, res) => twilio(req, res) || ownLane(req, res);
}

/**
 * Composes the emulator: the front door before an express app with the API and the admin API.
 * It never listens and never reads the environment. The express side (express-app.ts) is loaded
 * when a request first needs it, or on `warm()`: the list lane serves pages without it, so a
 * client's first page does not wait for express and its dependencies to load.
 */
export function createApp(deps: AppDeps): EmulatorApp {
  const { world } = deps;
  const cache = new RenderCache(deps.cache);
  const journal = new Journal(deps.journalSize ?? 1000);
  const link = deps.log?.fleet;
  // A fleet's fault counters are the fleet's: `times: 1` is once for all the replicas.
  const strict = deps.strict ?? false;
  const dialect = DIALECTS[deps.dialect ?? 'spec'];
  const errorBody = ERROR_BODIES[dialect.name];
  const faults = new Faults(() => world.seed, link?.tally, errorBody);
  const replica = deps.replica ?? 'local';
  const log = new WriteLog(deps.log ?? localTransport(), replica, deps.checkpointEvery);
  const admin: AdminContext = {
    world,
    journal,
    faults,
    states: deps.states ?? new Map(),
    ui: deps.ui ?? new Map(),
    publicUrl: deps.publicUrl,
    paging: deps.paging,
    dialect,
    strict,
    serverZone: deps.serverZone ?? 'UTC',
    uptime: deps.uptime ?? (() => process.uptime()),
    log,
    fleet: link ?? soloFleet(replica, () => answer),
    callbacks: new CallbackDesk({
      hosts: deps.callbackHosts ?? [],
      timeoutMs: deps.callbackTimeoutMs ?? 6000,
      entries: CALLBACK_ENTRIES,
      journalBytes: CALLBACK_JOURNAL_BYTES,
      bodyBytes: CALLBACK_BODY_BYTES,
      zone: deps.serverZone ?? 'UTC',
      // Twilio signs every callback with the account's auth token.
      ...(dialect.name === 'twilio' ? { signing: (sid: string) => world.account(sid)?.profile.token } : {}),
    }),
    callbackHosts: deps.callbackHosts ?? [],
    callbacksInBackground: deps.callbacksInBackground ?? false,
  };
  const answer = answerGather(admin, async () => (await metrics.registry()).getMetricsAsJSON());
  link?.answer(answer);
  // The admin handlers are loaded on the first write the log applies: a start-up (and a first
  // page) needs none of them, and they are a fifth of what the app loads.
  let sides: LogSides | null = null;
  const admitted = (): LogSides => {
    if (sides === null) {
      const { logSides } = require('./admin/apply') as typeof import('./admin/apply');
      const { WRITE_HANDLERS } = require('./admin/write-handlers') as typeof import('./admin/write-handlers');
      sides = logSides(admin, WRITE_HANDLERS);
    }
    return sides;
  };
  log.open({
    apply: (entry, takenHere) => admitted().apply(entry, takenHere),
    capture: (version) => admitted().capture(version),
    restore: (checkpoint) => admitted().restore(checkpoint),
  });

  const listSettings: ListSettings = {
    paging: deps.paging,
    maxPageSize: deps.maxPageSize,
    fileBase: fileBaseOf(deps.publicUrl, dialect),
    dialect,
    cache,
    strict,
    serverZone: deps.serverZone ?? 'UTC',
    caches: new ListCaches(),
  };
  // Twilio's dialect serves the service's own API beside Twilio's (the inspector reads it), as
  // other text for the same records: caches of its own.
  const ownList: ListSettings | null =
    dialect.name === 'twilio'
      ? {
          ...listSettings,
          dialect: DIALECTS.spec,
          fileBase: fileBaseOf(deps.publicUrl, DIALECTS.spec),
          cache: new RenderCache(deps.cache),
          caches: new ListCaches(),
        }
      : null;
  const onInternal = deps.onInternalError ?? ((err: unknown) => console.error(err));
  const app = lazyListener(
    async () =>
      (await import('./express-app')).expressApp({
        admin,
        listSettings,
        ...(ownList === null ? {} : { ownList }),
        log,
        strict,
        cors: deps.cors === true,
        adminToken: deps.adminToken ?? null,
        adminHosts: deps.adminHosts ?? [],
        onInternal,
      }),
    onInternal,
  );

  const metrics = createMetrics({ world, journal, log });
  const door = frontDoor({
    next: app,
    // CORS headers are express middleware's: with them on, every request goes through express.
    lane: deps.cors === true ? null : lanes(world, listSettings, ownList, onInternal),
    world,
    journal,
    faults,
    cache,
    logger: deps.logger ?? null,
    metrics,
    log,
    versionWaitMs: deps.versionWaitMs ?? 5000,
    fleet: link ?? null,
    onInternal,
    errorBody,
  });
  const consoleDir = deps.restcommConsole;
  const handler =
    consoleDir == null
      ? door
      : lazyListener(async () => (await import('./routes/console')).withConsole(consoleDir, door), onInternal);
  return Object.assign(handler, {
    express: app,
    warm: app.load,
    cache,
    listCaches: listSettings.caches,
    journal,
    faults,
    log,
    pumpCallbacks: () => {
      // Only a running clock (--clock-rate) has callbacks to pump: the rest of the time, nothing to load.
      if (world.clockRate !== null)
        (require('./admin/created-calls') as typeof import('./admin/created-calls')).pumpCallbacks(admin);
    },
    closeCallbacks: () => admin.callbacks.close(),
  });
}
