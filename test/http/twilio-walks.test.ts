import request from 'supertest';
import { makeEmulator } from '../support/app';

type Item = Record<string, any>;
const LIVE = { friendlyName: 'Live', calls: 300, recordings: 40, traffic: { callsPerHour: 120 } };

/**
 * The walks report, Twilio's cursors against Restcomm's offsets: two clients walk the same
 * calls of an account with live traffic while calls arrive at its head, one by Twilio's
 * next_page_uri (PageToken), the other by the service's own (Page, an offset). The report
 * names the offset walk's duplicates and finds none in the cursor's.
 */
test("live traffic walked with Twilio's cursors gives no duplicates, where Restcomm's offsets repeat a call at each arrival", async () => {
  const { app, world } = makeEmulator({ dialect: 'twilio', accounts: [LIVE] });
  const [live] = world.accounts();
  const sid = live?.profile.sid as string;
  const token = live?.profile.token as string;
  const move = (advance: unknown) => request(app).post('/__admin/clock').type('json').send(JSON.stringify({ advance }));
  const twilioPage = async (path: string) => (await request(app).get(path).auth(sid, token)).body as Item;
  const offsetPage = async (n: number, who = 'walker') =>
    (await request(app).get(`/call/2012-04-24/Accounts/${sid}/Calls.json?Page=${n}&PageSize=25`).auth(token, who))
      .body as Item;
  // Another client (another password) counts the calls: its pages are a walk of their own.
  const count = async () => (await offsetPage(0, 'probe')).total as number;

  await move('PT1H');
  let cursor = await twilioPage(`/2010-04-01/Accounts/${sid}/Calls.json?PageSize=25`);
  let offset = await offsetPage(0);
  const cursorSids: string[] = cursor.calls.map((c: Item) => c.sid);
  let arrivals = 0;
  for (let n = 1; cursor.next_page_uri !== null || offset.next_page_uri !== 'null'; n++) {
    // A call arrives before each next page: it heads the list.
    const before = await count();
    while ((await count()) === before) await move(1);
    arrivals++;
    if (cursor.next_page_uri !== null) {
      cursor = await twilioPage(cursor.next_page_uri);
      cursorSids.push(...cursor.calls.map((c: Item) => c.sid));
    }
    if (offset.next_page_uri !== 'null') offset = await offsetPage(n);
  }
  expect(arrivals).toBeGreaterThan(5);
  expect(new Set(cursorSids).size).toBe(cursorSids.length);

  const walks = (await request(app).get(`/__admin/walks?account=${sid}`)).body.walks as Item[];
  const byCursor = walks.find((w) => w.pages > 1 && w.filter === '' && w.items_served === cursorSids.length);
  const byOffset = walks.find((w) => w.pages > 1 && w !== byCursor && w.client !== byCursor?.client);
  expect(byCursor).toMatchObject({ complete: true, duplicates: [], duplicates_count: 0, missed: [], missed_count: 0 });
  expect(byOffset?.complete).toBe(true);
  expect(byOffset?.duplicates_count).toBeGreaterThan(5);
  expect(new Set(Object.values(byOffset?.causes ?? {}))).toEqual(new Set(['offset_repeat']));
});
