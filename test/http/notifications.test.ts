import request from 'supertest';
import { messages, problems } from '../../src/errors';
import { parseRfc2822 } from '../../src/format/dates';
import { CALLS_PER_NOTIFICATION } from '../../src/generators/notification';
import { allItems, byCalls, callsPath, listPath, makeEmulator } from '../support/app';

type Item = Record<string, any>;
const { app, world } = makeEmulator();
const main = byCalls(world, 448);
const small = byCalls(world, 50);
const get = (path: string, token = main.token) => request(app).get(path).auth(token, '');
const list = (query = '') => allItems(app, listPath('notifications', main.sid), main.token, 'notifications', query);
const sec = (date: unknown) => parseRfc2822(String(date))?.sec as number;

describe('notifications', () => {
  test('one per eight calls by default, each about a call of its block, written while that call ran', async () => {
    const items = await list();
    expect(items.length).toBe(448 / CALLS_PER_NOTIFICATION);
    const calls = await allItems(app, callsPath(main.sid), main.token, 'calls');
    items.forEach((n, j) => {
      const i = calls.findIndex((c) => c['sid'] === n['call_sid']);
      expect(Math.floor(i / CALLS_PER_NOTIFICATION)).toBe(j);
      const call = calls[i] as Item;
      expect(sec(n['date_created'])).toBeGreaterThanOrEqual(sec(call['date_created']));
      if (i > 0) expect(sec(n['date_created'])).toBeLessThan(sec((calls[i - 1] as Item)['date_created']));
      expect(n['date_updated']).toBe(n['date_created']);
      expect(Date.parse(String(n['message_date'])) / 1000).toBe(sec(n['date_created']));
      expect(n['more_info']).toBe(`http://127.0.0.1:8080/call/errors/${n['error_code']}.html`);
      expect([0, 1]).toContain(n['log']);
    });
    // Newest first, strictly: the default order needs no sort.
    const times = items.map((n) => sec(n['date_created']));
    expect(times.every((t, k) => k === 0 || t < (times[k - 1] as number))).toBe(true);
  });

  test("a call's sub-list names its notification; a single one answers as in the list", async () => {
    const [first] = await list('&PageSize=1');
    const n = first as Item;
    const sub = await get(`${callsPath(main.sid).replace('.json', '')}/${n['call_sid']}/Notifications.json`);
    expect(sub.status).toBe(200);
    expect(sub.body.total).toBe(1);
    expect(sub.body.notifications).toEqual([n]);
    const one = await get(`${listPath('notifications', main.sid).replace('.json', '')}/${n['sid']}.json`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(n);
    expect(n['uri']).toBe(`/2012-04-24/Accounts/${main.sid}/Notifications/${n['sid']}.json`);
  });

  test('an unknown sid is a 404, another account’s a 403', async () => {
    const base = listPath('notifications', main.sid).replace('.json', '');
    const unknown = `NO${'0'.repeat(32)}`;
    const missing = await get(`${base}/${unknown}.json`);
    expect([missing.status, missing.body]).toEqual([404, { message: messages.noNotification(main.sid, unknown) }]);
    const [theirs] = await allItems(app, listPath('notifications', small.sid), small.token, 'notifications');
    const foreign = await get(`${base}/${(theirs as Item)['sid']}.json`);
    expect([foreign.status, foreign.body]).toEqual([
      403,
      { message: messages.forbiddenRecord((theirs as Item)['sid']) },
    ]);
  });

  // The day filters name the day of the middle notification (the data decides which day that is).
  const dayOf = (n: Item) => new Date(sec(n['date_created']) * 1000).toISOString().slice(0, 10);
  const midnight = (day: string, days = 0) => Date.parse(`${day}T00:00:00Z`) / 1000 + days * 86_400;
  test.each([
    ['ErrorCode=21402', () => (n: Item) => n['error_code'] === 21402],
    ['ErrorCode=11%25', () => (n: Item) => String(n['error_code']).startsWith('11')],
    // LIKE under production's case-insensitive collation: 'Invalid' is kept too.
    ['MessageText=invalid', () => (n: Item) => n['message_text'].toUpperCase().includes('INVALID')],
    [
      'RequestUrl=https://app.example.com%25',
      () => (n: Item) => n['request_url'].startsWith('https://app.example.com'),
    ],
    ['StartTime=DAY', (day: string) => (n: Item) => sec(n['date_created']) >= midnight(day)],
    ['EndTime=DAY', (day: string) => (n: Item) => sec(n['date_created']) < midnight(day, 1)],
  ])('filter %s keeps exactly the notifications it names', async (query, keeps) => {
    const all = await list();
    const day = dayOf(all[Math.floor(all.length / 2)] as Item);
    const kept = await list(`&${query.replace('DAY', day)}`);
    const expected = all.filter(keeps(day));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    expect(kept).toEqual(expected);
  });

  test('a fixture gives the count, within one per eight calls; a state export carries it', async () => {
    const em = makeEmulator({ accounts: [{ friendlyName: 'N', calls: 80, recordings: 0, notifications: 3 }] });
    const [a] = em.world.accounts();
    expect(a?.tables.notifications.count).toBe(3);
    const state = (await request(em.app).get('/__admin/state')).body;
    expect(state.fixtures.accounts[0].notifications).toBe(3);
    const tooMany = await request(em.app)
      .post('/__admin/accounts')
      .type('json')
      .send({ friendly_name: 'M', calls: 16, notifications: 3 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain(problems.notificationCapacity(16, 2));
  });

  test("a sandbox has its parent's notifications", async () => {
    const em = makeEmulator();
    const a = byCalls(em.world, 448);
    const fork = (await request(em.app).post('/__admin/sandboxes').type('json').send({ from: a.sid })).body;
    const mine = await allItems(em.app, listPath('notifications', a.sid), a.token, 'notifications');
    const theirs = await allItems(em.app, listPath('notifications', fork.sid), fork.token, 'notifications');
    expect(theirs.map((n) => n['sid'])).toEqual(mine.map((n) => n['sid']));
    expect(theirs.every((n) => n['account_sid'] === fork.sid)).toBe(true);
  });
});
