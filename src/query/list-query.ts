import { ApiError, messages } from '../errors';
import type { RecordFilter, StoreSort } from '../store/table-contracts';
import { buildFilter } from './filters';
import type { ListSpec } from './list-specs';
import { parseSortBy } from './sort';

/** The largest value Java's `Integer.parseInt` accepts; production has no other bound. */
const INT_MAX = 2147483647;

export interface ListQuery<C extends string, R> {
  page: number;
  pageSize: number;
  /** In store columns; null for the default order. */
  sort: StoreSort<C> | null;
  /** What the filter parameters given keep; null when none is given. */
  filter: RecordFilter<R> | null;
  /**
   * `SubAccounts=true` (any case): the account's sub-accounts' records too, as production's lists
   * read it; any other value is false.
   */
  subAccounts: boolean;
  /** AfterSid as sent: production ignores it; the list says whether it matches the page. */
  afterSid: string | undefined;
  /** Things production ignores or treats differently that the client relied on. */
  warnings: string[];
}

/** The parameters every list reads. Names are case-sensitive. */
const PAGING = ['Page', 'PageSize', 'SortBy', 'AfterSid', 'SubAccounts'] as const;

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
    warnings.push(
      nearly === undefined ? messages.unknownParameter(name, known) : messages.caseSensitiveParameter(name, nearly),
    );
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
 * A PageSize, 1 to 2147483647, or a 400 saying that range whatever is wrong with it.
 * @example parsePageSize('25') // 25
 */
export function parsePageSize(value: string): number {
  if (!/^\+?[0-9]+$/.test(value) || Number(value) === 0 || Number(value) > INT_MAX)
    throw new ApiError(400, messages.pageSizeInvalid(value));
  return Number(value);
}

/**
 * Page, PageSize, SortBy and the filters of a list request, validated. `maxPageSize` (undefined:
 * none, as in production) makes a larger PageSize a 400; `zone` is the server's, which StartTime
 * and EndTime name days in.
 * @example parseListQuery('Page=2&PageSize=10&SortBy=From:desc', CALL_LIST)
 *   // { page: 2, pageSize: 10, sort: { column: 'from', direction: 'desc' }, filter: null, warnings: [] }
 */
export function parseListQuery<C extends string, R>(
  rawQuery: string,
  list: ListSpec<C, R>,
  maxPageSize?: number,
  zone = 'UTC',
): ListQuery<C, R> {
  const filterNames = Object.keys(list.filters);
  const { values, warnings } = firstValues(rawQuery, [
    ...PAGING,
    ...(list.reverse === true ? ['Reverse'] : []),
    ...filterNames,
  ]);
  const rawPage = values.get('Page');
  const rawPageSize = values.get('PageSize');
  const page = rawPage === undefined ? 0 : parseNonNegativeInt('Page', rawPage);
  const pageSize = rawPageSize === undefined ? 50 : parsePageSize(rawPageSize);
  if (maxPageSize !== undefined && pageSize > maxPageSize) {
    throw new ApiError(400, messages.pageSizeTooLarge(pageSize, maxPageSize));
  }
  let sort: StoreSort<C> | null = null;
  const rawSort = values.get('SortBy');
  if (rawSort !== undefined) {
    const parsed = parseSortBy(rawSort, list.sort);
    sort = parsed.sort;
    if (parsed.warning !== undefined) warnings.push(parsed.warning);
  }
  // Production's old console sends Reverse on every request: read only when SortBy is absent,
  // silently dropped when it is there (no warning, so the console works under --strict).
  const reverse = values.get('Reverse');
  if (reverse !== undefined && rawSort === undefined) {
    sort = { column: 'created' as C, direction: reverse.toLowerCase() === 'true' ? 'desc' : 'asc' };
  }
  // Production includes sub-accounts for `true` alone (`equalsIgnoreCase`): a client that sends
  // `1` or `yes` gets the account's own records there, and is told so here.
  const rawSubAccounts = values.get('SubAccounts');
  const subAccounts = rawSubAccounts?.toLowerCase() === 'true';
  if (rawSubAccounts !== undefined && !subAccounts && rawSubAccounts.toLowerCase() !== 'false') {
    warnings.push(messages.subAccountsNotTrue(rawSubAccounts));
  }
  const given = new Map<string, string>();
  for (const name of filterNames) {
    const v = values.get(name);
    if (v !== undefined) given.set(name, v);
  }
  return {
    page,
    pageSize,
    sort,
    filter: buildFilter(list.filters, given, zone),
    subAccounts,
    afterSid: values.get('AfterSid'),
    warnings,
  };
}
