import type { CallRecord } from '../generators/call';
import type { RecordingRecord } from '../generators/recording';
import { callJson } from './call';
import type { ListKey } from './envelope';
import { recordingJson } from './recording';
import { callsListUri, recordingsListUri } from './uris';

/** What the wire says of one list: the items' key, the list's printed `uri`, and how an item is written. */
export interface ListWire<R> {
  key: ListKey;
  uri(accountSid: string): string;
  item(record: R, accountSid: string, publicUrl: string): string;
}

/** @example CALLS_WIRE.uri('AC1') // '/2012-04-24/Accounts/AC1/Calls' (no /call, no .json: production's quirk) */
export const CALLS_WIRE: ListWire<CallRecord> = { key: 'calls', uri: callsListUri, item: (c, sid) => callJson(c, sid) };

/** @example RECORDINGS_WIRE.uri('AC1') // '/call/2012-04-24/Accounts/AC1/Recordings.json' */
export const RECORDINGS_WIRE: ListWire<RecordingRecord> = {
  key: 'recordings',
  uri: recordingsListUri,
  item: recordingJson,
};
