import { JOURNAL_BYTES, JOURNAL_TEXT_CHARS, Journal } from '../../src/harness/journal';

const entry = (query: string, warnings: string[] = []) => ({
  arrivedMs: Date.UTC(2025, 5, 1, 12),
  method: 'GET',
  path: '/call/2012-04-24/Accounts/AC1/Calls.json',
  query,
  account: 'AC1',
  status: 200,
  duration_ms: 1,
  warnings,
  fault: null,
});

describe('Journal bounds', () => {
  test('a ring of `size` entries, newest first', () => {
    const j = new Journal(3);
    for (const q of ['a', 'b', 'c', 'd']) j.add(entry(q));
    expect(j.list().map((e) => e.query)).toEqual(['d', 'c', 'b']);
    expect([j.count, j.seen]).toEqual([3, 4]);
  });

  test('long texts are cut, and the entry says so; short ones are kept whole', () => {
    const j = new Journal(10);
    j.add(entry('x'.repeat(8192), ['w'.repeat(5000), ...Array.from({ length: 20 }, (_, i) => `w${i}`)]));
    j.add(entry('Page=1', ['AfterSid is ignored']));
    const [short, long] = j.list();
    expect(short).toMatchObject({ query: 'Page=1', warnings: ['AfterSid is ignored'], truncated: false });
    expect(long?.query).toHaveLength(JOURNAL_TEXT_CHARS);
    expect(long?.warnings[0]).toHaveLength(JOURNAL_TEXT_CHARS);
    expect(long?.warnings).toHaveLength(8);
    expect(long?.truncated).toBe(true);
  });

  test('60,000 requests with 8 KB queries in a journal of a million entries stay within the byte budget', () => {
    const j = new Journal(1_000_000);
    const q = 'q'.repeat(8192);
    for (let i = 0; i < 60_000; i++) j.add(entry(q));
    expect(j.heldBytes).toBeLessThanOrEqual(JOURNAL_BYTES);
    expect(j.count).toBeLessThan(60_000);
    expect(j.count).toBeGreaterThan(10_000);
    expect(j.seen).toBe(60_000);
    expect(j.list({ limit: 1 })[0]?.id).toBe(60_000);
  });

  test('a small budget keeps at least the newest entry; clear empties it', () => {
    const j = new Journal(100, 1000);
    for (let i = 0; i < 10; i++) j.add(entry('x'.repeat(900)));
    expect(j.count).toBe(1);
    j.clear();
    expect([j.count, j.heldBytes, j.seen, j.list()]).toEqual([0, 0, 0, []]);
  });
});
