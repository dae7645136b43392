import { messages } from '../../src/errors';
import { CALL_SORT, parseSortBy, RECORDING_SORT } from '../../src/query/sort';

describe('parseSortBy on the calls list', () => {
  test.each([
    ['DateCreated', 'created', 'asc'],
    ['DateCreated:asc', 'created', 'asc'],
    ['DateCreated:desc', 'created', 'desc'],
    ['DateCreated:DESC', 'created', 'desc'],
    ['From:Asc', 'from', 'asc'],
    ['To:desc', 'to', 'desc'],
    ['Direction', 'direction', 'asc'],
    ['Status:desc', 'status', 'desc'],
    ['Duration:asc', 'duration', 'asc'],
    ['Price:dEsC', 'price', 'desc'],
  ])('%s → store column %s %s', (value, column, direction) => {
    expect(parseSortBy(value, CALL_SORT)).toEqual({ sort: { column, direction } });
  });

  test.each([
    [':asc', messages.sortMissingField],
    [':', messages.sortMissingField],
    ['DateCreated:', messages.sortBadDirection],
    ['DateCreated:up', messages.sortBadDirection],
    ['DateCreated:invalid', messages.sortBadDirection],
    ['DateCreated:asc:x', messages.sortBadDirection],
    ['Foo:up', messages.sortBadDirection],
  ])('%s → 400 %s', (value, message) => {
    expect(() => parseSortBy(value, CALL_SORT)).toThrow(expect.objectContaining({ status: 400, message }) as Error);
  });

  test.each(['date_created', 'Foo', 'from', 'DATECREATED:asc', 'CallSid'])(
    'unknown or wrong-case attribute %s is ignored with a warning',
    (value) => {
      const parsed = parseSortBy(value, CALL_SORT);
      expect(parsed.sort).toBeNull();
      expect(parsed.warning).toContain('production ignores it');
    },
  );

  test('a wrong-case attribute gets a hint', () => {
    expect(parseSortBy('from:desc', CALL_SORT).warning).toContain('did you mean From?');
    expect(parseSortBy('date_created', CALL_SORT).warning).toContain('did you mean DateCreated?');
  });

  test('an empty SortBy is ignored with a warning', () => {
    const parsed = parseSortBy('', CALL_SORT);
    expect(parsed.sort).toBeNull();
    expect(parsed.warning).toMatch(/Empty SortBy/);
  });
});

describe('parseSortBy on the recordings list', () => {
  test.each([
    ['DateCreated:desc', 'created', 'desc'],
    ['Duration', 'duration', 'asc'],
    ['CallSid:desc', 'callSid', 'desc'],
  ])('%s → store column %s %s', (value, column, direction) => {
    expect(parseSortBy(value, RECORDING_SORT)).toEqual({ sort: { column, direction } });
  });

  test('names that are properties of every object are not attributes', () => {
    expect(parseSortBy('toString', RECORDING_SORT).sort).toBeNull();
    expect(parseSortBy('constructor:desc', CALL_SORT).sort).toBeNull();
  });

  test('call-only attributes are ignored on recordings', () => {
    expect(parseSortBy('From:asc', RECORDING_SORT).sort).toBeNull();
  });
});
