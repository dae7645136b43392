import express, { type Express } from 'express';
import { submitRecordingDelete } from './admin/api-deletes';
import type { AdminContext } from './admin/context';
import { submitCreate } from './admin/created-calls';
import { mountAdmin } from './admin/mount';
import { twilioWrites } from './admin/twilio-writes';
import type { WriteLog } from './admin/write-log';
import { ERROR_BODIES } from './format/envelopes';
import { ADMIN } from './format/uris';
import { allowAnyOrigin } from './http/cors';
import { errorHandler, notFound } from './http/error-handler';
import { VERSION_HEADER } from './http/exchange';
import { mountApi } from './routes/api';
import { createCallHandler } from './routes/create-call';
import type { ListSettings } from './routes/list-settings';
import { mountTwilio } from './routes/twilio-api';

/** What the express side of the emulator is made of: the parts `createApp` made at start-up. */
export interface ExpressParts {
  admin: AdminContext;
  listSettings: ListSettings;
  /** Twilio's dialect: the service's own API's settings beside it (its own dialect and caches). */
  ownList?: ListSettings;
  log: WriteLog;
  strict: boolean;
  cors: boolean;
  adminToken: string | null;
  adminHosts: readonly string[];
  onInternal: (err: unknown) => void;
}

/**
 * The express app behind the front door: the API's routes (every request the list lane leaves),
 * the admin API, the 404 and the one error handler. `createApp` loads this module when a
 * request first needs it (express and its dependencies are a sixth of a start-up), so a list
 * page is served before express has loaded.
 */
export function expressApp(parts: ExpressParts): Express {
  const { admin, listSettings } = parts;
  const app = express();
  app.disable('x-powered-by');
  // Production sends no ETag, and hashing every page body would only cost time.
  app.set('etag', false);
  // The lists read their raw query themselves: names are case-sensitive and the first value wins.
  app.set('query parser', false);
  // Production's paths are case-sensitive, and a trailing slash is another path.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  if (parts.cors) {
    const allowAll = allowAnyOrigin(['X-Emulator-Warning', 'Retry-After', 'Content-Range', VERSION_HEADER]);
    // The admin API stays out of reach of web pages, unless a token guards it.
    const openAdmin = parts.adminToken !== null;
    app.use((req, res, next) => (openAdmin || !req.path.startsWith(ADMIN) ? allowAll(req, res, next) : next()));
  }
  // Twilio's dialect serves the service's own API too, under /call, with caches of its own (the
  // same record is other text there): the inspector and the admin client's examples read it.
  if (listSettings.dialect.name === 'twilio')
    mountTwilio(app, admin.world, listSettings, admin.callbacks, twilioWrites(parts.log));
  const own = parts.ownList ?? listSettings;
  mountApi(
    app,
    admin.world,
    own,
    createCallHandler(own, submitCreate(parts.log, parts.strict)),
    submitRecordingDelete(parts.log),
  );
  mountAdmin(app, admin, {
    token: parts.adminToken,
    hosts: new Set(parts.adminHosts.map((h) => h.toLowerCase())),
  });
  app.use(notFound(listSettings.dialect.name));
  app.use(errorHandler(parts.onInternal, ERROR_BODIES[listSettings.dialect.name]));
  return app;
}
