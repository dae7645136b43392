import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { RenderCache, responseKey, type RenderCacheOptions } from './cache/render-cache';
import type { PagingProfile } from './query/paging';
import type { World } from './store/world';
import { mountAdmin } from './routes/admin';
import { mountCalls } from './routes/calls';
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
  /** Seconds since start, for the health check; never shapes data. */
  uptime?: () => number;
  /** Where unexpected errors are reported. */
  onInternalError?: (err: unknown) => void;
}

/** The emulator as a node request listener, with the express app behind it. */
export interface EmulatorApp {
  (req: IncomingMessage, res: ServerResponse): void;
  express: Express;
  cache: RenderCache;
}

/**
 * Composes the emulator. It never listens and never reads the environment.
 *
 * A list response already rendered for the same URL, credentials and state is written straight
 * from the cache, before express: routing and middleware cost more than the write itself, and a
 * client polling one page is the common case. Everything else goes through express.
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
  const cache = new RenderCache(deps.cache);
  const settings = { paging: deps.paging, maxPageSize: deps.maxPageSize, publicUrl: deps.publicUrl, cache };
  // Routes sit on the app itself, not in nested routers: each router level costs every request.
  mountCalls(app, deps.world, settings);
  mountRecordings(app, deps.world, settings);
  mountAdmin(app, {
    world: deps.world,
    publicUrl: deps.publicUrl,
    paging: deps.paging,
    uptime: deps.uptime ?? (() => process.uptime()),
    onReset: () => undefined,
    health: () => ({}),
  });
  app.use(notFound);
  app.use(errorHandler(deps.onInternalError ?? ((err) => console.error(err))));

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const key = responseKey(req);
    if (key !== null) {
      cache.sync(deps.world.version);
      const hit = cache.responses.get(key);
      if (hit !== undefined) {
        res.writeHead(200, hit.headers);
        res.end(hit.body);
        return;
      }
    }
    app(req, res);
  };
  return Object.assign(handler, { express: app, cache });
}
