import request from 'supertest';
import { problems } from '../../src/errors';
import { MERGE_LIMIT, SCAN_LIMIT } from '../../src/store/table';
import { byCalls, makeEmulator } from '../support/app';

type Item = Record<string, any>;
const LIVE = { friendlyName: 'Live', calls: 300, recordings: 40, traffic: { callsPerHour: 120 } };
const QUIET = { friendlyName: 'Quiet', calls: 300, recordings: 40 };
const move = (app: Parameters<typeof request>[0], advance: string | number) =>
  request(app).post('/__admin/clock').type('json').send(JSON.stringify({ advance }));

function setup() {
  const em = makeEmulator({ accounts: [LIVE, QUIET] });
  const live = em.world.accounts()[0]!;
  const list = async (query = '', account = live) =>
    (
      await request(em.app)
        .get(`/call/2012-04-24/Accounts/${account.profile.sid}/Calls.json?${query}`)
        .auth(account.profile.token, '')
    ).body as Item;
  return { ...em, live, list };
}

describe('live traffic', () => {
  test('none before the clock moves: the seeded list, byte for byte that of an account without traffic', async () => {
    const { list } = setup();
    const quietEm = makeEmulator({ accounts: [{ ...LIVE, traffic: undefined }] });
    const q = byCalls(quietEm.world, 300);
    const quiet = await request(quietEm.app)
      .get(`/call/2012-04-24/Accounts/${q.sid}/Calls.json?PageSize=300`)
      .auth(q.token, '');
    expect(JSON.stringify(await list('PageSize=300'))).toBe(quiet.text);
  });

  test.each([
    ['PT1M', 1, 3],
    ['PT1H', 110, 130],
    ['P1D', 2800, 2960],
  ])('after %s, about 120 an hour have arrived, newest first, all after the start', async (advance, lo, hi) => {
    const { app, list } = setup();
    await move(app, advance);
    const page = await list('PageSize=1000');
    const arrived = page.total - 300;
    expect(arrived).toBeGreaterThanOrEqual(lo);
    expect(arrived).toBeLessThanOrEqual(hi);
    const times = (page.calls as Item[]).map((c) => Date.parse(c['date_created']));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const start = Date.parse('2025-06-01T12:00:00Z');
    expect(times.slice(0, Math.min(arrived, 1000)).every((t) => t > start)).toBe(true);
  });

  test('a call in the list at one clock is the same call later, its state moved on; the quiet account never changes', async () => {
    const { app, list, world } = setup();
    const quiet = world.accounts()[1]!;
    const quietBefore = JSON.stringify(await list('PageSize=300', quiet));
    await move(app, 'PT10M');
    const early = (await list('PageSize=50')).calls as Item[];
    await move(app, 'PT6H');
    const later = (await list('PageSize=1000')).calls as Item[];
    for (const c of early) {
      const now = later.find((x) => x['sid'] === c['sid'])!;
      expect(now['date_created']).toBe(c['date_created']);
      if (['queued', 'ringing', 'in-progress'].includes(c['status'].toLowerCase())) {
        expect(c['end_time']).toBeUndefined();
        expect(c['duration']).toBeUndefined();
      }
      // Six hours on, every call of ten minutes in has ended (the longest lasts four hours), in
      // production's spelling: an outbound call's enum name but for completed and canceled.
      const finals =
        c['direction'] === 'inbound'
          ? ['completed', 'busy', 'no-answer', 'failed', 'canceled']
          : ['completed', 'BUSY', 'NO_ANSWER', 'FAILED', 'NOT_FOUND', 'canceled'];
      expect(finals).toContain(now['status']);
      expect(now['date_updated']).toBeDefined();
    }
    expect(JSON.stringify(await list('PageSize=300', quiet))).toBe(quietBefore);
  });

  test('status sorts and filters by its present value; EndTime leaves out calls not ended', async () => {
    const { app, list } = setup();
    await move(app, 'PT2H');
    const all = (await list('PageSize=1000')).calls as Item[];
    const live = all.filter((c) => c['end_time'] === undefined);
    for (const status of ['in-progress', 'completed', 'ringing', 'QUEUED']) {
      // LIKE in any case: `ringing` keeps the inbound `ringing` and the outbound `RINGING`.
      const filtered = await list(`Status=${status}&PageSize=1000`);
      expect(filtered.total).toBe(all.filter((c) => c['status'].toLowerCase() === status.toLowerCase()).length);
    }
    const sorted = ((await list('SortBy=Status:asc&PageSize=1000')).calls as Item[]).map((c) => c['status']);
    // Under production's case-insensitive collation: BUSY and busy are one status to the sort.
    const ci = (t: string) => t.toUpperCase();
    expect(sorted.map(ci)).toEqual([...sorted].map(ci).sort());
    expect(new Set(sorted.map(ci)).size).toBeLessThan(new Set(sorted).size);
    const ended = await list('EndTime=2025-06-30&PageSize=1000');
    expect(ended.total).toBe(all.length - live.length);
  });

  test('a traffic call is found by sid once it has arrived, and can be deleted; a reset brings back the quiet start', async () => {
    const { app, list, live } = setup();
    await move(app, 'PT30M');
    const [first] = (await list('PageSize=1')).calls as Item[];
    const path = `/call/2012-04-24/Accounts/${live.profile.sid}/Calls/${first!['sid']}.json`;
    expect((await request(app).get(path).auth(live.profile.token, '')).body).toEqual(first);
    const total = (await list()).total;
    expect((await request(app).delete(`/__admin/accounts/${live.profile.sid}/calls/${first!['sid']}`)).status).toBe(
      200,
    );
    expect((await list()).total).toBe(total - 1);
    expect((await request(app).get(path).auth(live.profile.token, '')).status).toBe(404);
    await request(app).post('/__admin/reset').type('json');
    expect((await list()).total).toBe(300);
    expect((await request(app).get(path).auth(live.profile.token, '')).status).toBe(404);
  });

  test('the same bytes whatever the steps: 1 h twice or 2 h once, and after an export and import', async () => {
    const run = async (steps: string[]) => {
      const em = setup();
      for (const step of steps) await move(em.app, step);
      const recs = await request(em.app)
        .get(`/call/2012-04-24/Accounts/${em.live.profile.sid}/Recordings.json?PageSize=400`)
        .auth(em.live.profile.token, '');
      return JSON.stringify(await em.list('PageSize=400&SortBy=Duration:desc')) + recs.text;
    };
    const once = await run(['PT2H']);
    expect(await run(['PT1H', 'PT1H'])).toBe(once);
    expect(await run(['PT7M', 'PT53M', 'PT1H'])).toBe(once);
    const one = setup();
    await move(one.app, 'PT2H');
    const state = (await request(one.app).get('/__admin/state')).text;
    expect(JSON.parse(state).fixtures.accounts[0].traffic).toEqual({ calls_per_hour: 120 });
    const two = makeEmulator({ accounts: [QUIET] });
    expect((await request(two.app).put('/__admin/state').type('json').send(state)).status).toBe(200);
    const a = two.world.accounts()[0]!;
    const imported = await request(two.app)
      .get(`/call/2012-04-24/Accounts/${a.profile.sid}/Calls.json?PageSize=400&SortBy=Duration:desc`)
      .auth(a.profile.token, '');
    const importedRecs = await request(two.app)
      .get(`/call/2012-04-24/Accounts/${a.profile.sid}/Recordings.json?PageSize=400`)
      .auth(a.profile.token, '');
    expect(imported.text + importedRecs.text).toBe(once);
  });

  test('offset paging over a growing list repeats an item, as production does: a call arriving between pages shifts the order', async () => {
    const { app, list } = setup();
    await move(app, 'PT1H');
    const first = await list('PageSize=10');
    // Forward to the next arrival exactly: one new call heads the list.
    let before = first.total;
    while ((await list()).total === before) await move(app, 1);
    before = first.total;
    const second = await list('Page=1&PageSize=10');
    expect(second.total).toBe(before + 1);
    expect(second.calls[0].sid).toBe(first.calls[9].sid);
  });

  test('a recording appears 5 to 120 s after its call ends, dated then, at the head of the list: before that it is in no list and its audio is a 404', async () => {
    const { app, live } = setup();
    const base = `/call/2012-04-24/Accounts/${live.profile.sid}`;
    const get = (path: string) => request(app).get(`${base}${path}`).auth(live.profile.token, '');
    await move(app, 'PT8H');
    const recs = (await get('/Recordings.json?PageSize=1000')).body.recordings as Item[];
    const traffic = recs.filter((r) => Date.parse(r['date_created']) > Date.parse('2025-06-01T12:00:00Z'));
    expect(traffic.length).toBeGreaterThan(100);
    // Replay the first few from the start: the moment each call ends, and each second after.
    for (const rec of traffic.slice(-5)) {
      const em = setup();
      const at = (path: string) => request(em.app).get(`${base}${path}`).auth(live.profile.token, '');
      const to = (ms: number) =>
        request(em.app)
          .post('/__admin/clock')
          .type('json')
          .send(JSON.stringify({ to: new Date(ms).toISOString() }));
      // Not arrived yet at the start: its call is not found.
      expect((await at(`/Calls/${rec['call_sid']}.json`)).status).toBe(404);
      // A second before its call ends: talking, and no recording yet.
      const final = (await get(`/Calls/${rec['call_sid']}.json`)).body;
      await to(Date.parse(final.end_time) - 1000);
      expect((await at(`/Calls/${rec['call_sid']}.json`)).body.status).toBe('in-progress');
      expect((await at(`/Calls/${rec['call_sid']}/Recordings.json`)).body).toEqual([]);
      expect((await request(em.app).get(`${base}/Recordings/${rec['sid']}.wav`)).status).toBe(404);
      const endSec = Math.floor(Date.parse((await get(`/Calls/${rec['call_sid']}.json`)).body.end_time) / 1000);
      let appeared = -1;
      for (let dt = 0; dt <= 125 && appeared < 0; dt++) {
        await to((endSec + dt) * 1000);
        if ((await at(`/Recordings/${rec['sid']}.json`)).status === 200) appeared = dt;
      }
      expect(appeared).toBeGreaterThanOrEqual(5);
      expect(appeared).toBeLessThanOrEqual(120);
      // Its date_created is the moment it appeared: the row is written then, at the list's head.
      expect(Date.parse(rec['date_created']) / 1000).toBe(endSec + appeared);
      const head = (await at('/Recordings.json?PageSize=1')).body.recordings[0];
      expect(head.sid).toBe(rec['sid']);
      expect((await at(`/Calls/${rec['call_sid']}/Recordings.json`)).body).toEqual([rec]);
      expect((await request(em.app).get(`${base}/Recordings/${rec['sid']}.wav`)).status).toBe(200);
    }
  });

  test.each([[0], [-1], [3601], ['120']])('traffic of %j calls an hour is refused', async (rate) => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/__admin/accounts')
      .type('json')
      .send(JSON.stringify({ friendly_name: 'X', traffic: { calls_per_hour: rate } }));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(problems.trafficRate);
  });

  test('after ten years at one call a second, an order that would merge or a filter that would scan them all is a clear 400, and the creation orders answer', async () => {
    const em = makeEmulator({ accounts: [{ ...LIVE, traffic: { callsPerHour: 3600 } }] });
    const a = em.world.accounts()[0]!;
    await move(em.app, 'P3650D');
    const get = (list: string, query: string) =>
      request(em.app).get(`/call/2012-04-24/Accounts/${a.profile.sid}/${list}.json?${query}`).auth(a.profile.token, '');
    const calls = (await get('Calls', 'PageSize=1')).body.total as number;
    const recordings = (await get('Recordings', 'PageSize=1')).body.total as number;
    expect(calls - 300).toBeGreaterThan(MERGE_LIMIT);
    const cases: [string, string, string][] = [
      ['Calls', 'SortBy=From', problems.mergeTooLarge(calls - 300, MERGE_LIMIT)],
      ['Recordings', 'SortBy=Duration', problems.mergeTooLarge(recordings - 40, MERGE_LIMIT)],
      ['Calls', 'Status=completed', problems.scanTooLarge(calls, SCAN_LIMIT)],
      ['Recordings', 'StartTime=2030-01-01', problems.scanTooLarge(recordings, SCAN_LIMIT)],
    ];
    for (const [list, query, message] of cases) {
      const res = await get(list, query);
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 400, body: { message } });
    }
    for (const query of ['SortBy=DateCreated:asc&PageSize=5', 'PageSize=5&Page=1000000']) {
      expect((await get('Recordings', query)).status).toBe(200);
      expect((await get('Calls', query)).status).toBe(200);
    }
  });
});
