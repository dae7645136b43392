import type { Express } from 'express';
import { requireAccount } from '../auth';
import { recordingJson } from '../format/recording';
import { recordingsListUri, routes } from '../format/uris';
import type { RecordingRecord } from '../generators/recording';
import { RECORDING_SORT_ATTRIBUTES, type RecordingSortAttribute } from '../query/sort';
import type { World } from '../store/world';
import { RECORDING_FILTERS, recordingFilter } from '../query/filters';
import { listHandler, type ListResource, type ListSettings } from './list';
import { methodNotAllowed } from './error-handler';

const recordings: ListResource<RecordingSortAttribute, RecordingRecord> = {
  key: 'recordings',
  sortAttributes: RECORDING_SORT_ATTRIBUTES,
  filterNames: RECORDING_FILTERS,
  filter: recordingFilter,
  table: (account) => account.recordings,
  listUri: recordingsListUri,
  render: (rec, accountSid, settings) => recordingJson(rec, accountSid, settings.publicUrl),
};

/** `GET /call/2012-04-24/Accounts/{AccountSid}/Recordings.json` (and without `.json`, by Accept). */
export function mountRecordings(app: Express, world: World, settings: ListSettings): void {
  app.get(routes.recordings, ...requireAccount(world), listHandler(recordings, world, settings));
  app.all(routes.recordings, methodNotAllowed('GET, HEAD'));
}
