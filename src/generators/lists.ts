import type { CallRecord } from './call';
import type { NotificationRecord } from './notification';
import type { RecordingRecord } from './recording';

/**
 * The list resources the emulator serves, by name, with the record each holds: the registry's
 * keys. Every layer keeps what it knows of a list in a record keyed by these names (the table
 * kind in store/lists.ts, the wire in format/list-wire.ts, the parameters in query/lists.ts, the
 * route in routes/lists.ts), so a list added here is a type error in each until it is handled.
 */
export interface ListRecords {
  calls: CallRecord;
  recordings: RecordingRecord;
  notifications: NotificationRecord;
}

export type ListName = keyof ListRecords;

/**
 * Each list's stream name: its seeded records draw from `[seed, account, name]`, its inserts'
 * defaults from `inserted-{name}` and its sids from `{name}-sid`, per record.
 */
export const LIST_STREAMS: { readonly [K in ListName]: string } = {
  calls: 'call',
  recordings: 'recording',
  notifications: 'notification',
};

/** Every list, in the order the emulator shows them. @example LIST_NAMES // ['calls', 'recordings', 'notifications'] */
export const LIST_NAMES = Object.keys(LIST_STREAMS) as readonly ListName[];

/** One value a list, made from its name. @example perList((name) => name.length) // { calls: 5, recordings: 10, notifications: 13 } */
export function perList<T>(make: (name: ListName) => T): { [K in ListName]: T } {
  return Object.fromEntries(LIST_NAMES.map((name) => [name, make(name)])) as { [K in ListName]: T };
}
