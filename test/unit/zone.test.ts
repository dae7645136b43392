import { isZone, zonedMidnight } from '../../src/input/zone';
import { parseDay } from '../../src/query/filters';

describe("the server's zone", () => {
  test.each([
    ['UTC', true],
    ['Europe/Madrid', true],
    ['America/Sao_Paulo', true],
    ['+09:00', true],
    ['-0530', true],
    ['+19:00', false],
    ['Mars/Olympus', false],
    ['', false],
  ])('%j is a zone: %s', (zone, ok) => expect(isZone(zone)).toBe(ok));

  test.each([
    // Summer time in Madrid: midnight is 22:00 UTC the day before.
    ['Europe/Madrid', Date.UTC(2025, 6, 1), Date.UTC(2025, 5, 30, 22)],
    ['Europe/Madrid', Date.UTC(2025, 0, 15), Date.UTC(2025, 0, 14, 23)],
    // The day clocks go forward (at 02:00) still starts at midnight, an hour ahead of UTC.
    ['Europe/Madrid', Date.UTC(2025, 2, 30), Date.UTC(2025, 2, 29, 23)],
    ['Europe/Madrid', Date.UTC(2025, 2, 31), Date.UTC(2025, 2, 30, 22)],
    ['America/New_York', Date.UTC(2025, 10, 2), Date.UTC(2025, 10, 2, 4)],
    ['America/New_York', Date.UTC(2025, 10, 3), Date.UTC(2025, 10, 3, 5)],
    // Where midnight is skipped (Brazil's summer time began at 00:00), the day starts at 01:00.
    ['America/Sao_Paulo', Date.UTC(2018, 10, 4), Date.UTC(2018, 10, 4, 3)],
    ['+09:00', Date.UTC(2025, 5, 1), Date.UTC(2025, 4, 31, 15)],
    ['-05:30', Date.UTC(2025, 5, 1), Date.UTC(2025, 5, 1, 5, 30)],
    ['UTC', Date.UTC(2025, 5, 1), Date.UTC(2025, 5, 1)],
  ])('%s: the day of %d starts at %d', (zone, utc, expected) => expect(zonedMidnight(zone, utc)).toBe(expected));

  test('StartTime and EndTime days in the zone: EndTime runs to the next local midnight, 23 h on a spring-forward day', () => {
    expect(parseDay('StartTime', '2025-03-30', 'Europe/Madrid')).toBe(Date.UTC(2025, 2, 29, 23));
    expect(
      parseDay('EndTime', '2025-03-30', 'Europe/Madrid', 1) - parseDay('EndTime', '2025-03-30', 'Europe/Madrid'),
    ).toBe(23 * 3600_000);
    // Lenient days roll over in the zone as in UTC: 2025-02-30 is 2 March.
    expect(parseDay('StartTime', '2025-02-30', '+09:00')).toBe(Date.UTC(2025, 2, 1, 15));
    expect(parseDay('StartTime', '2025-02-30')).toBe(Date.UTC(2025, 2, 2));
  });
});
