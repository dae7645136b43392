import { ValidationError } from '../../src/errors';
import { javaDecimal, resolvedFileUri } from '../../src/format/rows';
import { containerPath } from '../../src/front-door';
import { collationFold, collationKey, compareCollated } from '../../src/generators/collation';
import { priceKey } from '../../src/generators/rows';
import { readJsonRow, readRow, sqlDateTime, sqlDateTimeText } from '../../src/input/restcomm-tables';

describe('a DATETIME as a dump writes it, read as UTC milliseconds', () => {
  test.each([
    ['2013-08-23 14:30:07', Date.UTC(2013, 7, 23, 14, 30, 7)],
    ['2013-08-23 14:30:07.820000000', Date.UTC(2013, 7, 23, 14, 30, 7, 820)],
    ['2016-01-05 08:51:07.955000', Date.UTC(2016, 0, 5, 8, 51, 7, 955)],
    ['2024-02-29 23:59:59.9', Date.UTC(2024, 1, 29, 23, 59, 59, 900)],
    ['2013-08-23T14:30:07', Date.UTC(2013, 7, 23, 14, 30, 7)],
    ['0099-01-01 00:00:00', new Date(0).setUTCFullYear(99, 0, 1)],
    ['2023-02-29 00:00:00', undefined],
    ['2013-13-01 00:00:00', undefined],
    ['2013-08-23 24:00:00', undefined],
    ['0000-00-00 00:00:00', undefined],
    ['2013-08-23', undefined],
  ])('%s → %s', (text, ms) => {
    expect(sqlDateTime(text)).toBe(ms);
  });

  test('written back with the millisecond only where there is one', () => {
    expect(sqlDateTimeText(Date.UTC(2013, 7, 23, 14, 30, 7))).toBe('2013-08-23 14:30:07');
    expect(sqlDateTimeText(Date.UTC(2013, 7, 23, 14, 30, 7, 820))).toBe('2013-08-23 14:30:07.820');
  });
});

describe("MariaDB's default collation", () => {
  test.each([
    ['alice', 'ALICE', 0],
    ['José', 'jose', 0],
    ['alice ', 'alice', 0],
    ['BUSY', 'busy', 0],
    ['NO_ANSWER', 'no-answer', 1],
    ['Unknown', 'thomas', 1],
    ['+1512', '1512', -1],
    ['9', 'A', -1],
  ])('%s vs %s → %s', (a, b, sign) => {
    expect(Math.sign(compareCollated(a, b))).toBe(sign);
  });

  test('LIKE keeps trailing spaces, = and ORDER BY do not', () => {
    expect(collationFold('Alice ')).toBe('ALICE ');
    expect(collationKey('Alice ')).toBe('ALICE');
  });
});

describe("a row's price as production sorts it, and prints it", () => {
  test.each([
    ['0.00', 0],
    ['12.90', 12],
    ['abc', 0],
    ['-1.50', 2 ** 64 - 1],
    [null, Number.NEGATIVE_INFINITY],
  ])('cast(%j as unsigned) → %s', (price, key) => {
    expect(priceKey(price)).toBe(key);
  });

  test.each([
    ['0.00', '0.00'],
    ['+.50', '0.50'],
    ['5.', '5'],
    ['-0.10', '-0.10'],
  ])('BigDecimal(%j).toString() → %j', (text, shown) => {
    expect(javaDecimal(text)).toBe(shown);
  });
});

describe("a recording's file_uri as production resolves it", () => {
  test.each([
    [
      'http://instance1.restcomm.com:8080/restcomm/recordings/RE1.wav',
      'http://instance1.restcomm.com:8080/restcomm/recordings/RE1.wav',
    ],
    [
      '/restcomm/2012-04-24/Accounts/AC1/Recordings/RE1.wav',
      'http://127.0.0.1:8080/restcomm/2012-04-24/Accounts/AC1/Recordings/RE1.wav',
    ],
    ['recordings/RE1.wav', 'http://127.0.0.1:8080/recordings/RE1.wav'],
  ])('%s → %s', (stored, shown) => {
    expect(resolvedFileUri(stored, 'http://127.0.0.1:8080/restcomm')).toBe(shown);
  });
});

describe('a row checked against its column', () => {
  const recording = {
    sid: 'RE1',
    date_created: '2016-01-05 08:51:07',
    date_updated: '2016-01-05 08:51:07',
    account_sid: 'AC1',
    call_sid: 'CA1',
    duration: 14.5,
    api_version: '2012-04-24',
    uri: '/u',
    file_uri: null,
    s3_uri: null,
  };
  const problem = (over: Record<string, unknown>, asStored = false) => {
    try {
      readJsonRow('restcomm_recordings', { ...recording, ...over }, 'r', asStored);
    } catch (err) {
      if (err instanceof ValidationError) return err.message;
      throw err;
    }
    return null;
  };

  test.each([
    [{ duration: 'long' }, 'r.duration: must be a DOUBLE, got "long"'],
    [{ duration: '14.5' }, null],
    [
      { sid: `RE${'0'.repeat(33)}` },
      'r.sid: holds 35 characters, more than its VARCHAR(34) takes: "RE000000000000000000000000000000000"',
    ],
    [{ api_version: null }, 'r.api_version: is NULL, and the column is NOT NULL'],
    [
      { date_created: '2016-02-30 00:00:00' },
      `r.date_created: must be a DATETIME as 'YYYY-MM-DD HH:MM:SS[.fraction]', got "2016-02-30 00:00:00"`,
    ],
    [
      { colour: 'red' },
      'r.colour: unknown field (expected one of sid, date_created, date_updated, account_sid, call_sid, duration, api_version, uri, file_uri, s3_uri)',
    ],
    [{ duration: { x: 1 } }, 'r.duration: must be a text, a number, a boolean or null, got {"x":1}'],
  ])('%j → %s', (over, message) => {
    expect(problem(over)).toBe(message);
  });

  test('as stored (an HSQLDB script, a state): lengths and NOT NULL go unchecked, but for the keys', () => {
    expect(problem({ api_version: null, uri: 'x'.repeat(5000) }, true)).toBeNull();
    expect(problem({ date_created: null }, true)).toBe('r.date_created: is NULL, and the column is NOT NULL');
  });

  test("a dump's own CREATE TABLE decides a column's length and NULL", () => {
    const declared = new Map([['call_sid', { max: 5, notNull: false }]]);
    const read = (call_sid: string | null) =>
      readRow(
        'restcomm_recordings',
        (c) => (c === 'call_sid' ? call_sid : (recording as Record<string, string | number | null>)[c]),
        'd',
        {
          absentIsNull: true,
          asStored: false,
          declared,
        },
      );
    expect(read(null).call_sid).toBeNull();
    expect(() => read('CA123456')).toThrow('d.call_sid: holds 8 characters, more than its VARCHAR(5) takes');
  });
});

describe("a path as production's container maps it", () => {
  test.each([
    ['/call/2012-04-24/Accounts/AC1/Calls.json', '/call/2012-04-24/Accounts/AC1/Calls.json'],
    ['/restcomm//2012-04-24///Accounts/AC1/Calls.json', '/restcomm/2012-04-24/Accounts/AC1/Calls.json'],
  ])('%s → %s', (path, mapped) => {
    expect(containerPath(path)).toBe(mapped);
  });
});
