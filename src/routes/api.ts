import type { Express } from 'express';
import { requireAccount } from '../auth';
import { ADMIN, adminRoutes, routes } from '../format/uris';
import { methodNotAllowed } from '../http/error-handler';
import type { World } from '../store/world';
import { VERSION } from '../version';
import { mountAudio } from './audio';
import { calls } from './calls';
import { type ListSettings, listHandler } from './list';
import { recordings } from './recordings';
import { mountRecords } from './records';

/**
 * The provider's API: the two lists, the audio, single records and a call's sub-lists.
 * Routes sit on the app itself, not in nested routers: each router level costs every request.
 */
export function mountApi(app: Express, world: World, settings: ListSettings): void {
  const auth = requireAccount(world);
  app.get(routes.calls, ...auth, listHandler(calls, settings));
  app.all(routes.calls, methodNotAllowed('GET, HEAD'));
  app.get(routes.recordings, ...auth, listHandler(recordings, settings));
  app.all(routes.recordings, methodNotAllowed('GET, HEAD'));
  // The audio route comes before the single-recording one, whose sid would swallow ".wav".
  mountAudio(app, world);
  mountRecords(app, world, auth, settings);
  // A person or a client exploring the server: where the API, the admin API and its document are.
  app.get(routes.index, (_req, res) => {
    res.json({
      name: 'callrec-emulator',
      version: VERSION,
      api: routes.calls.replace(':accountSid', '{AccountSid}').replace('{.json}', '.json'),
      admin: ADMIN,
      health: adminRoutes.health,
      openapi: adminRoutes.openapi,
    });
  });
  app.all(routes.index, methodNotAllowed('GET, HEAD'));
}
