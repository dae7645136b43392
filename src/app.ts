import express, { type Express } from 'express';
import type { PagingProfile } from './query/paging';
import type { World } from './store/world';
import { adminRouter } from './routes/admin';
import { callsRouter } from './routes/calls';
import { errorHandler, notFound } from './routes/error-handler';
import { recordingsRouter } from './routes/recordings';

export interface AppDeps {
  world: World;
  paging: PagingProfile;
  maxPageSize: number | null;
  /** Base of `file_uri`, without a trailing slash. */
  publicUrl: string;
  /** Seconds since start, for the health check; never shapes data. */
  uptime?: () => number;
  /** Where unexpected errors are reported. */
  onInternalError?: (err: unknown) => void;
}

/** Composes the emulator. It never listens and never reads the environment. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Production sends no ETag, and hashing every page body would only cost time.
  app.set('etag', false);
  // The lists read their raw query themselves: names are case-sensitive and the first value wins.
  app.set('query parser', false);
  const settings = { paging: deps.paging, maxPageSize: deps.maxPageSize, publicUrl: deps.publicUrl };
  app.use(callsRouter(deps.world, settings));
  app.use(recordingsRouter(deps.world, settings));
  app.use(adminRouter(deps.world, deps.uptime ?? (() => process.uptime())));
  app.use(notFound);
  app.use(errorHandler(deps.onInternalError ?? ((err) => console.error(err))));
  return app;
}
