import { durationMs } from '../../src/input/duration';

describe('ISO 8601 durations of fixed length', () => {
  test.each([
    ['PT5M', 300_000],
    ['PT1H', 3_600_000],
    ['PT1H30M', 5_400_000],
    ['P1D', 86_400_000],
    ['P1DT2H', 93_600_000],
    ['P2W', 1_209_600_000],
    ['PT0.5S', 500],
    ['PT1.234S', 1234],
    ['PT0S', 0],
    ['P0D', 0],
    ['PT36H', 129_600_000],
  ])('%s is %d ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  test.each([
    'P1M', // a month has no fixed length
    'P1Y',
    'P',
    'PT',
    'P1DT',
    '5M',
    'PT-5M',
    'PT1.2345S',
    'pt5m',
    'PT5M ',
    '',
    'P1H', // hours need the T
  ])('%j is refused', (text) => {
    expect(durationMs(text)).toBeNull();
  });
});
