import request from 'supertest';
import { messages } from '../../src/errors';
import { apiKeyOf } from '../../src/generators/account';
import type { AccountSpec } from '../../src/generators/account-spec';
import { byCalls, makeEmulator } from '../support/app';

type Item = Record<string, any>;
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const V = '/2010-04-01/Accounts';

const { app, world } = makeEmulator({ dialect: 'twilio' });
const acme = byCalls(world, 448);
const globex = byCalls(world, 50);
const get = (path: string, who: { sid: string; token: string } = acme) =>
  request(app).get(path).set('Authorization', basic(who.sid, who.token));

/** Every item of a list, walked by next_page_uri from `first`, and the pages' bodies. */
async function walk(first: string, who = acme): Promise<{ items: Item[]; pages: Item[] }> {
  const items: Item[] = [];
  const pages: Item[] = [];
  let next: string | null = first;
  while (next !== null) {
    const res = await get(next, who);
    expect(res.status).toBe(200);
    pages.push(res.body);
    const key = Object.keys(res.body).find((k) => Array.isArray(res.body[k])) as string;
    items.push(...res.body[key]);
    next = res.body.next_page_uri;
  }
  return { items, pages };
}

/** The same calls as the service as specified has them: its order, its statuses. */
const spec = makeEmulator();
const specCalls = async (): Promise<Item[]> => {
  const res = await request(spec.app)
    .get(`/call/2012-04-24/Accounts/${acme.sid}/Calls.json?PageSize=1000`)
    .set('Authorization', basic(acme.token, ''));
  return res.body.calls;
};

