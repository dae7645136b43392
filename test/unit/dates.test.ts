import { isoMillis, javaDouble, rfc2822Date } from '../../src/format/dates';

describe('rfc2822Date (production SimpleDateFormat "EEE, d MMM yyyy HH:mm:ss Z")', () => {
  test.each([
    [Date.UTC(2013, 6, 5, 22, 15, 53) / 1000, 0, 'Fri, 5 Jul 2013 22:15:53 +0000'],
    [Date.UTC(2016, 4, 31, 16, 20, 22) / 1000, 0, 'Tue, 31 May 2016 16:20:22 +0000'],
    [Date.UTC(2018, 4, 18, 14, 57, 59) / 1000, 0, 'Fri, 18 May 2018 14:57:59 +0000'],
    // The instant 2014-01-05T23:51:07Z shown in +0900, as Restcomm's recordings docs show it.
    [Date.UTC(2014, 0, 5, 23, 51, 7) / 1000, 540, 'Mon, 6 Jan 2014 08:51:07 +0900'],
    [Date.UTC(2014, 0, 6, 3, 4, 5) / 1000, -300, 'Sun, 5 Jan 2014 22:04:05 -0500'],
    [Date.UTC(2014, 0, 6, 0, 0, 0) / 1000, 330, 'Mon, 6 Jan 2014 05:30:00 +0530'],
    [Date.UTC(2024, 1, 29, 0, 0, 9) / 1000, 0, 'Thu, 29 Feb 2024 00:00:09 +0000'],
  ])('%i at offset %i → %s', (sec, offset, text) => {
    expect(rfc2822Date(sec, offset)).toBe(text);
  });

  test('the day of the month is not zero-padded, hours, minutes and seconds are', () => {
    expect(rfc2822Date(Date.UTC(2020, 0, 1, 1, 2, 3) / 1000)).toBe('Wed, 1 Jan 2020 01:02:03 +0000');
  });
});

describe('isoMillis (Joda DateTime.toString in UTC)', () => {
  test.each([
    [Date.UTC(2013, 6, 5, 22, 15, 53), '2013-07-05T22:15:53.000Z'],
    [Date.UTC(2013, 6, 5, 22, 15, 53, 7), '2013-07-05T22:15:53.007Z'],
  ])('%i → %s', (ms, text) => expect(isoMillis(ms)).toBe(text));
});

describe('javaDouble (Double.toString: always a fractional part)', () => {
  test.each([
    [7, '7.0'],
    [59, '59.0'],
    [1, '1.0'],
    [14.70275, '14.70275'],
    [0.1, '0.1'],
    [3.5, '3.5'],
  ])('%d → %s', (x, text) => expect(javaDouble(x)).toBe(text));
});

describe('the arithmetic calendar agrees with Date on every kind of day', () => {
  test('each day from 1970 to 2100, at varied times and offsets', () => {
    const DAY = 86400;
    for (let day = 0; day < 47847; day += 1) {
      const sec = day * DAY + ((day * 7919) % DAY);
      expect(isoMillis(sec * 1000 + (day % 1000))).toBe(new Date(sec * 1000 + (day % 1000)).toISOString());
      const offset = [0, 540, -300, 330, -180][day % 5]!;
      const local = new Date((sec + offset * 60) * 1000);
      const expected = local.toUTCString().replace(/^(\w+), 0?(\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1, $2 $3 $4 $5');
      expect(rfc2822Date(sec, offset).slice(0, -6)).toBe(expected);
    }
  });
});
