import { messages } from '../../src/errors';
import { RECORDING_LIST } from '../../src/query/list-specs';
import { allItems, authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

const { app, world } = makeEmulator();
const big = byCalls(world, 448);
type Item = Record<string, any>;

/**
 * Production's database collation (MariaDB's default, case- and accent-insensitive, trailing
 * spaces ignored), written out here: texts compare by their upper-case, accent-free form, by
 * code unit; never by locale.
 */
const ci = (t: string) => t.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/ +$/, '');
const cmp = (a: string | number, b: string | number) => {
  const [x, y] = typeof a === 'string' && typeof b === 'string' ? [ci(a), ci(b)] : [a, b];
  return x < y ? -1 : x > y ? 1 : 0;
};
const created = (x: Item) => Date.parse(x.date_created as string);

/**
 * Checks a whole list against the rule: by `key` in `dir`, ties by date_created descending.
 * Returns how many adjacent pairs tied on the key, so tests can show ties were exercised.
 */
function expectSorted(items: Item[], key: (x: Item) => string | number, dir: 'asc' | 'desc'): number {
  let ties = 0;
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    const c = cmp(key(a), key(b)) * (dir === 'asc' ? 1 : -1);
    expect(c).toBeLessThanOrEqual(0);
    if (c === 0) {
      ties++;
      expect(created(a)).toBeGreaterThan(created(b));
    }
  }
  return ties;
}

const callKeys: Record<string, (x: Item) => string | number> = {
  From: (x) => x.from,
  To: (x) => x.to,
  Direction: (x) => x.direction,
  Status: (x) => x.status,
  // A duration production never wrote (outbound NO_ANSWER, FAILED) is NULL: first in ascending order.
  Duration: (x) => x.duration ?? -1,
};

