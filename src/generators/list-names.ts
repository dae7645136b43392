/** The lists the emulator serves, by name (see ListRecords in list-records.ts for the record each holds). */
export type ListName = 'calls' | 'recordings' | 'notifications';

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
