import request from 'supertest';
import { makeEmulator } from '../support/app';

type Item = Record<string, any>;
const LIVE = { friendlyName: 'Live', calls: 300, recordings: 40, traffic: { callsPerHour: 120 } };
const QUIET = { friendlyName: 'Quiet', calls: 95, recordings: 10 };

function setup() {
  const em = makeEmulator({ accounts: [LIVE, QUIET] });
  const [live, quiet] = em.world.accounts() as [any, any];
  const page = async (account: any, page: number, size: number, password = '', extra = '') =>
    (
      await request(em.app)
        .get(`/call/2012-04-24/Accounts/${account.profile.sid}/Calls.json?Page=${page}&PageSize=${size}${extra}`)
        .auth(account.profile.token, password)
    ).body as Item;
  const move = (body: unknown) => request(em.app).post('/__admin/clock').type('json').send(JSON.stringify(body));
  const walks = async (account?: string) =>
    (await request(em.app).get(`/__admin/walks${account === undefined ? '' : `?account=${account}`}`)).body
      .walks as Item[];
  return { ...em, live, quiet, page, move, walks };
}

describe('/__admin/walks: each client walk over a list, from the journal', () => {
  test('a call arriving mid-walk shifts offset paging: one duplicate, nothing missed', async () => {
    const { live, page, move, walks } = setup();
    await move({ advance: 'PT1H' });
    let p = await page(live, 0, 10);
    // Forward to the next arrival: it heads the list and pushes every page down one.
    const total = p.total;
    while ((await page(live, 0, 1, 'probe')).total === total) await move({ advance: 1 });
    for (let n = 1; p.next_page_uri !== 'null'; n++) p = await page(live, n, 10);
    const [walk] = (await walks(live.profile.sid)).filter((w) => w.pages > 1);
    expect(walk).toMatchObject({ list: 'calls', first_page: 0, complete: true, missed: [] });
    expect(walk!.duplicates).toHaveLength(1);
    expect(walk!.causes).toEqual({ [walk!.duplicates[0]]: 'offset_repeat' });
    expect(walk!.items_served).toBe(total + 1);
  });

  test('a call deleted mid-walk shifts the other way: one missed, named', async () => {
    const { app, quiet, page, walks } = setup();
    const p0 = await page(quiet, 0, 10);
    const p1Before = (await page(quiet, 1, 10, 'peek')).calls as Item[];
    await request(app).delete(`/__admin/accounts/${quiet.profile.sid}/calls/${p0.calls[2].sid}`);
    let p = p0;
    for (let n = 1; p.next_page_uri !== 'null'; n++) p = await page(quiet, n, 10);
    const walk = (await walks(quiet.profile.sid)).find((w) => w.pages > 2)!;
    expect(walk).toMatchObject({ complete: true, duplicates: [], missed: [p1Before[0]!['sid']] });
    expect(walk.causes).toEqual({ [p1Before[0]!['sid']]: 'deletion' });
  });

  test('a back-dated insert made after the first page is not missed by the walk; the sync names it an arrival', async () => {
    const { app, quiet, page, walks } = setup();
    const first = await page(quiet, 0, 10);
    let p = await page(quiet, 1, 10);
    // Dated between the first page's items: it lands on a page the walk has read.
    const dated = new Date(Date.parse(first.calls[5].date_created) - 1000).toUTCString().replace('GMT', '+0000');
    const res = await request(app)
      .post(`/__admin/accounts/${quiet.profile.sid}/calls`)
      .type('json')
      .send(JSON.stringify([{ date_created: dated, status: 'completed', duration: 10 }]));
    expect(res.status).toBe(201);
    const [inserted] = res.body as Item[];
    for (let n = 2; p.next_page_uri !== 'null'; n++) p = await page(quiet, n, 10);
    const [walk] = await walks(quiet.profile.sid);
    expect(walk).toMatchObject({ complete: true, missed: [], missed_count: 0 });
    // A second walk that stops at its first page: together they are a sync, which never saw it.
    await page(quiet, 0, 5);
    const { syncs } = (await request(app).get(`/__admin/walks?account=${quiet.profile.sid}`)).body;
    expect(syncs).toHaveLength(1);
    expect(syncs[0]).toMatchObject({ walks: 2, missed: [inserted!['sid']], missed_count: 1 });
    expect(syncs[0].causes).toEqual({ [inserted!['sid']]: 'arrival' });
  });

  test('a walk that stops short misses nothing past the last record it was served', async () => {
    const { quiet, page, walks } = setup();
    await page(quiet, 0, 10);
    await page(quiet, 1, 10);
    const [walk] = await walks(quiet.profile.sid);
    expect(walk).toMatchObject({ complete: false, pages: 2, items_served: 20, missed: [], missed_count: 0 });
  });

  test('clients are told apart by credentials; page 0 again, or a page out of sequence, starts a new walk', async () => {
    const { quiet, page, walks } = setup();
    await page(quiet, 0, 10, 'a');
    await page(quiet, 0, 10, 'b');
    await page(quiet, 1, 10, 'a');
    await page(quiet, 1, 10, 'b');
    await page(quiet, 0, 10, 'a');
    await page(quiet, 5, 10, 'b');
    const report = await walks(quiet.profile.sid);
    expect(report.map((w) => [w.first_page, w.last_page, w.pages])).toEqual([
      [0, 1, 2],
      [0, 1, 2],
      [0, 0, 1],
      [5, 5, 1],
    ]);
    expect(new Set(report.map((w) => w.client)).size).toBe(2);
    expect(JSON.stringify(report)).not.toContain(quiet.profile.token);
  });

  test('sort and filters are part of a walk, as the client re-adds them to each page', async () => {
    const { quiet, page, walks } = setup();
    await page(quiet, 0, 10, '', '&SortBy=From:asc');
    await page(quiet, 1, 10, '', '&SortBy=From:asc');
    await page(quiet, 1, 10, '', '');
    const report = await walks(quiet.profile.sid);
    expect(report.map((w) => [w.sort, w.pages])).toEqual([
      ['from:asc', 2],
      [null, 1],
    ]);
  });
});