describe('SortBy on calls', () => {
  test.each(
    Object.keys(callKeys).flatMap((a) => [
      [a, 'asc'],
      [a, 'desc'],
    ]),
  )('%s:%s', async (attr, dir) => {
    const items = await allItems(app, callsPath(big.sid), big.token, 'calls', `&SortBy=${attr}:${dir}`, 100);
    expect(items).toHaveLength(448);
    const ties = expectSorted(items, callKeys[attr]!, dir as 'asc' | 'desc');
    if (attr === 'Direction' || attr === 'Status') expect(ties).toBeGreaterThan(100);
    if (attr === 'Duration') expect(items.filter((x) => x.duration === undefined).length).toBeGreaterThan(0);
  });

  test('no direction means ascending; the direction is case-insensitive', async () => {
    const plain = await authGet(app, `${callsPath(big.sid)}?SortBy=From&PageSize=448`, big.token);
    const asc = await authGet(app, `${callsPath(big.sid)}?SortBy=From:ASC&PageSize=448`, big.token);
    expect(plain.text).toBe(asc.text);
    expectSorted(plain.body.calls, callKeys.From!, 'asc');
  });

  test('strings compare as MariaDB\'s case-insensitive collation: "+" before digits before letters, either case together', async () => {
    const items = await allItems(app, callsPath(big.sid), big.token, 'calls', '&SortBy=From:asc');
    const firstChars = items.map((c) => (c.from as string)[0]!);
    const classes = firstChars.map((ch) => (ch === '+' ? 0 : /[0-9]/.test(ch) ? 1 : 2));
    for (let i = 1; i < classes.length; i++) expect(classes[i]!).toBeGreaterThanOrEqual(classes[i - 1]!);
    expect(new Set(classes).size).toBe(3);
    // Upper- and lower-case initials interleave: 'Anonymous' among the a's, not before them all.
    const letters = firstChars.filter((ch) => /[A-Za-z]/.test(ch));
    const caseChanges = letters.filter((ch, i) => i > 0 && /[A-Z]/.test(ch) !== /[A-Z]/.test(letters[i - 1]!));
    expect(caseChanges.length).toBeGreaterThanOrEqual(2);
  });

  test('DateCreated: ascending is the exact reverse of the default; desc equals the default', async () => {
    const def = await allItems(app, callsPath(big.sid), big.token, 'calls');
    const asc = await allItems(app, callsPath(big.sid), big.token, 'calls', '&SortBy=DateCreated:asc');
    const desc = await allItems(app, callsPath(big.sid), big.token, 'calls', '&SortBy=DateCreated:desc');
    expect(asc.map((c) => c.sid)).toEqual([...def].reverse().map((c) => c.sid));
    expect(desc.map((c) => c.sid)).toEqual(def.map((c) => c.sid));
  });

  test('Price sorts by the integer part of a price never shown; ties fall back to date_created desc', async () => {
    // The price is not on the wire, so read it from the store by sid.
    const priceInt = new Map<string, number>();
    for (let i = 0; i < big.store.calls.count; i++) {
      const c = big.store.calls.get(i);
      priceInt.set(c.sid, c.priceInt);
    }
    for (const dir of ['asc', 'desc'] as const) {
      const items = await allItems(app, callsPath(big.sid), big.token, 'calls', `&SortBy=Price:${dir}`);
      for (const c of items) expect(c).not.toHaveProperty('price');
      const ties = expectSorted(items, (x) => priceInt.get(x.sid as string)!, dir);
      expect(ties).toBeGreaterThan(400);
    }
    expect(new Set(priceInt.values()).size).toBeGreaterThan(1);
  });

  test.each([
    [':asc', messages.sortMissingField],
    ['DateCreated:invalid', messages.sortBadDirection],
    ['DateCreated:', messages.sortBadDirection],
    ['DateCreated:asc:x', messages.sortBadDirection],
  ])('SortBy=%s → 400 with production message', async (value, message) => {
    const res = await authGet(app, `${callsPath(big.sid)}?SortBy=${encodeURIComponent(value)}`, big.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  test.each(['date_created', 'Foo', 'from:desc', ''])(
    'SortBy=%s is ignored: default order, 200, a warning',
    async (value) => {
      const def = await authGet(app, callsPath(big.sid), big.token);
      const res = await authGet(app, `${callsPath(big.sid)}?SortBy=${encodeURIComponent(value)}`, big.token);
      expect(res.status).toBe(200);
      expect(res.text).toBe(def.text);
      expect(res.headers['x-emulator-warning']).toBeDefined();
    },
  );

  test('sorted pages are slices of one order: walking pages of 7 gives the same list as one page', async () => {
    const whole = await authGet(app, `${callsPath(big.sid)}?SortBy=To:desc&PageSize=448`, big.token);
    const walked = await allItems(app, callsPath(big.sid), big.token, 'calls', '&SortBy=To:desc', 7);
    expect(walked.map((c) => c.sid)).toEqual((whole.body.calls as Item[]).map((c) => c.sid));
  });
});

describe('SortBy on recordings', () => {
  test.each([
    ['Duration', (x: Item) => Number(x.duration)],
    ['CallSid', (x: Item) => x.call_sid as string],
  ] as const)('%s asc and desc', async (attr, key) => {
    for (const dir of ['asc', 'desc'] as const) {
      const items = await allItems(app, recordingsPath(big.sid), big.token, 'recordings', `&SortBy=${attr}:${dir}`, 30);
      expect(items).toHaveLength(160);
      expectSorted(items, key, dir);
    }
  });

  test('DateCreated ascending is the reverse of the default', async () => {
    const def = await allItems(app, recordingsPath(big.sid), big.token, 'recordings');
    const asc = await allItems(app, recordingsPath(big.sid), big.token, 'recordings', '&SortBy=DateCreated');
    expect(asc.map((r) => r.sid)).toEqual([...def].reverse().map((r) => r.sid));
  });

  test('call attributes are ignored on recordings; syntax errors are still 400', async () => {
    const def = await authGet(app, recordingsPath(big.sid), big.token);
    const from = await authGet(app, `${recordingsPath(big.sid)}?SortBy=From:desc`, big.token);
    expect(from.text).toBe(def.text);
    const bad = await authGet(app, `${recordingsPath(big.sid)}?SortBy=Duration:sideways`, big.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: messages.sortBadDirection });
  });
});

describe("Reverse, as production's calls list reads it for its old console", () => {
  const strict = makeEmulator({ strict: true });
  const strictBig = byCalls(strict.world, 448);
  const page = (query: string, em = app, a = big) => authGet(em, `${callsPath(a.sid)}?PageSize=20&${query}`, a.token);

  test.each([
    ['Reverse=false', 'SortBy=DateCreated:asc'],
    ['Reverse=True', 'SortBy=DateCreated:desc'],
    ['Reverse=true', ''],
    ['Reverse=false&SortBy=From', 'SortBy=From'],
  ])('%s answers as %s, with no warning, under --strict too', async (query, same) => {
    const got = await page(query);
    expect(got.status).toBe(200);
    expect(got.text).toBe((await page(same)).text);
    expect(got.headers['x-emulator-warning']).toBeUndefined();
    const strictGot = await page(query, strict.app, strictBig);
    expect(strictGot.status).toBe(200);
  });

  test('the recordings list does not read it: a warning, and the default order', async () => {
    const got = await authGet(app, `${recordingsPath(big.sid)}?Reverse=false`, big.token);
    expect(got.status).toBe(200);
    const reads = ['Page', 'PageSize', 'SortBy', 'AfterSid', 'SubAccounts', ...Object.keys(RECORDING_LIST.filters)];
    expect(got.headers['x-emulator-warning']).toBe(messages.unknownParameter('Reverse', reads));
    expect(got.text).toBe((await authGet(app, recordingsPath(big.sid), big.token)).text);
  });
});
