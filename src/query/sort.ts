import { ApiError, messages } from '../errors';
import type { CallColumn } from '../store/calls';
import type { NotificationColumn } from '../store/notifications';
import type { RecordingColumn } from '../store/recordings';
import type { Created, StoreSort } from '../store/table-contracts';

/**
 * SortBy's attribute names (production's, case-sensitive) and the store column each sorts by.
 * The key order is the order messages list them in.
 */
export const CALL_SORT = {
  DateCreated: 'created',
  From: 'from',
  To: 'to',
  Direction: 'direction',
  Status: 'status',
  Duration: 'duration',
  Price: 'price',
} as const satisfies Record<string, CallColumn | Created>;

/** Production's recordings list accepts these three, with the calls list's syntax. */
export const RECORDING_SORT = {
  DateCreated: 'created',
  Duration: 'duration',
  CallSid: 'callSid',
} as const satisfies Record<string, RecordingColumn | Created>;

/** Production's notifications list (`NotificationsEndpoint`): five attributes, ties by date_created descending. */
export const NOTIFICATION_SORT = {
  DateCreated: 'created',
  Log: 'log',
  ErrorCode: 'errorCode',
  CallSid: 'callSid',
  MessageText: 'messageText',
} as const satisfies Record<string, NotificationColumn | Created>;

/** SortBy's attributes of one list, by wire name. */
export type SortAttributes<C extends string> = Readonly<Record<string, C>>;

export interface SortParse<C extends string> {
  /** null means the default order (`date_created` descending). */
  sort: StoreSort<C> | null;
  warning?: string;
}

/**
 * Parses a SortBy value as production's `Sorting.parseUrl` does: split at the first `:`; an empty
 * field or a direction other than asc/desc (any case) is a 400; a missing direction is ascending.
 * Attribute names are case-sensitive, and an unknown one is ignored (default order) with a warning.
 *
 * @example parseSortBy('From:DESC', CALL_SORT) // { sort: { column: 'from', direction: 'desc' } }
 * @example parseSortBy('date_created', CALL_SORT) // { sort: null, warning: '…' }
 */
export function parseSortBy<C extends string>(value: string, attributes: SortAttributes<C>): SortParse<C> {
  if (value === '') return { sort: null, warning: messages.emptySortBy };
  const colon = value.indexOf(':');
  const field = colon < 0 ? value : value.slice(0, colon);
  const dir = colon < 0 ? 'asc' : value.slice(colon + 1).toLowerCase();
  if (field === '') throw new ApiError(400, messages.sortMissingField);
  if (dir !== 'asc' && dir !== 'desc') throw new ApiError(400, messages.sortBadDirection);
  const column = Object.hasOwn(attributes, field) ? attributes[field] : undefined;
  if (column === undefined) {
    const names = Object.keys(attributes);
    const meant = names.find((a) => a.toLowerCase() === field.toLowerCase().replace(/_/g, ''));
    return { sort: null, warning: messages.unknownSortAttribute(field, names, meant) };
  }
  return { sort: { column, direction: dir } };
}
