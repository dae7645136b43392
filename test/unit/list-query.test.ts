import { messages } from '../../src/errors';
import type { CallRecord, CallStatus } from '../../src/generators/call-record';
import { parseListQuery } from '../../src/query/list-query';
import { CALL_LIST } from '../../src/query/list-specs';

const parse = (q: string, maxPageSize?: number) => parseListQuery(q, CALL_LIST, maxPageSize);
const fails = (q: string, message: string, maxPageSize?: number) =>
  expect(() => parse(q, maxPageSize)).toThrow(expect.objectContaining({ status: 400, message }) as Error);

describe('parseListQuery', () => {
  test('defaults: Page 0, PageSize 50, default order', () => {
    expect(parse('')).toEqual({ page: 0, pageSize: 50, sort: null, filter: null, subAccounts: false, warnings: [] });
  });

  test.each([
    ['Page=3&PageSize=10', 3, 10],
    ['PageSize=1', 0, 1],
    ['Page=007&PageSize=%2B5', 7, 5],
    ['PageSize=99999999', 0, 99999999],
    ['Page=2147483647', 2147483647, 50],
  ])('%s → Page %i, PageSize %i', (q, page, pageSize) => {
    expect(parse(q)).toMatchObject({ page, pageSize });
  });

  test.each([
    ['Page', 'abc'],
    ['Page', '-1'],
    ['Page', '1.5'],
    ['Page', ''],
    ['Page', '0x10'],
    ['Page', ' 1'],
    ['Page', '1e3'],
    ['PageSize', '-5'],
    ['PageSize', '2147483648'],
    ['PageSize', 'ten'],
  ])('%s=%s → 400', (name, value) => {
    fails(
      `${name}=${encodeURIComponent(value)}`,
      name === 'PageSize' ? messages.pageSizeInvalid(value) : messages.notInteger(name, value),
    );
  });

  test('PageSize 0 and PageSize -1 → 400 with one message, naming the range that holds', () => {
    fails('PageSize=0', messages.pageSizeInvalid('0'));
    fails('PageSize=-1', messages.pageSizeInvalid('-1'));
    expect(messages.pageSizeInvalid('0')).toBe('PageSize must be a base-10 integer from 1 to 2147483647, got "0"');
  });

  test.each([
    // [query, sort it gives] — production's CallsEndpoint: Reverse only without SortBy.
    ['Reverse=true', { column: 'created', direction: 'desc' }],
    ['Reverse=TRUE', { column: 'created', direction: 'desc' }],
    ['Reverse=false', { column: 'created', direction: 'asc' }],
    ['Reverse=yes', { column: 'created', direction: 'asc' }],
    ['Reverse=', { column: 'created', direction: 'asc' }],
    ['Reverse=false&SortBy=From:desc', { column: 'from', direction: 'desc' }],
  ])('%s → %j, with no warning', (q, sort) => {
    expect(parse(q)).toMatchObject({ sort, warnings: [] });
  });

  test('an empty SortBy drops Reverse too, as in production (its value is there, though empty)', () => {
    expect(parse('SortBy=&Reverse=false').sort).toBeNull();
  });

  test('a PageSize over --max-page-size → 400; at the maximum → accepted', () => {
    fails('PageSize=101', messages.pageSizeTooLarge(101, 100), 100);
    expect(parse('PageSize=100', 100).pageSize).toBe(100);
  });

  test('names are case-sensitive: pagesize and page are ignored, with warnings', () => {
    const q = parse('pagesize=5&page=3&SORTBY=From');
    expect(q).toMatchObject({ page: 0, pageSize: 50, sort: null });
    expect(q.warnings).toHaveLength(3);
    expect(q.warnings[0]).toContain('did you mean PageSize?');
  });

  test('a parameter given twice: the first value counts, with a warning', () => {
    const q = parse('Page=1&Page=2&PageSize=5&PageSize=abc');
    expect(q).toMatchObject({ page: 1, pageSize: 5 });
    expect(q.warnings).toEqual([
      'Parameter Page is given more than once; the first value counts',
      'Parameter PageSize is given more than once; the first value counts',
    ]);
  });

  test('AfterSid is read but selects nothing (the list says whether it matches the page)', () => {
    const q = parse('Page=1&AfterSid=CA123');
    expect([q.page, q.afterSid, q.warnings]).toEqual([1, 'CA123', []]);
  });

  test.each([
    ['SubAccounts=true', true, []],
    ['SubAccounts=TRUE', true, []],
    ['SubAccounts=false', false, []],
    ['SubAccounts=False', false, []],
    ['SubAccounts=1', false, [messages.subAccountsNotTrue('1')]],
    ['SubAccounts=', false, [messages.subAccountsNotTrue('')]],
    ['subaccounts=true', false, [messages.caseSensitiveParameter('subaccounts', 'SubAccounts')]],
  ])('%s: sub-accounts %s, as production reads it (equalsIgnoreCase("true"))', (query, subAccounts, warnings) => {
    const q = parse(query);
    expect([q.subAccounts, q.warnings]).toEqual([subAccounts, warnings]);
  });

  test('an unknown parameter is ignored with a warning naming the ones the list reads', () => {
    const q = parse('page_size=5&StartDate=2025-01-01');
    expect(q.warnings).toEqual([
      messages.unknownParameter('page_size', [
        'Page',
        'PageSize',
        'SortBy',
        'AfterSid',
        'SubAccounts',
        'Reverse',
        ...Object.keys(CALL_LIST.filters),
      ]),
      messages.unknownParameter('StartDate', [
        'Page',
        'PageSize',
        'SortBy',
        'AfterSid',
        'SubAccounts',
        'Reverse',
        ...Object.keys(CALL_LIST.filters),
      ]),
    ]);
  });

  test('percent-encoded values are decoded and malformed escapes do not throw', () => {
    expect(parse('SortBy=From%3Adesc').sort).toEqual({ column: 'from', direction: 'desc' });
    fails('Page=%ZZ', messages.notInteger('Page', '%ZZ'));
  });

  test("filters of the list are read (first value wins) and built; a bad value is a 400; other lists' are not filters", () => {
    const q = parse('From=%25302&Status=busy&From=9&CallSid=x');
    expect(q.filter?.key).toBe('From=%302&Status=busy');
    const call = (status: CallStatus): CallRecord => ({
      ...{ sid: 'ID1-CA1', instanceId: 'ID1', phoneNumberSid: 'PN1', callerName: 'x', to: '', from: '+15550302' },
      ...{ direction: 'inbound', status, startSec: 0, ringSec: 0, endMs: 0, duration: 0, priceInt: 0 },
    });
    expect(q.filter?.test(call('busy'))).toBe(true);
    expect(q.filter?.test(call('completed'))).toBe(false);
    fails('StartTime=yesterday', messages.badDay('StartTime', 'yesterday'));
    expect(parse('CallSid=x').filter).toBeNull();
  });
});
