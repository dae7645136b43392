import { recordingJson } from '../format/recording';
import { recordingsListUri } from '../format/uris';
import type { RecordingRecord } from '../generators/recording';
import { RECORDING_FILTERS, recordingFilter } from '../query/filters';
import { RECORDING_SORT } from '../query/sort';
import type { ListResource } from './list';

type RecordingColumn = (typeof RECORDING_SORT)[keyof typeof RECORDING_SORT];

/** `GET /call/2012-04-24/Accounts/{AccountSid}/Recordings.json` (and without `.json`, by Accept). */
export const recordings: ListResource<RecordingColumn, RecordingRecord> = {
  key: 'recordings',
  sort: RECORDING_SORT,
  filterNames: RECORDING_FILTERS,
  filter: recordingFilter,
  table: (account) => account.recordings,
  listUri: recordingsListUri,
  render: (rec, accountSid, settings) => recordingJson(rec, accountSid, settings.publicUrl),
};
