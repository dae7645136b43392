import { ApiError, messages } from '../errors';
import type { StoreSort } from '../store/table';
import { parseSortBy, type SortAttributes } from './sort';

/** The largest value Java's `Integer.parseInt` accepts; production has no other bound. */
const INT_MAX = 2147483647;

export interface ListQuery<C extends string> {
  page: number;
  pageSize: number;
  /** In store columns; null for the default order. */
  sort: StoreSort<C> | null;
  /** Things production ignores or treats differently that the client relied on. */
  warnings: string[];
  /** The first value of each filter parameter given, by name. */
  filters: Map<string, string>;
}

export interface ListQueryOptions<C extends string> {
  /** SortBy attributes of this list, and the store column of each. */
  sort: SortAttributes<C>;
  /** PageSize above this is a 400; undefined means no maximum, as in production. */
  maxPageSize?: number | undefined;
  /** Filter parameters of this list (case-sensitive names). */
  filterNames?: readonly string[];
}

/** The parameters every list reads. Names are case-sensitive. */
const PAGING = ['Page', 'PageSize', 'SortBy', 'AfterSid'] as const;

/**
 * Reads the first value of each parameter, as production's `getFirst`, with the names it
 * ignores or reads differently collected as warnings.
 * @example firstValues('Page=1&Page=2&pagesize=5') // { values: Map { 'Page' => '1' }, warnings: [2 items] }
 */
export function firstValues(
  rawQuery: string,
  known: readonly string[] = PAGING,
): { values: Map<string, string>; warnings: string[] } {
  const values = new Map<string, string>();
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (known.includes(name)) {
      if (values.has(name)) {
        if (!seen.has(name)) warnings.push(messages.repeatedParameter(name));
        seen.add(name);
      } else {
        values.set(name, value);
      }
      continue;
    }
    const nearly = known.find((k) => k.toLowerCase() === name.toLowerCase());
    if (nearly !== undefined) {
      warnings.push(messages.caseSensitiveParameter(name, nearly));
    }
  }
  return { values, warnings };
}

/**
 * A non-negative base-10 integer that Java's `Integer.parseInt` would read (an optional `+`,
 * leading zeros allowed). Production answers 500 for the rest; we answer 400.
 * @example parseNonNegativeInt('Page', '007') // 7
 */
export function parseNonNegativeInt(name: string, value: string): number {
  if (!/^\+?[0-9]+$/.test(value)) throw new ApiError(400, messages.notInteger(name, value));
  const n = Number(value);
  if (n > INT_MAX) throw new ApiError(400, messages.notInteger(name, value));
  return n;
}

/**
 * Page, PageSize and SortBy of a list request, validated.
 * @example parseListQuery('Page=2&PageSize=10&SortBy=From:desc', { sort: CALL_SORT })
 *   // { page: 2, pageSize: 10, sort: { column: 'from', direction: 'desc' }, warnings: [], filters: Map {} }
 */
export function parseListQuery<C extends string>(rawQuery: string, options: ListQueryOptions<C>): ListQuery<C> {
  const filterNames = options.filterNames ?? [];
  const { values, warnings } = firstValues(rawQuery, [...PAGING, ...filterNames]);
  const rawPage = values.get('Page');
  const rawPageSize = values.get('PageSize');
  const page = rawPage === undefined ? 0 : parseNonNegativeInt('Page', rawPage);
  const pageSize = rawPageSize === undefined ? 50 : parseNonNegativeInt('PageSize', rawPageSize);
  if (pageSize === 0) throw new ApiError(400, messages.pageSizeZero);
  if (options.maxPageSize !== undefined && pageSize > options.maxPageSize) {
    throw new ApiError(400, messages.pageSizeTooLarge(pageSize, options.maxPageSize));
  }
  let sort: StoreSort<C> | null = null;
  const rawSort = values.get('SortBy');
  if (rawSort !== undefined) {
    const parsed = parseSortBy(rawSort, options.sort);
    sort = parsed.sort;
    if (parsed.warning !== undefined) warnings.push(parsed.warning);
  }
  if (values.has('AfterSid')) {
    warnings.push(messages.afterSidIgnored);
  }
  const filters = new Map<string, string>();
  for (const name of filterNames) {
    const v = values.get(name);
    if (v !== undefined) filters.set(name, v);
  }
  return { page, pageSize, sort, warnings, filters };
}
