import { messages } from '../../src/errors';
import { CALL_SORT_ATTRIBUTES, RECORDING_SORT_ATTRIBUTES, parseSortBy } from '../../src/query/sort';

describe('parseSortBy on the calls list', () => {
  test.each([
    ['DateCreated', 'DateCreated', 'asc'],
    ['DateCreated:asc', 'DateCreated', 'asc'],
    ['DateCreated:desc', 'DateCreated', 'desc'],
    ['DateCreated:DESC', 'DateCreated', 'desc'],
    ['From:Asc', 'From', 'asc'],
    ['To:desc', 'To', 'desc'],
    ['Direction', 'Direction', 'asc'],
    ['Status:desc', 'Status', 'desc'],
    ['Duration:asc', 'Duration', 'asc'],
    ['Price:dEsC', 'Price', 'desc'],
  ])('%s → %s %s', (value, attribute, direction) => {
    expect(parseSortBy(value, CALL_SORT_ATTRIBUTES)).toEqual({ sort: { attribute, direction } });
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
    expect(() => parseSortBy(value, CALL_SORT_ATTRIBUTES)).toThrow(
      expect.objectContaining({ status: 400, message }) as Error,
    );
  });

  test.each(['date_created', 'Foo', 'from', 'DATECREATED:asc', 'CallSid'])(
    'unknown or wrong-case attribute %s is ignored with a warning',
    (value) => {
      const parsed = parseSortBy(value, CALL_SORT_ATTRIBUTES);
      expect(parsed.sort).toBeNull();
      expect(parsed.warning).toContain('production ignores it');
    },
  );

  test('a wrong-case attribute gets a hint', () => {
    expect(parseSortBy('from:desc', CALL_SORT_ATTRIBUTES).warning).toContain('did you mean From?');
    expect(parseSortBy('date_created', CALL_SORT_ATTRIBUTES).warning).toContain('did you mean DateCreated?');
  });

  test('an empty SortBy is ignored with a warning', () => {
    const parsed = parseSortBy('', CALL_SORT_ATTRIBUTES);
    expect(parsed.sort).toBeNull();
    expect(parsed.warning).toMatch(/Empty SortBy/);
  });
});

describe('parseSortBy on the recordings list', () => {
  test.each([
    ['DateCreated:desc', 'DateCreated', 'desc'],
    ['Duration', 'Duration', 'asc'],
    ['CallSid:desc', 'CallSid', 'desc'],
  ])('%s → %s %s', (value, attribute, direction) => {
    expect(parseSortBy(value, RECORDING_SORT_ATTRIBUTES)).toEqual({ sort: { attribute, direction } });
  });

  test('call-only attributes are ignored on recordings', () => {
    expect(parseSortBy('From:asc', RECORDING_SORT_ATTRIBUTES).sort).toBeNull();
  });
});
