import type { CallRecord } from '../generators/call';
import type { RecordingRecord } from '../generators/recording';
import { callJson } from './call';
import type { ListKey } from './envelope';
import { recordingJson } from './recording';
import { callsListUri, type Dialect } from './uris';

/** What the wire says of one list: the items' key, the list's printed `uri`, and how an item is written. */
export interface ListWire<R> {
  key: ListKey;
  uri(accountSid: string, at: ListAt): string;
  item(record: R, accountSid: string, fileBase: string): string;
}

/** Where a list was asked for: the dialect and the mount prefix the request came under. */
export interface ListAt {
  dialect: Dialect;
  mount: string;
}

/** @example CALLS_WIRE.uri('AC1', at) // '/2012-04-24/Accounts/AC1/Calls' (no /call, no .json: production's quirk) */
export const CALLS_WIRE: ListWire<CallRecord> = {
  key: 'calls',
  // Production builds it from the API version alone, in every dialect.
  uri: (accountSid) => callsListUri(accountSid),
  item: (c, sid) => callJson(c, sid),
};

/** @example RECORDINGS_WIRE.uri('AC1', { dialect: DIALECTS.spec, mount: '/call' }) // '/call/2012-04-24/Accounts/AC1/Recordings.json' */
export const RECORDINGS_WIRE: ListWire<RecordingRecord> = {
  key: 'recordings',
  uri: (accountSid, at) => at.dialect.recordingsListUri(accountSid, at.mount),
  item: recordingJson,
};
