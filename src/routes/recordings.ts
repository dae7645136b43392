import { Router } from 'express';
import { requireAccount } from '../auth';
import { recordingJson } from '../format/recording';
import { recordingsListUri, routes } from '../format/uris';
import type { RecordingRecord } from '../generators/recording';
import { RECORDING_SORT_ATTRIBUTES, type RecordingSortAttribute } from '../query/sort';
import type { World } from '../store/world';
import { listHandler, type ListResource, type ListSettings } from './list';
import { methodNotAllowed } from './error-handler';

const recordings: ListResource<RecordingSortAttribute, RecordingRecord> = {
  key: 'recordings',
  sortAttributes: RECORDING_SORT_ATTRIBUTES,
  table: (account) => account.recordings,
  listUri: recordingsListUri,
  render: (rec, accountSid, settings) => recordingJson(rec, accountSid, settings.publicUrl),
};

/** `GET /call/2012-04-24/Accounts/{AccountSid}/Recordings.json` (and without `.json`, by Accept). */
export function recordingsRouter(world: World, settings: ListSettings): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(routes.recordings, ...requireAccount(world), listHandler(recordings, world, settings));
  router.all(routes.recordings, methodNotAllowed('GET, HEAD'));
  return router;
}
