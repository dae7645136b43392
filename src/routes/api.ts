import type { Express } from 'express';
import { requireAccount } from '../auth';
import { routes } from '../format/uris';
import { methodNotAllowed } from '../http/error-handler';
import type { World } from '../store/world';
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
}
