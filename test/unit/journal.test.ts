import v8 from 'node:v8';
import vm from 'node:vm';
import { detailOf, entryOf } from '../../src/admin/journal-views';
import { BODY_BYTES, JOURNAL_BYTES, JOURNAL_TEXT_CHARS, Journal } from '../../src/journal/journal';

const entry = (query: string, warnings: string[] = [], account = 'AC1', status = 200, method = 'GET') => ({
  arrivedMs: Date.UTC(2025, 5, 1, 12),
  method,
  path: `/call/2012-04-24/Accounts/${account}/Calls.json`,
  query,
  account,
  status,
  duration_ms: 1,
  warnings,
  fault: null,
});

/** An entry's detail as the admin API shows it, or undefined. */
const view = (found: Parameters<typeof detailOf>[0] | undefined) => (found === undefined ? undefined : detailOf(found));

describe('Journal bounds', () => {
  test('a ring of `size` entries, newest first', () => {
    const j = new Journal(3);
    for (const q of ['a', 'b', 'c', 'd']) j.add(entry(q));
    expect(
      j
        .list()
        .map(entryOf)
        .map((e) => e.query),
    ).toEqual(['d', 'c', 'b']);
    expect([j.count, j.seen]).toEqual([3, 4]);
  });

  test('long texts are cut, and the entry says so; short ones are kept whole', () => {
    const j = new Journal(10);
    j.add(entry('x'.repeat(8192), ['w'.repeat(5000), ...Array.from({ length: 20 }, (_, i) => `w${i}`)]));
    j.add(entry('Page=1', ['AfterSid is ignored']));
    const [short, long] = j.list().map(entryOf);
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
    expect(j.count).toBeGreaterThan(9_000);
    expect(j.seen).toBe(60_000);
    expect(j.list({ limit: 1 }).map(entryOf)[0]?.id).toBe(60_000);
  });

  test('a small budget keeps at least the newest entry; clear empties it', () => {
    const j = new Journal(100, 1000);
    for (let i = 0; i < 10; i++) j.add(entry('x'.repeat(900)));
    expect(j.count).toBe(1);
    j.clear();
    expect([j.count, j.heldBytes, j.seen, j.list().map(entryOf)]).toEqual([0, 0, 0, []]);
  });
});

describe('Journal: each account keeps its own', () => {
  test("1,100 requests on sandbox B leave sandbox A's entries; B keeps its newest `size`", () => {
    const j = new Journal(1000);
    for (const q of ['a1', 'a2']) j.add(entry(q, [], 'ACa'));
    for (let i = 0; i < 1100; i++) j.add(entry(`b${i}`, [], 'ACb'));
    expect(
      j
        .list({ account: 'ACa' })
        .map(entryOf)
        .map((e) => e.query),
    ).toEqual(['a2', 'a1']);
    const b = j.list({ account: 'ACb' }).map(entryOf);
    expect([b.length, b[0]?.query, b.at(-1)?.query]).toEqual([1000, 'b1099', 'b100']);
    // Unfiltered, the newest first across accounts, still at most `size`.
    expect(
      j
        .list()
        .map((e) => e.query)
        .slice(0, 2),
    ).toEqual(['b1099', 'b1098']);
    expect(j.list().map(entryOf)).toHaveLength(1000);
    expect(j.count).toBe(1002);
  });

  test('past the byte budget, the account holding the most gives up its oldest, not a quiet one', () => {
    const j = new Journal(1000, 100_000);
    for (let i = 0; i < 5; i++) j.add(entry(`a${i}`, [], 'ACa'));
    for (let i = 0; i < 2000; i++) j.add(entry('x'.repeat(500), [], 'ACb'));
    expect(j.heldBytes).toBeLessThanOrEqual(100_000);
    expect(j.list({ account: 'ACa' }).map(entryOf)).toHaveLength(5);
    // A quiet account that was the larger one gives way once another needs the room.
    const k = new Journal(1000, 100_000);
    for (let i = 0; i < 100; i++) k.add(entry('y'.repeat(400), [], 'ACa'));
    for (let i = 0; i < 100; i++) k.add(entry('z'.repeat(400), [], 'ACb'));
    const [a, b] = [k.list({ account: 'ACa' }).length, k.list({ account: 'ACb' }).length];
    expect(k.heldBytes).toBeLessThanOrEqual(100_000);
    expect(Math.abs(a - b)).toBeLessThanOrEqual(1);
  });

  test('countMatching counts every entry held that passes, whatever the limit; method filters too', () => {
    const j = new Journal(100);
    for (const [status, method] of [
      [200, 'GET'],
      [429, 'GET'],
      [429, 'HEAD'],
      [500, 'GET'],
    ] as const) {
      j.add(entry('', [], 'ACa', status, method));
    }
    j.add(entry('', [], 'ACb', 429));
    expect(j.countMatching({ account: 'ACa', status: 429 })).toBe(2);
    expect(j.countMatching({ account: 'ACa', status: 429, method: 'GET' })).toBe(1);
    expect(j.countMatching({ status: 429, limit: 1 })).toBe(3);
    expect(
      j
        .list({ account: 'ACa', method: 'HEAD' })
        .map(entryOf)
        .map((e) => e.status),
    ).toEqual([429]);
    expect(j.list({ limit: 0 }).map(entryOf)).toEqual([]);
  });

  test("clearing one account's entries leaves the others, and ids go on", () => {
    const j = new Journal(100);
    j.add(entry('a', [], 'ACa'));
    j.add(entry('b', [], 'ACb'));
    j.clear('ACa');
    expect(
      j
        .list()
        .map(entryOf)
        .map((e) => e.query),
    ).toEqual(['b']);
    j.add(entry('c', [], 'ACa'));
    expect(j.list({ account: 'ACa' }).map(entryOf)[0]?.id).toBe(3);
    expect(view(j.detail(1))).toBeUndefined();
    expect(view(j.detail(2))?.query).toBe('b');
  });
});

