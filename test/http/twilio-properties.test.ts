import fc from 'fast-check';
import request from 'supertest';
import { byCalls, makeEmulator } from '../support/app';

/**
 * Generated queries of Twilio's calls list: whatever a client sends is a 200 or Twilio's 400
 * (never a 500), every answer fits Twilio's document (checked on every response), and a 200's
 * calls are exactly what the filters keep of the whole list, in its order, a page at a time.
 */
type Item = Record<string, any>;
const { app, world } = makeEmulator({ dialect: 'twilio' });
const acme = byCalls(world, 448);
const V = `/2010-04-01/Accounts/${acme.sid}/Calls.json`;
const get = (query: string) => request(app).get(`${V}?${query}`).auth(acme.sid, acme.token);
const DAY = 86_400_000;
const ms = (t: string | null) => (t === null ? Number.NaN : Date.parse(t));

let all: Item[];
beforeAll(async () => {
  all = (await get('PageSize=1000')).body.calls;
});

const STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled'];
/** A day within the data's span, as the libraries write it: a date, an instant, an offset. */
const time = fc
  .tuple(
    fc.integer({ min: 0, max: 400 }),
    fc.integer({ min: 0, max: DAY - 1 }),
    fc.constantFrom('date', 'Z', 'offset', 'zoneless', 'junk'),
  )
  .map(([d, t, form]) => {
    const at = Date.UTC(2025, 5, 2) - d * DAY * 0.1 - t;
    const iso = new Date(at - (at % 1000)).toISOString().replace('.000', '');
    if (form === 'date') return { text: iso.slice(0, 10), at, day: true };
    if (form === 'Z') return { text: iso, at, day: false };
    if (form === 'zoneless') return { text: iso.slice(0, 19), at, day: false };
    if (form === 'offset')
      return { text: `${new Date(at - (at % 1000) + 3600_000).toISOString().slice(0, 19)}+01:00`, at, day: false };
    return { text: 'last tuesday', at, day: false };
  });

/** What a filter keeps, written out from Twilio's rules (see docs/twilio.md). */
function keeps(name: string, t: { text: string; at: number; day: boolean }): (c: Item) => boolean {
  const field = name.startsWith('Start') ? 'start_time' : 'end_time';
  const second = t.at - (t.at % 1000);
  const dayStart = t.at - (t.at % DAY);
  if (name.endsWith('<')) return t.day ? (c) => ms(c[field]) < dayStart + DAY : (c) => ms(c[field]) <= second;
  if (name.endsWith('>')) return t.day ? (c) => ms(c[field]) >= dayStart : (c) => ms(c[field]) >= second;
  return (c) => ms(c[field]) >= dayStart && ms(c[field]) < dayStart + DAY;
}

test('generated filters and page sizes: 200 with exactly the kept calls in order, or a 400', async () => {
  const filter = fc.record(
    {
      status: fc.constantFrom(...STATUSES, 'done', 'COMPLETED'),
      to: fc.constantFrom('+15563261848', 'leopold21', '+1'),
      time: fc.tuple(fc.constantFrom('StartTime', 'StartTime<', 'StartTime>', 'EndTime', 'EndTime<', 'EndTime>'), time),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(filter, fc.integer({ min: -1, max: 1200 }), async (f, size) => {
      const params: [string, string][] = [];
      if (f.status !== undefined) params.push(['Status', f.status]);
      if (f.to !== undefined) params.push(['To', f.to]);
      if (f.time !== undefined) params.push([f.time[0], f.time[1].text]);
      params.push(['PageSize', String(size)]);
      const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      let res = await get(query);
      const valid =
        size >= 1 &&
        size <= 1000 &&
        (f.status === undefined || STATUSES.includes(f.status)) &&
        (f.time === undefined || f.time[1].text !== 'last tuesday');
      if (!valid) {
        expect([res.status, res.body.code]).toEqual([400, 20001]);
        return;
      }
      expect(res.status).toBe(200);
      let expected = all;
      if (f.status !== undefined) expected = expected.filter((c) => c.status === f.status);
      if (f.to !== undefined) expected = expected.filter((c) => c.to === f.to);
      if (f.time !== undefined) expected = expected.filter(keeps(f.time[0], f.time[1]));
      const served: string[] = [];
      for (let pages = 0; ; pages++) {
        expect(res.body.calls.length).toBeLessThanOrEqual(size);
        served.push(...res.body.calls.map((c: Item) => c.sid));
        if (res.body.next_page_uri === null) break;
        res = await request(app).get(res.body.next_page_uri).auth(acme.sid, acme.token);
        expect(pages).toBeLessThan(500);
      }
      expect(served).toEqual(expected.map((c) => c.sid));
    }),
    { numRuns: 120, seed: 51 },
  );
});

test('generated cursors: a token of the list is a page of it; anything else is 21481', async () => {
  const token = fc.oneof(
    fc.tuple(fc.constantFrom('PA', 'PB'), fc.integer({ min: 0, max: 447 })).map(([p, i]) => `${p}${all[i]?.sid}`),
    fc.constantFrom('PA', 'PACA', 'PX', `PA${'0'.repeat(34)}`, `PARE${'a'.repeat(32)}`, `PACA${'0'.repeat(32)}`),
  );
  await fc.assert(
    fc.asyncProperty(token, fc.integer({ min: 1, max: 60 }), async (t, size) => {
      const res = await get(`PageSize=${size}&Page=3&PageToken=${t}`);
      const at = all.findIndex((c) => t.endsWith(c.sid) && t.length === 36);
      if (at < 0) {
        expect([res.status, res.body.code]).toEqual([400, 21481]);
        return;
      }
      const sids = all.map((c) => c.sid);
      const want = t.startsWith('PA') ? sids.slice(at + 1, at + 1 + size) : sids.slice(Math.max(0, at - size), at);
      expect(res.body.calls.map((c: Item) => c.sid)).toEqual(want);
      expect(res.body.page).toBe(3);
    }),
    { numRuns: 150, seed: 52 },
  );
});
