import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { messages, problems } from '../../src/errors';
import type { AccountSpec } from '../../src/generators/account-spec';
import { byCalls, defaultAccounts, makeEmulator } from '../support/app';
import { type Received, receiver, statusesOf } from '../support/receiver';

const CALLS = (sid: string) => `/call/2012-04-24/Accounts/${sid}/Calls.json`;

/** A listed call, as far as a callback's parameters follow from it. */
interface Listed {
  sid: string;
  InstanceId: string;
  from: string;
  to: string;
  direction: string;
  status: string;
  date_created: string;
  date_updated: string;
  start_time: string;
  end_time?: string;
  duration?: number;
  caller_name: string;
}

/** Joda's `EEE, dd MMM YYYY HH:mm:ss ZZZZ` in UTC, written out here, not taken from the code under test. */
function timestamp(ms: number): string {
  const d = new Date(ms);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${day}, ${two(d.getUTCDate())} ${month} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC`;
}
const FIXED: AccountSpec = {
  friendlyName: 'Outcomes',
  calls: 0,
  recordings: 0,
  sid: 'AC0000000000000000000000000000000a',
  token: 'outcomes-token',
  outcomes: {
    byTo: {
      '+15550000001': 'completed',
      '+15550000002': 'busy',
      '+15550000003': 'no-answer',
      '+15550000004': 'failed',
      '+15550000005': 'not-found',
      '+15550000006': 'canceled',
    },
  },
};
const withFixed = (options: Parameters<typeof makeEmulator>[0] = {}) =>
  makeEmulator({ accounts: [...defaultAccounts, FIXED], ...options });

type App = ReturnType<typeof makeEmulator>['app'];
const create = (app: App, form: Record<string, string>, sid = FIXED.sid as string, token = FIXED.token as string) =>
  request(app).post(CALLS(sid)).auth(token, '').type('form').send(new URLSearchParams(form).toString());
const move = (app: App, advance: string) =>
  request(app).post('/__admin/clock').type('json').send(JSON.stringify({ advance }));
const journal = async (app: App, query = '') => (await request(app).get(`/__admin/callbacks${query}`)).body;

/** Waits until the journal has no delivery under way (the initiated callbacks are not awaited by the create). */
async function settled(app: App): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await journal(app)).pending === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('callbacks still pending');
}

const form = (to: string, statusCallback: string, extra: Record<string, string> = {}) => ({
  From: '+15126002188',
  To: to,
  Url: 'http://127.0.0.1:1/rcml',
  StatusCallback: statusCallback,
  ...extra,
});

describe('POST Calls.json: creating a call as production answers it', () => {
  test('a queued outbound-api call at the clock, answered 200 with its record; the list and the record show it', async () => {
    const { app } = withFixed();
    const res = await create(app, { From: '+15126002188', To: '+15550000001', Url: 'http://127.0.0.1:1/rcml' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      status: 'QUEUED',
      direction: 'outbound-api',
      from: '+15126002188',
      to: '+15550000001',
      date_created: 'Sun, 1 Jun 2025 12:00:00 +0000',
      start_time: '2025-06-01T12:00:00.000Z',
      account_sid: FIXED.sid,
    });
    expect(res.body).not.toHaveProperty('end_time');
    const page = await request(app)
      .get(CALLS(FIXED.sid as string))
      .auth(FIXED.token as string, '');
    expect(page.body.calls.map((c: { sid: string }) => c.sid)).toEqual([res.body.sid]);
    await move(app, 'PT1H');
    const single = await request(app)
      .get(`/call/2012-04-24/Accounts/${FIXED.sid}/Calls/${res.body.sid}.json`)
      .auth(FIXED.token as string, '');
    expect(single.body.status).toBe('completed');
    expect(single.body.answered_by).toBe('+15550000001');
  });

  test.each([
    [{ To: 'b', Url: 'u' }, messages.createMissing('From')],
    [{ Url: 'u' }, messages.createMissing('From')],
    [{ From: 'a', Url: 'u' }, messages.createMissing('To')],
    [{ From: 'a', To: 'b' }, messages.createMissing('Url')],
    [{ From: 'a', To: 'b', Url: 'u', Timeout: 'ten' }, messages.createTimeout('ten')],
    [{ From: 'a', To: 'b', Url: 'http://x/a b' }, messages.createUrl('http://x/a b')],
    [{ From: 'a', To: 'b', Url: 'u', StatusCallback: 'http://10.0.0.5/s' }, messages.callbackHostRefused('10.0.0.5')],
  ])('%j → 400 %s', async (body, message) => {
    const { app } = withFixed();
    const res = await create(app, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    expect(
      (
        await request(app)
          .get(CALLS(FIXED.sid as string))
          .auth(FIXED.token as string, '')
      ).body.total,
    ).toBe(0);
  });

  test('a no-answer call rings the whole Timeout: 60 s when absent, else as given', async () => {
    const { app } = withFixed();
    for (const [timeout, rang] of [
      [undefined, 60],
      ['25', 25],
    ] as const) {
      const body = { From: 'a', To: '+15550000003', Url: 'u', ...(timeout === undefined ? {} : { Timeout: timeout }) };
      const call = (await create(app, body)).body;
      await move(app, 'PT2M');
      const record = (
        await request(app)
          .get(`/call/2012-04-24/Accounts/${FIXED.sid}/Calls/${call.sid}.json`)
          .auth(FIXED.token as string, '')
      ).body;
      expect(record.status).toBe('NO_ANSWER');
      expect((Date.parse(record.date_updated) - Date.parse(record.date_created)) / 1000).toBe(rang);
    }
  });

  test('From, To and Url present but empty pass, as production checks only that they are there', async () => {
    const { app } = withFixed();
    expect((await create(app, { From: '', To: '', Url: '' })).status).toBe(200);
  });

  test('a body that is not a form is a 415; a host given to --callback-hosts is taken', async () => {
    const { app } = withFixed({ callbackHosts: ['hooks.example.com'] });
    const json = await request(app)
      .post(CALLS(FIXED.sid as string))
      .auth(FIXED.token as string, '')
      .type('json')
      .send('{"From":"a"}');
    expect(json.status).toBe(415);
    expect(json.body).toEqual({ message: messages.createNotForm('application/json') });
    const ok = await create(app, { From: 'a', To: 'b', Url: 'u', StatusCallback: 'http://hooks.example.com/s' });
    expect(ok.status).toBe(200);
  });

  test('a parameter production reads nowhere is ignored and said; --strict refuses it', async () => {
    const loose = await create(withFixed().app, { From: 'a', To: 'b', Url: 'u', Record: 'true' });
    expect(loose.status).toBe(200);
    expect(loose.headers['x-emulator-warning']).toBe(messages.createUnread('Record'));
    const strict = await create(withFixed({ strict: true }).app, { From: 'a', To: 'b', Url: 'u', Record: 'true' });
    expect(strict.status).toBe(400);
    expect(strict.body).toEqual({ message: messages.createUnread('Record') });
  });

  test('the list path allows POST now: other methods name it', async () => {
    const { app } = withFixed();
    const res = await request(app)
      .put(CALLS(FIXED.sid as string))
      .auth(FIXED.token as string, '');
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD, POST');
  });

  test('another account cannot create calls in this one', async () => {
    const { app, world } = withFixed();
    const other = byCalls(world, 448);
    const res = await create(app, { From: 'a', To: 'b', Url: 'u' }, FIXED.sid as string, other.token);
    expect(res.status).toBe(403);
  });

  test('--dialect restcomm without .json answers the <Call> element, as production does', async () => {
    const { app } = withFixed({ dialect: 'restcomm' });
    const res = await request(app)
      .post(`/restcomm/2012-04-24/Accounts/${FIXED.sid}/Calls`)
      .auth(FIXED.sid as string, FIXED.token as string)
      .type('form')
      .send('From=a&To=b&Url=u');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toMatch(/^<Call>\n {2}<Sid>ID[0-9a-f]{32}-CA[0-9a-f]{32}<\/Sid>\n/);
    expect(res.text).toMatch(/<\/Call>$/);
    expect(res.text).toContain('<Status>QUEUED</Status>');
  });
});

describe("inbound traffic's status callbacks, as the VoiceInterpreter sends them to the number's StatusCallback", () => {
  const trafficAccount = (statusCallback: unknown, extra: Record<string, unknown> = {}) => ({
    friendly_name: 'Inbound',
    sid: 'AC000000000000000000000000000000e1',
    token: 'inbound-token',
    traffic: { calls_per_hour: 120 },
    status_callback: statusCallback,
    ...extra,
  });
  const addAccount = (app: App, body: unknown) =>
    request(app).post('/__admin/accounts').type('json').send(JSON.stringify(body));

  test('each inbound call the hour brought posts ringing, in-progress if answered, then its end, with every parameter', async () => {
    const rx = await receiver();
    try {
      const { app } = makeEmulator();
      expect((await addAccount(app, trafficAccount({ url: `${rx.url}/in` }))).status).toBe(201);
      await move(app, 'PT1H');
      const page = await request(app)
        .get('/call/2012-04-24/Accounts/AC000000000000000000000000000000e1/Calls.json?PageSize=1000')
        .auth('inbound-token', '');
      const clock = Date.parse((await request(app).get('/__admin/clock')).body.now);
      const inbound = (page.body.calls as Listed[]).filter((c) => c.direction === 'inbound');
      expect(inbound.length).toBeGreaterThan(20);
      const byCall = new Map<string, URLSearchParams[]>();
      for (const g of rx.got) {
        expect([g.method, g.url]).toEqual(['POST', '/in']);
        const p = new URLSearchParams(g.body);
        byCall.set(p.get('CallSid') as string, [...(byCall.get(p.get('CallSid') as string) ?? []), p]);
      }
      for (const c of inbound) {
        const got = byCall.get(c.sid) ?? [];
        // What its record says happened by now: its arrival, its answer, its end.
        const ended = c.end_time !== undefined && Date.parse(c.end_time) <= clock;
        const expected = ['ringing'];
        if (c.status === 'completed' || c.status === 'in-progress') expected.push('in-progress');
        if (ended) expected.push(c.status);
        expect([c.sid, got.map((p) => p.get('CallStatus'))]).toEqual([c.sid, expected]);
        for (const p of got) {
          expect([...p]).toEqual([
            ['CallSid', c.sid],
            ['InstanceId', c.InstanceId],
            ['AccountSid', 'AC000000000000000000000000000000e1'],
            ['From', c.from],
            ['To', c.to],
            ['CallStatus', p.get('CallStatus')],
            ['ApiVersion', '2012-04-24'],
            ['Direction', 'inbound'],
            ['CallerName', c.caller_name],
            ['ForwardedFrom', 'null'],
            ['CallTimestamp', new Date(Date.parse(c.date_created)).toISOString()],
          ]);
        }
      }
      // Only inbound calls post: outbound traffic has no number's callback.
      expect(byCall.size).toBe(inbound.length);
      const journal = (await request(app).get('/__admin/callbacks')).body.callbacks as {
        source: string;
        sequence_number: unknown;
      }[];
      expect(new Set(journal.map((e) => `${e.source} ${e.sequence_number}`))).toEqual(new Set(['inbound null']));
    } finally {
      await rx.close();
    }
  });

  test("a number's own StatusCallback wins over the account's", async () => {
    const rx = await receiver();
    try {
      const { app } = makeEmulator();
      const probe = await addAccount(app, trafficAccount({ url: `${rx.url}/all` }));
      expect(probe.status).toBe(201);
      await move(app, 'PT10M');
      const numbers = new Set(rx.got.map((g) => new URLSearchParams(g.body).get('To')));
      const [mine] = [...numbers];
      const second = makeEmulator();
      await addAccount(
        second.app,
        trafficAccount(
          { url: `${rx.url}/all` },
          { number_status_callbacks: { [mine as string]: { url: `${rx.url}/own`, method: 'GET' } } },
        ),
      );
      rx.got.length = 0;
      await move(second.app, 'PT10M');
      const own = rx.got.filter((g) => g.url.startsWith('/own?'));
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((g) => g.method === 'GET' && new URLSearchParams(g.url.slice(5)).get('To') === mine)).toBe(true);
      expect(rx.got.filter((g) => g.url === '/all').every((g) => new URLSearchParams(g.body).get('To') !== mine)).toBe(
        true,
      );
    } finally {
      await rx.close();
    }
  });

  test('a move that would pass the callbacks of more traffic than one move may send is a 409, and the clock stays', async () => {
    const { app } = makeEmulator();
    await addAccount(app, { ...trafficAccount({ url: 'http://127.0.0.1:1/x' }), traffic: { calls_per_hour: 3600 } });
    const res = await move(app, 'P3650D');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(
      /^This move would pass the status callbacks of \d+ calls of live traffic, more than the 100000/,
    );
    expect((await request(app).get('/__admin/clock')).body.advanced_ms).toBe(0);
  });

  test('status_callback needs traffic, and a URL', async () => {
    const { app } = makeEmulator();
    const none = await addAccount(app, { friendly_name: 'X', status_callback: { url: 'http://127.0.0.1:1/x' } });
    expect([none.status, none.body.message]).toEqual([400, `body.status_callback: ${problems.callbacksNeedTraffic}`]);
    const bad = await addAccount(app, {
      friendly_name: 'X',
      traffic: { calls_per_hour: 1 },
      status_callback: { url: 'x' },
    });
    expect([bad.status, bad.body.message]).toEqual([400, `body.status_callback.url: ${problems.callbackUrl}`]);
  });
});

describe('status callbacks, as Restcomm sends them, on the clock', () => {
  test('an answered call: initiated at once, then ringing, answered and completed as the clock passes them, each with every parameter', async () => {
    const rx = await receiver();
    try {
      const { app } = withFixed();
      const res = await create(app, form('+15550000001', `${rx.url}/status?tenant=7&flag`));
      const call = res.body;
      await settled(app);
      expect(statusesOf(rx.got)).toEqual(['initiated']);
      await move(app, 'PT1H');
      const record = (
        await request(app)
          .get(`/call/2012-04-24/Accounts/${FIXED.sid}/Calls/${call.sid}.json`)
          .auth(FIXED.token as string, '')
      ).body;
      const created = Date.parse(record.date_created);
      const answered = Date.parse(record.start_time);
      const ended = Math.floor(Date.parse(record.end_time) / 1000) * 1000;
      const expected = (status: string, seq: number, at: number, duration?: number) => [
        ['InstanceId', call.InstanceId],
        ['AccountSid', FIXED.sid],
        ['CallSid', call.sid],
        ['From', '+15126002188'],
        ['To', '+15550000001'],
        ['Direction', 'outbound-api'],
        ['CallerName', '+15126002188'],
        ['ForwardedFrom', ''],
        ['CallStatus', status],
        ...(duration === undefined ? [] : [['CallDuration', String(duration)]]),
        ['Timestamp', timestamp(at)],
        ['CallbackSource', 'call-progress-events'],
        ['SequenceNumber', String(seq)],
        // The StatusCallback's own query comes after production's parameters.
        ['tenant', '7'],
        ['flag', ''],
      ];
      expect(rx.got.map((g) => [...new URLSearchParams(g.body)])).toEqual([
        expected('initiated', 0, created),
        expected('ringing', 1, created + 1000),
        expected('answered', 2, answered),
        expected('completed', 3, ended, record.duration),
      ]);
      for (const g of rx.got) {
        expect(g.method).toBe('POST');
        expect(g.url).toBe('/status');
        expect(g.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=UTF-8');
        expect(g.headers['http.protocol.content-charset']).toBe('UTF-8');
        // An absent value is the bare name; a + is %2B; no signature header.
        expect(g.body).toContain('&ForwardedFrom&');
        expect(g.body).toContain('From=%2B15126002188');
        expect(Object.keys(g.headers).some((h) => /signature/i.test(h))).toBe(false);
      }
    } finally {
      await rx.close();
    }
  });

  test.each([
    ['+15550000002', 'busy', ['initiated', 'ringing', 'completed'], '0'],
    ['+15550000003', 'no-answer', ['initiated', 'ringing'], null],
    ['+15550000004', 'failed', ['initiated', 'completed'], '0'],
    ['+15550000005', 'not-found', ['initiated'], null],
    ['+15550000006', 'canceled', ['initiated', 'ringing', 'completed'], 'ring'],
  ])('%s (%s) sends %j', async (to, _status, events, duration) => {
    const rx = await receiver();
    try {
      const { app } = withFixed();
      const call = (await create(app, form(to, `${rx.url}/s`))).body;
      await settled(app);
      await move(app, 'PT1H');
      const got = rx.got.map((g) => new URLSearchParams(g.body));
      expect(got.map((p) => p.get('CallStatus'))).toEqual(events);
      expect(got.map((p) => p.get('SequenceNumber'))).toEqual(
        events.map((e) => String(['initiated', 'ringing', 'answered', 'completed'].indexOf(e))),
      );
      const last = got[got.length - 1] as URLSearchParams;
      if (duration === null) expect(last.has('CallDuration')).toBe(false);
      else {
        const record = (
          await request(app)
            .get(`/call/2012-04-24/Accounts/${FIXED.sid}/Calls/${call.sid}.json`)
            .auth(FIXED.token as string, '')
        ).body;
        expect(last.get('CallDuration')).toBe(duration === 'ring' ? String(record.duration) : duration);
      }
    } finally {
      await rx.close();
    }
  });

  test('GET puts every parameter in the query; a StatusCallback Java cannot parse sends nothing, silently', async () => {
    const rx = await receiver();
    try {
      const { app } = withFixed();
      await create(app, form('+15550000001', `${rx.url}/g?x=1`, { StatusCallbackMethod: 'get' }));
      const bad = await create(app, form('+15550000001', `${rx.url}/a b`));
      expect(bad.status).toBe(200);
      await settled(app);
      await move(app, 'PT1H');
      expect(rx.got).toHaveLength(4);
      for (const g of rx.got) {
        expect(g.method).toBe('GET');
        expect(g.body).toBe('');
        expect(g.url).toMatch(/^\/g\?InstanceId=ID[0-9a-f]{32}&AccountSid=AC0{31}a&.*&SequenceNumber=[0-3]&x=1$/);
      }
      expect((await journal(app)).callbacks).toHaveLength(4);
    } finally {
      await rx.close();
    }
  });

  test('a receiver that hangs or resets: the error is journaled, nothing is retried, the move still answers', async () => {
    const hang = await receiver(() => undefined);
    const reset = await receiver((req) => req.socket.destroy());
    try {
      const { app } = withFixed({ callbackTimeoutMs: 200 });
      await create(app, form('+15550000004', `${hang.url}/h`));
      await create(app, form('+15550000004', `${reset.url}/r`));
      await settled(app);
      const moved = await move(app, 'PT1H');
      expect(moved.status).toBe(200);
      const entries = (await journal(app)).callbacks as { call_sid: string; error: string | null; response: unknown }[];
      expect(entries).toHaveLength(4);
      expect(entries.filter((e) => e.error?.includes('no answer within 200 ms'))).toHaveLength(2);
      expect(entries.filter((e) => e.error?.startsWith('ECONNRESET'))).toHaveLength(2);
      expect(entries.every((e) => e.response === null)).toBe(true);
      expect(hang.got).toHaveLength(2);
      expect(reset.got).toHaveLength(2);
    } finally {
      await hang.close();
      await reset.close();
    }
  });

  test('redirects are followed with the same method and parameters', async () => {
    const rx = await receiver((req, res) => {
      if (req.url === '/old') {
        res.writeHead(302, { location: '/new' });
        res.end();
      } else res.end('OK');
    });
    try {
      const { app } = withFixed();
      await create(app, form('+15550000005', `${rx.url}/old`));
      await settled(app);
      expect(rx.got.map((g) => g.url)).toEqual(['/old', '/new']);
      expect((rx.got[1] as Received).body).toBe((rx.got[0] as Received).body);
      const [entry] = (await journal(app)).callbacks;
      expect(entry).toMatchObject({ redirects: 1, response: { status: 200, body: 'OK' }, error: null });
    } finally {
      await rx.close();
    }
  });

  test("a sandbox's calls follow the sandbox's clock, not the world's; a reset forgets the journal", async () => {
    const rx = await receiver();
    try {
      const { app } = withFixed();
      const sandbox = (
        await request(app)
          .post('/__admin/sandboxes')
          .type('json')
          .send(JSON.stringify({ from: FIXED.sid }))
      ).body;
      await create(app, form('+15550000001', `${rx.url}/s`), sandbox.sid, sandbox.token);
      await settled(app);
      await move(app, 'PT1H');
      expect(rx.got).toHaveLength(1);
      await request(app)
        .post(`/__admin/sandboxes/${sandbox.sid}/clock`)
        .type('json')
        .send(JSON.stringify({ advance: 'PT1H' }));
      expect(rx.got).toHaveLength(4);
      expect((await journal(app, `?account=${sandbox.sid}`)).callbacks).toHaveLength(4);
      expect((await journal(app, `?account=${FIXED.sid}`)).callbacks).toHaveLength(0);
      await request(app).post('/__admin/reset?force=true');
      expect((await journal(app)).callbacks).toEqual([]);
    } finally {
      await rx.close();
    }
  });

  test('callback_faults: duplicates arrive twice, drops never, and the journal says which', async () => {
    const rx = await receiver();
    try {
      const faulty = (sid: string, callback_faults: unknown) => ({
        friendly_name: 'Faults',
        sid,
        token: `${sid}-token`,
        outcomes_by_to: { '+15550000001': 'completed' },
        callback_faults,
      });
      const { app } = makeEmulator();
      for (const [sid, faults] of [
        ['AC000000000000000000000000000000d1', { duplicate: 1 }],
        ['AC000000000000000000000000000000d2', { drop: 1 }],
      ] as const) {
        const made = await request(app)
          .post('/__admin/accounts')
          .type('json')
          .send(JSON.stringify(faulty(sid, faults)));
        expect(made.status).toBe(201);
        await create(app, form('+15550000001', `${rx.url}/${sid}`), sid, `${sid}-token`);
      }
      await settled(app);
      await move(app, 'PT1H');
      const statuses = (path: string) =>
        rx.got.filter((g) => g.url === path).map((g) => new URLSearchParams(g.body).get('CallStatus'));
      expect(statuses('/AC000000000000000000000000000000d1')).toEqual([
        'initiated',
        'initiated',
        'ringing',
        'ringing',
        'answered',
        'answered',
        'completed',
        'completed',
      ]);
      expect(statuses('/AC000000000000000000000000000000d2')).toEqual([]);
      const dropped = (await journal(app, '?account=AC000000000000000000000000000000d2')).callbacks;
      expect(dropped.map((e: { fault: string; request: unknown }) => [e.fault, e.request])).toEqual([
        ['drop', null],
        ['drop', null],
        ['drop', null],
        ['drop', null],
      ]);
    } finally {
      await rx.close();
    }
  });

  test('callback_faults is checked: a probability past 1 is a 400 naming the field', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/__admin/accounts')
      .type('json')
      .send(JSON.stringify({ friendly_name: 'F', callback_faults: { drop: 2 } }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`body.callback_faults.drop: ${problems.probability}`);
  });

  test('a move waits for its callbacks; with callbacksInBackground it answers while a receiver still holds one', async () => {
    const held: ServerResponse[] = [];
    const rx = await receiver((_req, res) => held.push(res));
    const release = () => {
      for (const res of held.splice(0)) res.end('OK');
    };
    try {
      for (const background of [false, true]) {
        const { app } = withFixed({ callbacksInBackground: background });
        await create(app, form('+15550000004', `${rx.url}/h`));
        while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
        release();
        await settled(app);
        let answered = false;
        const moving = move(app, 'PT1H').then((res) => {
          answered = res.status === 200;
        });
        while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
        // The failed call's completed is at the receiver, unanswered.
        if (background) {
          await moving;
          expect([answered, held.length]).toEqual([true, 1]);
          release();
        } else {
          await new Promise((r) => setTimeout(r, 50));
          expect(answered).toBe(false);
          release();
          await moving;
          expect(answered).toBe(true);
        }
      }
    } finally {
      release();
      await rx.close();
    }
  });

  test('a running clock (--clock-rate) sends what it passes, each once, the initiated one by the create alone', async () => {
    const rx = await receiver();
    try {
      const { app, world } = withFixed();
      let wall = 1_000_000;
      world.followWall(1, () => wall, wall);
      wall += 1000;
      app.pumpCallbacks();
      wall += 5000;
      // The create ticks the clock as it comes in: it is made after the pump's last instant.
      const call = (await create(app, form('+15550000001', `${rx.url}/s`))).body;
      await settled(app);
      app.pumpCallbacks();
      await settled(app);
      expect(rx.got).toHaveLength(1);
      wall += 5 * 3600_000;
      app.pumpCallbacks();
      await settled(app);
      app.pumpCallbacks();
      await settled(app);
      const states = rx.got.map((g) => new URLSearchParams(g.body));
      expect(states.map((p) => p.get('CallStatus'))).toEqual(['initiated', 'ringing', 'answered', 'completed']);
      expect(new Set(states.map((p) => p.get('CallSid')))).toEqual(new Set([call.sid]));
    } finally {
      await rx.close();
    }
  });

  test('a state export keeps created calls: imported elsewhere they live on and send the same callbacks', async () => {
    const rx = await receiver();
    try {
      const first = withFixed();
      for (let i = 1; i <= 6; i++) await create(first.app, form(`+1555000000${i}`, `${rx.url}/s?i=${i}`));
      await create(first.app, { From: 'a', To: '+15550000001', Url: 'u' });
      await settled(first.app);
      const state = (await request(first.app).get('/__admin/state')).body;
      const second = withFixed();
      expect((await request(second.app).put('/__admin/state').type('json').send(JSON.stringify(state))).status).toBe(
        200,
      );
      const lists: unknown[] = [];
      const sent: unknown[] = [];
      for (const { app } of [first, second]) {
        await move(app, 'PT1H');
        lists.push(
          (
            await request(app)
              .get(CALLS(FIXED.sid as string))
              .auth(FIXED.token as string, '')
          ).body,
        );
        const { callbacks } = await journal(app, '?timing=false');
        sent.push(
          (callbacks as { event: string; call_sid: string; request: unknown }[])
            .filter((e) => e.event !== 'initiated')
            .map(({ event, call_sid, request }) => ({ event, call_sid, request })),
        );
      }
      expect(lists[1]).toEqual(lists[0]);
      expect((sent[0] as unknown[]).length).toBe(9);
      expect(sent[1]).toEqual(sent[0]);
    } finally {
      await rx.close();
    }
  });

  test('1,000 calls over the seeded mix: each call gets exactly the states its outcome sends, in order; the same seed gives the same journal byte for byte', async () => {
    const rx = await receiver();
    try {
      const run = async () => {
        const { app, world } = makeEmulator();
        const main = byCalls(world, 448);
        for (let i = 0; i < 1000; i++) {
          const to = `+1555${String(i).padStart(7, '0')}`;
          const res = await create(app, form(to, `${rx.url}/cb`), main.sid, main.token);
          expect(res.status).toBe(200);
        }
        await settled(app);
        await move(app, 'PT2H');
        const page = await request(app)
          .get(`${CALLS(main.sid)}?PageSize=1000`)
          .auth(main.token, '');
        // The 1,000 created calls are the newest: the first page of 1,000.
        const created = (page.body.calls as Listed[]).filter((c) => c.direction === 'outbound-api');
        return { app, main, created };
      };
      const first = await run();
      const byCall = new Map<string, URLSearchParams[]>();
      for (const g of rx.got) {
        const p = new URLSearchParams(g.body);
        const sid = p.get('CallSid') as string;
        byCall.set(sid, [...(byCall.get(sid) ?? []), p]);
      }
      const sends: Record<string, string[]> = {
        completed: ['initiated', 'ringing', 'answered', 'completed'],
        BUSY: ['initiated', 'ringing', 'completed'],
        canceled: ['initiated', 'ringing', 'completed'],
        FAILED: ['initiated', 'completed'],
        NO_ANSWER: ['initiated', 'ringing'],
        NOT_FOUND: ['initiated'],
      };
      const seen = new Set<string>();
      let checked = 0;
      for (const c of first.created) {
        const got = byCall.get(c.sid);
        if (got === undefined) continue;
        seen.add(c.status);
        checked++;
        expect(got.map((p) => p.get('CallStatus'))).toEqual(sends[c.status]);
        // Every parameter, from the listed record: the call's own, the state's, its sequence.
        const created = Date.parse(c.date_created);
        for (const p of got) {
          const state = p.get('CallStatus') as string;
          const seq = ['initiated', 'ringing', 'answered', 'completed'].indexOf(state);
          const stampMs = [
            created,
            created + 1000,
            Date.parse(c.start_time),
            Math.floor(Date.parse(c.end_time ?? c.date_updated) / 1000) * 1000,
          ][seq] as number;
          const duration = c.status === 'completed' || c.status === 'canceled' ? String(c.duration) : '0';
          expect([...p]).toEqual([
            ['InstanceId', c.InstanceId],
            ['AccountSid', first.main.sid],
            ['CallSid', c.sid],
            ['From', c.from],
            ['To', c.to],
            ['Direction', 'outbound-api'],
            ['CallerName', c.from],
            ['ForwardedFrom', ''],
            ['CallStatus', state],
            ...(state === 'completed' ? [['CallDuration', duration]] : []),
            ['Timestamp', timestamp(stampMs)],
            ['CallbackSource', 'call-progress-events'],
            ['SequenceNumber', String(seq)],
          ]);
        }
      }
      expect(checked).toBe(1000);
      expect(seen).toEqual(new Set(Object.keys(sends)));
      const journalOf = async (app: App) => (await request(app).get('/__admin/callbacks?timing=false')).text;
      const a = await journalOf(first.app);
      rx.got.length = 0;
      const second = await run();
      expect(await journalOf(second.app)).toBe(a);
    } finally {
      await rx.close();
    }
  }, 60_000);
});