describe('Journal: what it counts is what it holds', () => {
  // Runtime access to the collector, to measure what the entries really keep alive.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;

  test('entries cut from 100 KB request lines hold about what the budget counts, not the lines', () => {
    const budget = 4 * 1024 * 1024;
    const j = new Journal(100_000, budget);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 3000; i++) {
      // A fresh request line each time, as node gives one a request: path and query are slices of it.
      const line = `/call/2012-04-24/Accounts/AC${i}/Calls.json?${'q'.repeat(100_000)}${i}`;
      const at = line.indexOf('?');
      j.add({
        ...entry(line.slice(at + 1), [`Parameter ${line.slice(at + 1, at + 200)} is ignored`]),
        path: line.slice(0, at),
      });
    }
    gc();
    const held = process.memoryUsage().heapUsed - before;
    expect(j.heldBytes).toBeLessThanOrEqual(budget);
    // Within a few times the budget (the entries' objects, the maps), never the 300 MB of lines.
    expect(held).toBeLessThan(4 * budget);
  });

  test('15,000 requests with 8 KB queries or headers: the account sid and the headers do not hold the request line', () => {
    const budget = 8 * 1024 * 1024;
    const j = new Journal(100_000, budget);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 15_000; i++) {
      // As a route reads them: the sid, the path and the query are slices of one request line.
      const line = `/call/2012-04-24/Accounts/ACd8dd7d80798ecf306df57fed76428467/Calls.json?x${i}=${'a'.repeat(8000)}`;
      const at = line.indexOf('?');
      const header = Buffer.from(`${'h'.repeat(8000)}${i}`).toString('latin1');
      j.add({
        ...entry(line.slice(at + 1), [], line.slice(26, 60)),
        path: line.slice(0, at),
        requestHeaders: ['Host', 'localhost', 'X-Pad', header],
      });
    }
    gc();
    const held = process.memoryUsage().heapUsed - before;
    expect(j.heldBytes).toBeLessThanOrEqual(budget);
    expect(j.count).toBeGreaterThan(1000);
    // What it counts, and a half: it held six times its budget with the sid a slice of the line.
    expect({ held: Math.round(held / 2 ** 20), within: held <= 1.5 * budget }).toEqual({
      held: Math.round(held / 2 ** 20),
      within: true,
    });
    const [newest] = j.list({ limit: 1 }).map(entryOf);
    expect(newest?.account).toBe('ACd8dd7d80798ecf306df57fed76428467');
    expect(newest?.truncated).toBe(true);
  });

  test('a page built for its request is held as a copy of its head, not whole; a cached page (alive anyway) by reference', async () => {
    const j = new Journal(10);
    // Made and handed over in a function of their own, so that nothing here holds them after.
    const [fresh, cached] = ((): WeakRef<Buffer>[] => {
      const built = Buffer.alloc(200_000, 'a');
      const kept = Buffer.alloc(200_000, 'b');
      j.add({ ...entry('Page=0'), body: built });
      j.add({ ...entry('Page=1'), body: kept, bodyShared: true });
      return [new WeakRef(built), new WeakRef(kept)];
    })();
    // A WeakRef holds its target until the job that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect({ built: fresh?.deref() === undefined, cached: cached?.deref() === undefined }).toEqual({
      built: true,
      cached: false,
    });
    const [one, zero] = j.list().map(entryOf);
    for (const [e, c] of [
      [zero, 'a'],
      [one, 'b'],
    ] as const)
      expect(view(j.detail(e?.id ?? 0))).toMatchObject({
        response_body: c.repeat(BODY_BYTES),
        response_body_truncated: true,
      });
  });
});
