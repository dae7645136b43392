import type { ListName } from '../generators/list-names';
import type { ListRecords } from '../generators/list-records';
import type { ByteSink } from './byte-sink';
import { callJson, callXml, writeCallJson } from './call';
import type { XmlList } from './envelope';
import { notificationJson, notificationXml } from './notification';
import { recordingJson, recordingXml } from './recording';
import { type Dialect, listUri } from './uris';
import type { XmlField } from './xml';

/**
 * What the wire says of one list: the items' key, the list's printed `uri`, how an item is
 * written, and the same in XML (`--dialect restcomm` without `.json`).
 */
export interface ListWire<R> {
  key: ListName;
  uri(accountSid: string, at: ListAt): string;
  item(record: R, accountSid: string, fileBase: string): string;
  /**
   * The same as `item`, written as bytes into a page being built (see `writeCallJson`): for a
   * list whose pages are mostly built once, as a walk of a huge account's calls. Optional: a list
   * without it is written from `item`'s text.
   */
  itemBytes?(record: R, accountSid: string, fileBase: string, sink: ByteSink): void;
  /**
   * Whether a page thread can write a page of its seeded records (cache/page-threads.ts makes
   * them from seed, instant and index on another core): calls only, the list walks read most.
   */
  pageThreads?: true;
  xml: XmlList;
  xmlItem(record: R, accountSid: string, fileBase: string): XmlField;
}

/** Where a list was asked for: the dialect and the mount prefix the request came under. */
export interface ListAt {
  dialect: Dialect;
  mount: string;
}

/**
 * The wire's part of the registry (see generators/list-records.ts): each list's items key (its name),
 * its `uri` in production's style for that list, and its item writer.
 * @example LIST_WIRES.calls.uri('AC1', at) // '/2012-04-24/Accounts/AC1/Calls' (no /call, no .json: production's quirk)
 */
export const LIST_WIRES: { readonly [K in ListName]: ListWire<ListRecords[K]> } = {
  calls: {
    key: 'calls',
    uri: (accountSid, at) => listUri('calls', accountSid, at.dialect, at.mount),
    item: (c, sid) => callJson(c, sid),
    itemBytes: (c, sid, _base, sink) => writeCallJson(c, sid, sink),
    pageThreads: true,
    xml: { element: 'Calls', paged: true },
    xmlItem: (c, sid) => callXml(c, sid),
  },
  recordings: {
    key: 'recordings',
    uri: (accountSid, at) => listUri('recordings', accountSid, at.dialect, at.mount),
    item: recordingJson,
    xml: { element: 'Recordings', paged: false },
    xmlItem: recordingXml,
  },
  notifications: {
    key: 'notifications',
    uri: (accountSid, at) => listUri('notifications', accountSid, at.dialect, at.mount),
    item: notificationJson,
    xml: { element: 'Notifications', paged: false },
    xmlItem: notificationXml,
  },
};