describe('the envelope and cursor paging', () => {
  test("a page has exactly Twilio's keys, numbers for start and end, null for a missing link", async () => {
    const res = await get(`${V}/${acme.sid}/Calls.json?PageSize=20`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'calls',
      'end',
      'first_page_uri',
      'next_page_uri',
      'page',
      'page_size',
      'previous_page_uri',
      'start',
      'uri',
    ]);
    const last = res.body.calls[19].sid;
    expect(res.body).toMatchObject({
      start: 0,
      end: 19,
      page: 0,
      page_size: 20,
      previous_page_uri: null,
      uri: `${V}/${acme.sid}/Calls.json?PageSize=20&Page=0`,
      first_page_uri: `${V}/${acme.sid}/Calls.json?PageSize=20&Page=0`,
      next_page_uri: `${V}/${acme.sid}/Calls.json?PageSize=20&Page=1&PageToken=PA${last}`,
    });
    // The recordings key sorts after previous_page_uri.
    const recs = await get(`${V}/${acme.sid}/Recordings.json`);
    expect(Object.keys(recs.body)).toEqual([
      'end',
      'first_page_uri',
      'next_page_uri',
      'page',
      'page_size',
      'previous_page_uri',
      'recordings',
      'start',
      'uri',
    ]);
  });

  // [PageSize, pages walked]: 448 calls.
  const cases: [number, number][] = [
    [50, 9],
    [448, 1],
    [1000, 1],
    [7, 64],
    [1, 448],
  ];
  test.each(cases)(
    'PageSize %i walks all 448 calls in %i pages, in the order of the other dialects',
    async (size, pages) => {
      const walked = await walk(`${V}/${acme.sid}/Calls.json?PageSize=${size}`);
      expect(walked.pages).toHaveLength(pages);
      const expected = (await specCalls()).map((c) => c.sid.split('-')[1]);
      expect(walked.items.map((c) => c.sid)).toEqual(expected);
      walked.pages.forEach((p, i) => {
        expect([p.page, p.start, p.end]).toEqual([i, i * size, Math.min(448, (i + 1) * size) - 1]);
        if (i > 0) expect(p.uri).toContain(`&Page=${i}&PageToken=PA`);
      });
      expect(walked.pages.at(-1)?.next_page_uri).toBeNull();
    },
  );

  test('the previous link (PB and the first sid) gives back the page before', async () => {
    const { pages } = await walk(`${V}/${acme.sid}/Calls.json?PageSize=30`);
    for (let i = 1; i < pages.length; i++) {
      const page = pages[i] as Item;
      expect(page.previous_page_uri).toContain(`&Page=${i - 1}&PageToken=PB${page.calls[0].sid}`);
      const back = await get(page.previous_page_uri);
      expect(back.body.calls.map((c: Item) => c.sid)).toEqual((pages[i - 1] as Item).calls.map((c: Item) => c.sid));
      expect([back.body.start, back.body.end]).toEqual([(i - 1) * 30, i * 30 - 1]);
    }
  });

  test('calls arriving at the head between two pages cause no duplicate: the cursor is a keyset', async () => {
    const fresh = makeEmulator({ dialect: 'twilio' });
    const a = byCalls(fresh.world, 50);
    const at = (path: string) => request(fresh.app).get(path).set('Authorization', basic(a.sid, a.token));
    const first = await at(`${V}/${a.sid}/Calls.json?PageSize=20`);
    for (let i = 0; i < 5; i++) {
      const res = await request(fresh.app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send({});
      expect(res.status).toBe(201);
    }
    const sids: string[] = first.body.calls.map((c: Item) => c.sid);
    let next: string | null = first.body.next_page_uri;
    while (next !== null) {
      const res = await at(next);
      sids.push(...res.body.calls.map((c: Item) => c.sid));
      next = res.body.next_page_uri;
    }
    expect(sids).toHaveLength(50);
    expect(new Set(sids).size).toBe(50);
    // The new calls lead a walk started now.
    const now = await at(`${V}/${a.sid}/Calls.json?PageSize=1000`);
    expect(now.body.calls).toHaveLength(55);
    expect(now.body.calls.slice(5).map((c: Item) => c.sid)).toEqual(sids);
  });

  test('a cursor whose record was deleted still names its place', async () => {
    const fresh = makeEmulator({ dialect: 'twilio' });
    const a = byCalls(fresh.world, 50);
    const at = (path: string) => request(fresh.app).get(path).set('Authorization', basic(a.sid, a.token));
    const first = await at(`${V}/${a.sid}/Calls.json?PageSize=10`);
    const all = await at(`${V}/${a.sid}/Calls.json?PageSize=1000`);
    const tenth = a.store.calls.get(a.store.calls.order(null).at(9)).sid;
    expect(tenth.endsWith(first.body.calls[9].sid)).toBe(true);
    const del = await request(fresh.app).delete(`/__admin/accounts/${a.sid}/calls/${tenth}`);
    expect(del.status).toBe(200);
    const next = await at(first.body.next_page_uri);
    expect(next.body.calls.map((c: Item) => c.sid)).toEqual(all.body.calls.slice(10, 20).map((c: Item) => c.sid));
  });

  // [query, status, code, message]
  const refusals: [string, number, number, string][] = [
    ['Page=1', 400, 20001, messages.twilioPageTokenRequired],
    ['PageSize=0', 400, 20001, messages.twilioPageSize('0')],
    ['PageSize=1001', 400, 20001, messages.twilioPageSize('1001')],
    ['PageSize=ten', 400, 20001, messages.twilioPageSize('ten')],
    ['Page=-1', 400, 20001, messages.twilioPage('-1')],
    ['PageToken=PX1', 400, 21481, messages.twilioPageToken('PX1', 'CA')],
    [`PageToken=PARE${'0'.repeat(32)}`, 400, 21481, messages.twilioPageToken(`PARE${'0'.repeat(32)}`, 'CA')],
    [
      'Status=done',
      400,
      20001,
      messages.twilioEnum(
        'Status',
        ['queued', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled'],
        'done',
      ),
    ],
    ['StartTime=yesterday', 400, 20001, messages.twilioDate('StartTime', 'yesterday')],
    ['EndTime>=2025-02-30', 400, 20001, messages.twilioDate('EndTime>', '2025-02-30')],
  ];
  test.each(refusals)('Calls.json?%s: %i, code %i', async (query, status, code, message) => {
    const res = await get(`${V}/${acme.sid}/Calls.json?${query}`);
    expect(res.body).toEqual({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
    expect(res.status).toBe(status);
  });

  test("a cursor naming another account's call is refused", async () => {
    const other = await get(`${V}/${globex.sid}/Calls.json?PageSize=1`, globex);
    const res = await get(`${V}/${acme.sid}/Calls.json?Page=1&PageToken=PA${other.body.calls[0].sid}`);
    expect([res.status, res.body.code]).toEqual([400, 21481]);
  });
});

describe('filters', () => {
  let all: Item[];
  beforeAll(async () => {
    all = (await walk(`${V}/${acme.sid}/Calls.json?PageSize=1000`)).items;
  });
  const at = (text: string | null) => (text === null ? Number.NaN : Date.parse(text));
  const kept = async (query: string) =>
    (await walk(`${V}/${acme.sid}/Calls.json?PageSize=100&${query}`)).items.map((c) => c.sid);

  test.each(['completed', 'busy', 'no-answer', 'failed', 'canceled'])(
    'Status=%s keeps the calls of that status',
    async (status) => {
      const expected = all.filter((c) => c.status === status).map((c) => c.sid);
      expect(await kept(`Status=${status}`)).toEqual(expected);
    },
  );

  test('To and From match the whole address, + encoded or not', async () => {
    const to = all.find((c) => c.to.startsWith('+'))?.to as string;
    expect(await kept(`To=${encodeURIComponent(to)}`)).toEqual(all.filter((c) => c.to === to).map((c) => c.sid));
    expect(await kept(`To=${encodeURIComponent(to.slice(0, -1))}`)).toEqual([]);
    const from = all[3]?.from as string;
    expect(await kept(`From=${encodeURIComponent(from)}`)).toEqual(
      all.filter((c) => c.from === from).map((c) => c.sid),
    );
  });

  test('links repeat the filters, encoded', async () => {
    const res = await get(`${V}/${acme.sid}/Calls.json?Status=completed&StartTime%3E=2025-05-01&PageSize=5`);
    expect(res.body.next_page_uri).toMatch(
      /\?Status=completed&StartTime%3E=2025-05-01&PageSize=5&Page=1&PageToken=PACA/,
    );
    expect(res.body.first_page_uri).toBe(
      `${V}/${acme.sid}/Calls.json?Status=completed&StartTime%3E=2025-05-01&PageSize=5&Page=0`,
    );
  });

  test('StartTime names a whole UTC day; < and > include the bound (on or before, on or after)', async () => {
    const iso = new Date(at((all[40] as Item).start_time)).toISOString().slice(0, 10);
    const dayStart = Date.parse(`${iso}T00:00:00Z`);
    const dayEnd = dayStart + 86_400_000;
    const starts = (test: (ms: number) => boolean) => all.filter((c) => test(at(c.start_time))).map((c) => c.sid);
    expect(await kept(`StartTime=${iso}`)).toEqual(starts((ms) => ms >= dayStart && ms < dayEnd));
    expect(await kept(`StartTime<=${iso}`)).toEqual(starts((ms) => ms < dayEnd));
    expect(await kept(`StartTime>=${iso}`)).toEqual(starts((ms) => ms >= dayStart));
    expect((await kept(`StartTime=${iso}`)).length).toBeGreaterThan(0);
  });

  test('every date form the libraries send: ISO with Z, an offset, zoneless (UTC)', async () => {
    const t = all[100]?.start_time as string;
    const ms = at(t);
    const iso = new Date(ms).toISOString().replace('.000', '');
    const expected = all.filter((c) => at(c.start_time) >= ms).map((c) => c.sid);
    expect(await kept(`StartTime>=${iso}`)).toEqual(expected);
    const plus2 = new Date(ms + 2 * 3600_000).toISOString().slice(0, 19);
    expect(await kept(`StartTime>=${encodeURIComponent(`${plus2}+02:00`)}`)).toEqual(expected);
    expect(await kept(`StartTime>=${iso.slice(0, 19)}`)).toEqual(expected);
    expect(await kept(`StartTime<=${iso}`)).toEqual(all.filter((c) => at(c.start_time) <= ms).map((c) => c.sid));
    // The equality form names the instant's UTC day: the libraries send a date as its midnight.
    const day = ms - (ms % 86_400_000);
    const sameDay = all.filter((c) => at(c.start_time) >= day && at(c.start_time) < day + 86_400_000).map((c) => c.sid);
    expect(await kept(`StartTime=${iso}`)).toEqual(sameDay);
    expect(await kept(`StartTime=${new Date(day).toISOString().slice(0, 10)}`)).toEqual(sameDay);
  });

  test('EndTime reads end_time, which only completed calls have', async () => {
    const t = all[200]?.end_time ?? all.find((c) => c.end_time !== null)?.end_time;
    const ms = at(t);
    const iso = new Date(ms).toISOString();
    expect(await kept(`EndTime<=${iso}`)).toEqual(all.filter((c) => at(c.end_time) <= ms).map((c) => c.sid));
    expect(all.filter((c) => c.status !== 'completed').every((c) => c.end_time === null && c.duration === null)).toBe(
      true,
    );
  });

  test('recordings: CallSid, DateCreated in its three forms, ConferenceSid, IncludeSoftDeleted', async () => {
    const recs = (await walk(`${V}/${acme.sid}/Recordings.json?PageSize=1000`)).items;
    expect(recs).toHaveLength(160);
    const kept = async (q: string) => (await walk(`${V}/${acme.sid}/Recordings.json?${q}`)).items.map((r) => r.sid);
    const call = recs[5]?.call_sid as string;
    expect(await kept(`CallSid=${call}`)).toEqual(recs.filter((r) => r.call_sid === call).map((r) => r.sid));
    const created = at(recs[50]?.date_created);
    const iso = new Date(created).toISOString().slice(0, 10);
    const from = Date.parse(`${iso}T00:00:00Z`);
    expect(await kept(`DateCreated>=${iso}`)).toEqual(recs.filter((r) => at(r.date_created) >= from).map((r) => r.sid));
    expect(await kept(`DateCreated<=${iso}`)).toEqual(
      recs.filter((r) => at(r.date_created) < from + 86_400_000).map((r) => r.sid),
    );
    expect(await kept(`ConferenceSid=CF${'0'.repeat(32)}`)).toEqual([]);
    expect(await kept('IncludeSoftDeleted=true')).toHaveLength(160);
    const bad = await get(`${V}/${acme.sid}/Recordings.json?IncludeSoftDeleted=maybe`);
    expect([bad.status, bad.body.message]).toEqual([400, messages.twilioBoolean('IncludeSoftDeleted', 'maybe')]);
  });
});

describe('records', () => {
  test("a call in every member of Twilio's schema, from the same seeded life as the other dialects", async () => {
    const theirs = await specCalls();
    const res = await get(`${V}/${acme.sid}/Calls.json?PageSize=1000`);
    res.body.calls.forEach((c: Item, i: number) => {
      const s = theirs[i] as Item;
      expect(c.sid).toBe(s.sid.split('-')[1]);
      expect(c.date_created).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
      expect(Date.parse(c.date_created)).toBe(Date.parse(s.date_created));
      expect([c.to, c.from, c.direction]).toEqual([s.to, s.from, s.direction]);
      expect(c.status).toBe(s.status.toLowerCase().replace('_', '-').replace('not-found', 'failed'));
      if (c.status === 'completed') {
        expect([c.duration, Date.parse(c.end_time), Date.parse(c.start_time)]).toEqual([
          String(s.duration),
          Date.parse(s.end_time),
          Date.parse(s.start_time),
        ]);
        expect(c.price).toMatch(/^-\d\.\d{5}$/);
      } else expect([c.duration, c.price, c.end_time]).toEqual([null, null, null]);
      expect(typeof c.queue_time).toBe('string');
      expect(c.uri).toBe(`${V}/${acme.sid}/Calls/${c.sid}.json`);
    });
  });

  test('a US number is formatted; other addresses stand as they are', async () => {
    const res = await get(`${V}/${acme.sid}/Calls.json?PageSize=1000`);
    for (const c of res.body.calls as Item[]) {
      const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(c.to);
      expect(c.to_formatted).toBe(m === null ? c.to : `(${m[1]}) ${m[2]}-${m[3]}`);
    }
  });

  test('fetch a call, its recordings (price a number, a track) and notifications by their Twilio sids', async () => {
    const recs = await get(`${V}/${acme.sid}/Recordings.json?PageSize=1`);
    const rec = recs.body.recordings[0];
    const call = await get(`${V}/${acme.sid}/Calls/${rec.call_sid}.json`);
    expect([call.status, call.body.sid]).toEqual([200, rec.call_sid]);
    const under = await get(call.body.subresource_uris.recordings);
    expect(under.status).toBe(200);
    expect(under.body.recordings.map((r: Item) => r.sid)).toContain(rec.sid);
    const mine = under.body.recordings.find((r: Item) => r.sid === rec.sid);
    expect([typeof mine.price, mine.track, 'media_url' in mine]).toEqual(['number', 'both', false]);
    expect(mine.price).toBe(Number(rec.price));
    const one = await get(rec.uri);
    expect(one.body).toEqual(rec);
    expect(rec.media_url).toBe(`http://127.0.0.1:8080${V}/${acme.sid}/Recordings/${rec.sid}`);
    for (const suffix of ['', '.wav']) {
      const audio = await request(app).get(`${V}/${acme.sid}/Recordings/${rec.sid}${suffix}`);
      expect([audio.status, audio.headers['content-type']]).toEqual([200, 'audio/wav']);
    }
    const mp3 = await request(app).get(`${V}/${acme.sid}/Recordings/${rec.sid}.mp3`);
    expect([mp3.status, mp3.body.message]).toEqual([406, messages.twilioMp3]);
  });

  test("a call's notifications carry error_code and log as strings", async () => {
    const n = acme.store.tables.notifications.get(0);
    const callSid = n.callSid.split('-')[1];
    const res = await get(`${V}/${acme.sid}/Calls/${callSid}/Notifications.json`);
    expect(res.status).toBe(200);
    expect(res.body.notifications[0]).toMatchObject({
      sid: n.sid,
      error_code: String(n.errorCode),
      log: String(n.log),
      call_sid: callSid,
    });
  });

  test("the short lists' own filters: a call's recordings by DateCreated, its notifications by Log and MessageDate", async () => {
    const n = acme.store.tables.notifications.get(0);
    const callSid = n.callSid.split('-')[1];
    const day = new Date(n.createdSec * 1000).toISOString().slice(0, 10);
    const notes = (q: string) => get(`${V}/${acme.sid}/Calls/${callSid}/Notifications.json?${q}`);
    expect((await notes(`Log=${n.log}`)).body.notifications.map((x: Item) => x.sid)).toEqual([n.sid]);
    expect((await notes(`Log=${1 - n.log}`)).body.notifications).toEqual([]);
    expect((await notes(`MessageDate=${day}`)).body.notifications).toHaveLength(1);
    expect((await notes(`MessageDate>=2099-01-01`)).body.notifications).toEqual([]);
    const bad = await notes('Log=2');
    expect([bad.status, bad.body.code]).toEqual([400, 20001]);
    const recs = await get(`${V}/${acme.sid}/Recordings.json?PageSize=1`);
    const rec = recs.body.recordings[0];
    const under = (q: string) => get(`${V}/${acme.sid}/Calls/${rec.call_sid}/Recordings.json?${q}`);
    const created = new Date(Date.parse(rec.date_created)).toISOString().slice(0, 10);
    expect((await under(`DateCreated=${created}`)).body.recordings.map((r: Item) => r.sid)).toContain(rec.sid);
    expect((await under('DateCreated<=2000-01-01')).body.recordings).toEqual([]);
  });

  test('a call with no callbacks has no events', async () => {
    const first = await get(`${V}/${acme.sid}/Calls.json?PageSize=1`);
    const events = await get(first.body.calls[0].subresource_uris.events);
    expect([events.status, events.body.events]).toEqual([200, []]);
  });

  test("unknown sids are Twilio's 404", async () => {
    const path = `${V}/${acme.sid}/Calls/CA${'0'.repeat(32)}.json`;
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 20404,
      message: messages.twilioNotFound(path),
      more_info: 'https://www.twilio.com/docs/errors/20404',
      status: 404,
    });
    const other = await get(`${V}/${acme.sid}/Nothing.json`);
    expect([other.status, other.body.code]).toEqual([404, 20404]);
  });

  test('a method a path does not take is a 405 in the same shape', async () => {
    const res = await request(app)
      .put(`${V}/${acme.sid}/Recordings.json`)
      .set('Authorization', basic(acme.sid, acme.token));
    expect([res.status, res.body.code, res.headers.allow]).toEqual([405, 20004, 'GET, HEAD']);
  });
});

describe("the service's own API beside Twilio's", () => {
  test('/call answers as the spec dialect does, byte for byte, after Twilio pages of the same records', async () => {
    const path = `/call/2012-04-24/Accounts/${acme.sid}/Calls.json?PageSize=25&Page=2`;
    await get(`${V}/${acme.sid}/Calls.json?PageSize=1000`);
    for (let i = 0; i < 2; i++) {
      const ours = await request(app).get(path).set('Authorization', basic(acme.token, ''));
      const theirs = await request(spec.app).get(path).set('Authorization', basic(acme.token, ''));
      expect([ours.status, ours.text]).toEqual([200, theirs.text]);
    }
    // And Twilio's pages stay Twilio's after the service's own were written.
    const again = await get(`${V}/${acme.sid}/Calls.json?PageSize=1000`);
    expect(again.body.calls[0].sid).toMatch(/^CA[0-9a-f]{32}$/);
  });
});

describe('accounts and logins', () => {
  const sid = (n: number) => `AC${String(n).padStart(32, '0')}`;
  const ACCOUNTS: AccountSpec[] = [
    { friendlyName: 'Parent', calls: 8, recordings: 2, sid: sid(1), token: 'a'.repeat(32), role: 'Administrator' },
    { friendlyName: 'Sub', calls: 4, recordings: 1, sid: sid(2), token: 'b'.repeat(32), parent: sid(1) },
    { friendlyName: 'Other', calls: 3, recordings: 1, sid: sid(3), token: 'c'.repeat(32) },
  ];
  const fam = makeEmulator({ dialect: 'twilio', accounts: ACCOUNTS });
  const as = (n: number, path: string) =>
    request(fam.app)
      .get(path)
      .set('Authorization', basic(sid(n), (ACCOUNTS[n - 1] as AccountSpec).token as string));

  // [login, account, status]
  const matrix: [number, number, number][] = [
    [1, 1, 200],
    [1, 2, 200],
    [2, 2, 200],
    [2, 1, 403],
    [3, 1, 403],
  ];
  test.each(matrix)('login %i reads account %i: %i', async (login, target, status) => {
    for (const path of [`${V}/${sid(target)}/Calls.json`, `${V}/${sid(target)}.json`]) {
      const res = await as(login, path);
      expect([path, res.status]).toEqual([path, status]);
      if (status !== 200) expect(res.body.code).toBe(20003);
    }
  });

  test("the account resource, and the accounts list of the login's own and its subaccounts", async () => {
    const one = await as(2, `${V}/${sid(2)}.json`);
    expect(one.body).toMatchObject({
      sid: sid(2),
      owner_account_sid: sid(1),
      friendly_name: 'Sub',
      status: 'active',
      type: 'Full',
    });
    const list = await as(1, '/2010-04-01/Accounts.json');
    expect(list.body.accounts.map((a: Item) => a.sid)).toEqual([sid(1), sid(2)]);
    const byName = await as(1, '/2010-04-01/Accounts.json?FriendlyName=Sub');
    expect(byName.body.accounts.map((a: Item) => a.sid)).toEqual([sid(2)]);
    expect(byName.body.first_page_uri).toBe('/2010-04-01/Accounts.json?FriendlyName=Sub&PageSize=50&Page=0');
    expect((await as(1, '/2010-04-01/Accounts.json?Status=closed')).body.accounts).toEqual([]);
    expect((await as(1, '/2010-04-01/Accounts.json?Status=gone')).status).toBe(400);
    expect(list.body.accounts[0].owner_account_sid).toBe(sid(1));
  });

  test("an API key (SK…:secret) logs in as its account, and reads what the account's own credentials read", async () => {
    const key = apiKeyOf(fam.world.seed, sid(1));
    expect(key.sid).toMatch(/^SK[0-9a-f]{32}$/);
    const withKey = (path: string, secret = key.secret) =>
      request(fam.app).get(path).set('Authorization', basic(key.sid, secret));
    expect((await withKey(`${V}/${sid(1)}/Calls.json`)).status).toBe(200);
    expect((await withKey(`${V}/${sid(2)}/Recordings.json`)).status).toBe(200);
    expect((await withKey(`${V}/${sid(3)}/Calls.json`)).status).toBe(403);
    expect((await withKey(`${V}/${sid(1)}/Calls.json`, 'x'.repeat(32))).status).toBe(401);
    // Another dialect knows no API keys.
    const spec = makeEmulator({ accounts: ACCOUNTS });
    const other = await request(spec.app)
      .get(`/call/2012-04-24/Accounts/${sid(1)}/Calls.json`)
      .set('Authorization', basic(key.sid, key.secret));
    expect(other.status).toBe(401);
  });

  test('no credentials or wrong ones: 401, code 20003, Authenticate', async () => {
    for (const res of [
      await request(fam.app).get(`${V}/${sid(1)}/Calls.json`),
      await request(fam.app)
        .get(`${V}/${sid(1)}/Calls.json`)
        .set('Authorization', basic(sid(1), 'wrong')),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 20003,
        message: messages.twilioAuthenticate,
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      });
    }
  });
});
