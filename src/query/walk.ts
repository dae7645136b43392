import type { ListName } from '../generators/list-names';

/**
 * One page of a list as a client walked it, for `/__admin/walks`: which list, in which order and
 * filter, which page, and which records it served (by id in their table, so that nothing is
 * generated to note them). The journal keeps it with the request.
 * @example { table: 3, list: 'calls', account: 'AC…', sort: null, filter: '', page: 1, pageSize: 50, ids: Uint32Array [49, 50, …], total: 448, last: false, clockMs: 1748779200000 }
 */
export interface WalkPage {
  /** The table the ids are in. */
  table: number;
  list: ListName;
  account: string;
  /** `Column:direction` in store terms, or null for the default order. */
  sort: string | null;
  /** The filter's canonical key ('' for none). */
  filter: string;
  page: number;
  pageSize: number;
  ids: Uint32Array;
  total: number;
  /** Whether this is the last page (its next link is "null"). */
  last: boolean;
  /** The clock when it was served. */
  clockMs: number;
  /** How many writes the store had made when it was served (see `markRead`): orders it among writes at one instant. */
  seq: number;
}
