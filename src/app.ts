import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import cors from 'cors';
import type { Logger } from 'pino';
import pinoHttp from 'pino-http';
import { RenderCache, responseKey, type RenderCacheOptions } from './cache/render-cache';
import { ApiError, messages } from './errors';
import { ADMIN, adminRoutes } from './format/uris';
import { Faults, type FaultAction } from './harness/faults';
import { Journal, noteWarnings, warningsOf } from './harness/journal';
import type { StateDef } from './admin/provider-states';
import type { PagingProfile } from './query/paging';
import type { World } from './store/world';
import { mountAdmin } from './routes/admin';
import { mountHarness } from './routes/harness';
import { mountAudio } from './routes/audio';
import { mountCalls } from './routes/calls';
import { mountRecords } from './routes/records';
import { errorHandler, notFound } from './routes/error-handler';
import { mountRecordings } from './routes/recordings';

export interface AppDeps {
  world: World;
  paging: PagingProfile;
  maxPageSize: number | null;
  /** Base of `file_uri`, without a trailing slash. */
  publicUrl: string;
  /** Budgets of the rendered-bytes caches. */
  cache?: RenderCacheOptions;
  /** Entries the request journal keeps (default 1000). */
  journalSize?: number;
  /** Turn warnings into 400s. */
  strict?: boolean;
  /** When set, /__admin (but GET /__admin/health) needs `Authorization: Bearer <token>`. */
  adminToken?: string | null;
  /** Request logs (pino-http); none when absent. */
  logger?: Logger | null;
  /** Allow browser apps from any origin. */
  cors?: boolean;
  /** Pact provider states by name (see `--states`). */
  states?: ReadonlyMap<string, StateDef>;
  /** Seconds since start, for the health check; never shapes data. */
  uptime?: () => number;
  /** Where unexpected errors are reported. */
  onInternalError?: (err: unknown) => void;
}

/** The emulator as a node request listener, with the express app and the harness behind it. */
export interface EmulatorApp {
  (req: IncomingMessage, res: ServerResponse): void;
  express: Express;
  cache: RenderCache;
  journal: Journal;
  faults: Faults;
}

const ACCOUNT_IN_PATH = /^\/call\/[^/]+\/Accounts\/([^/?]+)/;

/** Writes an injected response or cuts the connection, as a fault says. */
function act(action: FaultAction, req: IncomingMessage, res: ServerResponse, proceed: () => void): void {
  if (action.cut === 'connection_reset') {
    // An RST, as a crashed or overloaded upstream gives: the client sees ECONNRESET.
    req.socket.resetAndDestroy();
  } else if (action.cut === 'empty_response') {
    // The connection closes with no byte of a response.
    req.socket.end();
  } else if (action.respond !== undefined) {
    const body = typeof action.respond.body === 'string' ? action.respond.body : JSON.stringify(action.respond.body);
    res.writeHead(action.respond.status, {
      'Content-Type': typeof action.respond.body === 'string' ? 'text/plain' : 'application/json',
      'Content-Length': Buffer.byteLength(body),
      ...action.respond.headers,
    });
    res.end(body);
  } else {
    proceed();
  }
}

/**
 * Composes the emulator. It never listens and never reads the environment.
 *
 * API requests pass, in order: the journal (which notes each when it closes), injected faults,
 * then the response cache (a list response already rendered for the same URL, credentials and
 * state is written straight back: routing costs more than the write), then express.
 */
export function createApp(deps: AppDeps): EmulatorApp {
  const app = express();
  app.disable('x-powered-by');
  // Production sends no ETag, and hashing every page body would only cost time.
  app.set('etag', false);
  // The lists read their raw query themselves: names are case-sensitive and the first value wins.
  app.set('query parser', false);
  // Production's paths are case-sensitive, and a trailing slash is another path.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  const { world } = deps;
  const cache = new RenderCache(deps.cache);
  const journal = new Journal(deps.journalSize ?? 1000);
  const faults = new Faults(() => world.seed);
  const settings = { paging: deps.paging, maxPageSize: deps.maxPageSize, publicUrl: deps.publicUrl, cache, strict: deps.strict ?? false };

  if (deps.cors === true) {
    // A fixed `*` origin: the headers are the same for every request, so cached responses stay
    // right. Credentials travel in the Authorization header, which the preflight allows.
    app.use(cors({ origin: '*', exposedHeaders: ['X-Emulator-Warning', 'Retry-After', 'Content-Range'] }));
  }
  if (deps.adminToken != null) {
    const expected = `Bearer ${deps.adminToken}`;
    app.use(ADMIN, (req, res, next) => {
      // Container health checks call the health route without credentials.
      if (req.originalUrl === adminRoutes.health && (req.method === 'GET' || req.method === 'HEAD')) return next();
      if (req.get('authorization') !== expected) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="callrec-emulator admin"');
        throw new ApiError(401, messages.adminUnauthorized);
      }
      next();
    });
  }
  // Routes sit on the app itself, not in nested routers: each router level costs every request.
  mountCalls(app, world, settings);
  mountRecordings(app, world, settings);
  // The audio route comes before the single-recording one, whose sid would swallow ".wav".
  mountAudio(app, world);
  mountRecords(app, world, settings);
  mountAdmin(app, {
    world,
    publicUrl: deps.publicUrl,
    paging: deps.paging,
    uptime: deps.uptime ?? (() => process.uptime()),
    onReset: () => {
      journal.clear();
      faults.clear();
    },
    health: () => ({ journal: journal.count, faults: faults.size, strict: settings.strict }),
  });
  mountHarness(app, { journal, faults, world, states: deps.states ?? new Map() });
  app.use(notFound);
  app.use(errorHandler(deps.onInternalError ?? ((err) => console.error(err))));

  const proceed = (req: IncomingMessage, res: ServerResponse): void => {
    const key = responseKey(req);
    if (key !== null) {
      cache.sync(world.version);
      const hit = cache.responses.get(key);
      if (hit !== undefined) {
        noteWarnings(res, hit.warnings);
        res.writeHead(200, hit.headers);
        res.end(hit.body);
        return;
      }
    }
    app(req, res);
  };

  // Tokens are credentials: they never reach the logs.
  const logRequest =
    deps.logger == null ? null : pinoHttp({ logger: deps.logger, redact: ['req.headers.authorization'] });

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    logRequest?.(req, res);
    const url = req.url ?? '/';
    if (url.startsWith(ADMIN)) {
      app(req, res);
      return;
    }
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    // Wall-clock time is for the journal and rate windows only; it never shapes data.
    const arrivedMs = Date.now();
    const started = process.hrtime.bigint();
    const action = faults.match(method, path, arrivedMs);
    res.once('close', () => {
      journal.add({
        time: new Date(arrivedMs).toISOString(),
        method,
        path,
        query: q < 0 ? '' : url.slice(q + 1),
        account: ACCOUNT_IN_PATH.exec(path)?.[1] ?? null,
        status: res.writableFinished ? res.statusCode : 0,
        duration_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        warnings: warningsOf(res),
        fault: action === null ? null : { id: action.id, effect: action.effect },
      });
    });
    if (action === null) {
      proceed(req, res);
    } else if (action.delayMs > 0) {
      setTimeout(() => act(action, req, res, () => proceed(req, res)), action.delayMs);
    } else {
      act(action, req, res, () => proceed(req, res));
    }
  };
  return Object.assign(handler, { express: app, cache, journal, faults });
}
