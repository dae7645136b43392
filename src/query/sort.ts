import { ApiError, messages } from '../errors';

export const CALL_SORT_ATTRIBUTES = ['DateCreated', 'From', 'To', 'Direction', 'Status', 'Duration', 'Price'] as const;
export const RECORDING_SORT_ATTRIBUTES = ['DateCreated', 'Duration', 'CallSid'] as const;
export type CallSortAttribute = (typeof CALL_SORT_ATTRIBUTES)[number];
export type RecordingSortAttribute = (typeof RECORDING_SORT_ATTRIBUTES)[number];
export type SortDirection = 'asc' | 'desc';

export interface SortSpec<A extends string> {
  attribute: A;
  direction: SortDirection;
}

export interface SortParse<A extends string> {
  /** null means the default order (`date_created` descending). */
  sort: SortSpec<A> | null;
  warning?: string;
}

/**
 * Parses a SortBy value as production's `Sorting.parseUrl` does: split at the first `:`; an empty
 * field or a direction other than asc/desc (any case) is a 400; a missing direction is ascending.
 * Attribute names are case-sensitive, and an unknown one is ignored (default order) with a warning.
 *
 * @example parseSortBy('From:DESC', CALL_SORT_ATTRIBUTES) // { sort: { attribute: 'From', direction: 'desc' } }
 * @example parseSortBy('date_created', CALL_SORT_ATTRIBUTES) // { sort: null, warning: '…' }
 */
export function parseSortBy<A extends string>(value: string, attributes: readonly A[]): SortParse<A> {
  if (value === '') {
    return { sort: null, warning: 'Empty SortBy is ignored; the default order (date_created descending) applies' };
  }
  const colon = value.indexOf(':');
  const field = colon < 0 ? value : value.slice(0, colon);
  const dir = colon < 0 ? 'asc' : value.slice(colon + 1).toLowerCase();
  if (field === '') throw new ApiError(400, messages.sortMissingField);
  if (dir !== 'asc' && dir !== 'desc') throw new ApiError(400, messages.sortBadDirection);
  const attribute = attributes.find((a) => a === field);
  if (attribute === undefined) {
    const nearly = attributes.find((a) => a.toLowerCase() === field.toLowerCase().replace(/_/g, ''));
    const hint = nearly === undefined ? '' : ` (attribute names are case-sensitive: did you mean ${nearly}?)`;
    return {
      sort: null,
      warning: `SortBy attribute ${JSON.stringify(field)} is not one of ${attributes.join(', ')}${hint}; production ignores it and uses the default order`,
    };
  }
  return { sort: { attribute, direction: dir } };
}
