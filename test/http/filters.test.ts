import { messages } from '../../src/errors';
import { CALL_KIND } from '../../src/store/calls';
import { allItems, authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

type Item = Record<string, any>;
const { app, world } = makeEmulator();
const big = byCalls(world, 448);

describe('filtered lists', () => {
  let all: Item[];
  beforeAll(async () => {
    all = await allItems(app, callsPath(big.sid), big.token, 'calls');
  });

  test('Status: total, pages and items count the filtered list; links carry no filter', async () => {
    // LIKE in any case, as on MariaDB: inbound `busy` and outbound `BUSY` alike.
    const busy = all.filter((c) => c.status.toLowerCase() === 'busy');
    expect(busy.length).toBeGreaterThan(3);
    expect(new Set(busy.map((c) => c.status))).toEqual(new Set(['busy', 'BUSY']));
    const res = await authGet(app, `${callsPath(big.sid)}?Status=busy&PageSize=2`, big.token);
    expect(res.body).toMatchObject({ total: busy.length, num_pages: Math.floor(busy.length / 2), page_size: 2 });
    expect(res.body.calls.map((c: Item) => c.sid)).toEqual(busy.slice(0, 2).map((c) => c.sid));
    expect(res.body.next_page_uri).not.toContain('Status');
    const walked = await allItems(app, callsPath(big.sid), big.token, 'calls', '&Status=busy', 3);
    expect(walked.map((c) => c.sid)).toEqual(busy.map((c) => c.sid));
  });

  test("From as a suffix, or with the client's own %", async () => {
    const target = all.find((c) => /^\+1\d{10}$/.test(c.from))!.from as string;
    const suffix = target.slice(-4);
    const bySuffix = await allItems(app, callsPath(big.sid), big.token, 'calls', `&From=${encodeURIComponent(suffix)}`);
    expect(bySuffix.map((c) => c.sid)).toEqual(
      all.filter((c) => (c.from as string).endsWith(suffix)).map((c) => c.sid),
    );
    const middle = target.slice(2, 6);
    const byLike = await allItems(
      app,
      callsPath(big.sid),
      big.token,
      'calls',
      `&From=${encodeURIComponent(`${middle}%`)}`,
    );
    expect(byLike.map((c) => c.sid)).toEqual(all.filter((c) => (c.from as string).includes(middle)).map((c) => c.sid));
    expect(byLike.length).toBeGreaterThan(0);
  });

  test('StartTime and EndTime by day, combined with SortBy and each other', async () => {
    const day = (all[100]!.start_time as string).slice(0, 10);
    const start = Date.parse(`${day}T00:00:00Z`);
    const end = start + 86_400_000;
    const q = `&StartTime=${day}&EndTime=${day}%2012:00:00&SortBy=Duration:desc`;
    const got = await allItems(app, callsPath(big.sid), big.token, 'calls', q);
    const expected = all
      .filter((c) => Date.parse(c.start_time) >= start && Date.parse(c.end_time) <= end)
      .sort((a, b) => b.duration - a.duration || Date.parse(b.date_created) - Date.parse(a.date_created));
    expect(got.map((c) => c.sid)).toEqual(expected.map((c) => c.sid));
    expect(got.length).toBeGreaterThan(0);
  });

  test.each([
    ['+09:00', 9 * 3600_000],
    ['America/New_York', -4 * 3600_000],
  ])(
    '--server-zone %s: the days of StartTime and EndTime are its days, as in a JVM in that zone',
    async (zone, offset) => {
      const zoned = makeEmulator({ serverZone: zone });
      const day = (all[100]!.start_time as string).slice(0, 10);
      const start = Date.parse(`${day}T00:00:00Z`) - offset;
      const end = start + 86_400_000;
      const got = await allItems(zoned.app, callsPath(big.sid), big.token, 'calls', `&StartTime=${day}&EndTime=${day}`);
      const expected = all.filter((c) => Date.parse(c.start_time) >= start && Date.parse(c.end_time) <= end);
      expect(got.map((c) => c.sid)).toEqual(expected.map((c) => c.sid));
      // The zone moved the window: the same query in UTC keeps other calls.
      const utc = await allItems(app, callsPath(big.sid), big.token, 'calls', `&StartTime=${day}&EndTime=${day}`);
      expect(utc.map((c) => c.sid)).not.toEqual(got.map((c) => c.sid));
    },
  );

  test('ParentCallSid gives an empty list; a bad date a 400', async () => {
    const res = await authGet(app, `${callsPath(big.sid)}?ParentCallSid=${encodeURIComponent('%')}`, big.token);
    expect(res.body).toMatchObject({ total: 0, calls: [] });
    const bad = await authGet(app, `${callsPath(big.sid)}?StartTime=yesterday`, big.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: messages.badDay('StartTime', 'yesterday') });
    const lower = await authGet(app, `${callsPath(big.sid)}?status=busy`, big.token);
    expect(lower.body.total).toBe(448);
    expect(lower.headers['x-emulator-warning']).toContain('did you mean Status?');
  });

  test('recordings: CallSid, and days on date_created', async () => {
    const recs = await allItems(app, recordingsPath(big.sid), big.token, 'recordings');
    const callSid = recs[0]!.call_sid as string;
    const byCall = await allItems(app, recordingsPath(big.sid), big.token, 'recordings', `&CallSid=${callSid}`);
    expect(byCall.map((r) => r.sid)).toEqual(recs.filter((r) => r.call_sid === callSid).map((r) => r.sid));
    const day = new Date(Date.parse(recs[20]!.date_created as string)).toISOString().slice(0, 10);
    const start = Date.parse(`${day}T00:00:00Z`);
    const since = await allItems(app, recordingsPath(big.sid), big.token, 'recordings', `&StartTime=${day}`);
    expect(since.map((r) => r.sid)).toEqual(
      recs.filter((r) => Date.parse(r.date_created as string) >= start).map((r) => r.sid),
    );
  });

  test('the filtered order is built once and paged as slices', async () => {
    // No runs: a second ask would read every item once to join them (caches.test.ts covers that).
    const em = makeEmulator({ cache: { runBytes: 0 } });
    const a = byCalls(em.world, 448);
    const table = a.store.calls;
    // The seeded calls are scanned once, in their lean form (CALL_KIND.keep); a page reads its
    // items through a snapshot of the table.
    const keep = jest.spyOn(CALL_KIND, 'keep');
    const snapshot = table.snapshot.bind(table);
    let reads = 0;
    jest.spyOn(table, 'snapshot').mockImplementation(() => {
      const get = snapshot();
      return (id: number) => {
        reads++;
        return get(id);
      };
    });
    await authGet(em.app, `${callsPath(a.sid)}?Status=completed&PageSize=10`, a.token);
    expect(keep).toHaveBeenCalledTimes(1);
    expect(keep.mock.calls[0]?.[2]).toBe(448);
    reads = 0;
    await authGet(em.app, `${callsPath(a.sid)}?Status=completed&PageSize=10&Page=3`, a.token);
    // A later page reads its items (and the next link's sid), no rescan.
    expect(keep).toHaveBeenCalledTimes(1);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(11);
    keep.mockRestore();
  });
});
