import type { ListName } from '../generators/list-names';
import type { ListRecords } from '../generators/list-records';
import type { Created } from '../store/table-contracts';
import type { ListColumns } from '../store/table-kinds';
import { CALL_FILTERS, type FilterDefs, NOTIFICATION_FILTERS, RECORDING_FILTERS } from './filters';
import { CALL_SORT, NOTIFICATION_SORT, RECORDING_SORT, type SortAttributes } from './sort';

/** The parameters one list reads besides Page and PageSize: its SortBy attributes and its filters. */
export interface ListSpec<C extends string, R> {
  sort: SortAttributes<C>;
  filters: FilterDefs<R>;
  /**
   * Reads `Reverse=true|false`, as production's calls list does for its old console: without
   * SortBy, `true` (any case) is DateCreated descending and anything else ascending.
   */
  reverse?: boolean;
}

/** The calls list: seven SortBy attributes, production's seven filters. */
export const CALL_LIST = { sort: CALL_SORT, filters: CALL_FILTERS, reverse: true };
/** The recordings list: three SortBy attributes, three filters. */
export const RECORDING_LIST = { sort: RECORDING_SORT, filters: RECORDING_FILTERS };

/** The query's part of the registry (see generators/list-records.ts). @example LIST_SPECS.calls.sort.From // 'from' */
export const LIST_SPECS: { readonly [K in ListName]: ListSpec<ListColumns[K] | Created, ListRecords[K]> } = {
  calls: CALL_LIST,
  recordings: RECORDING_LIST,
  notifications: { sort: NOTIFICATION_SORT, filters: NOTIFICATION_FILTERS },
};
