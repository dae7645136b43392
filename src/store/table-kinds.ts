import type { AccountSpec } from '../generators/account-spec';
import type { CallFacts } from '../generators/call-record';
import type { ListName } from '../generators/list-names';
import type { ListRecords } from '../generators/list-records';
import { notificationCapacity } from '../generators/notification';
import { CALL_KIND, type CallColumn } from './calls';
import { NOTIFICATION_KIND, type NotificationColumn } from './notifications';
import { RECORDING_KIND, type RecordingColumn } from './recordings';
import type { Table } from './table';
import type { Created, TableKind, TableView } from './table-contracts';

/** The columns each list sorts by, besides `created`. */
export interface ListColumns {
  calls: CallColumn;
  recordings: RecordingColumn;
  notifications: NotificationColumn;
}

/** What each list's filters read of a record: a call's facts, a whole record otherwise. */
export interface ListFacts {
  calls: CallFacts;
  recordings: ListRecords['recordings'];
  notifications: ListRecords['notifications'];
}

/** What the store knows of one list: how its records are made, sorted and found, and how many the seed makes. */
export interface StoreList<K extends ListName> {
  kind: TableKind<ListRecords[K], ListColumns[K], ListFacts[K]>;
  seeded(spec: AccountSpec): number;
}

/** The store's part of the registry (see generators/list-records.ts). */
export const STORE_LISTS: { readonly [K in ListName]: StoreList<K> } = {
  calls: { kind: CALL_KIND, seeded: (spec) => spec.calls },
  recordings: { kind: RECORDING_KIND, seeded: (spec) => spec.recordings },
  notifications: { kind: NOTIFICATION_KIND, seeded: (spec) => spec.notifications ?? notificationCapacity(spec.calls) },
};

/** An account's tables, one a list. */
export type Tables = { readonly [K in ListName]: Table<ListRecords[K], ListColumns[K], ListFacts[K]> };
/** The same, read-only: what the rest of the emulator sees. */
export type TableViews = {
  readonly [K in ListName]: TableView<ListRecords[K], ListColumns[K] | Created, ListFacts[K]>;
};
