import { createHmac } from 'node:crypto';
import request from 'supertest';
import { messages } from '../../src/errors';
import type { AccountSpec } from '../../src/generators/account-spec';
import { defaultAccounts, makeEmulator } from '../support/app';
import { receiver, statusesOf } from '../support/receiver';

type Item = Record<string, any>;
const SID = `AC${'7'.repeat(32)}`;
const TOKEN = 'f'.repeat(32);
const V = `/2010-04-01/Accounts/${SID}`;
/** An account whose created calls end as their To says: the outcomes of every test below. */
const FIXED: AccountSpec = {
  friendlyName: 'Fixed Outcomes',
  calls: 5,
  recordings: 1,
  sid: SID,
  token: TOKEN,
  outcomes: {
    byTo: {
      '+15550000001': 'completed',
      '+15550000002': 'busy',
      '+15550000003': 'no-answer',
      '+15550000004': 'failed',
      '+15550000006': 'canceled',
    },
  },
};
const emulator = () => makeEmulator({ dialect: 'twilio', accounts: [...defaultAccounts, FIXED] });
type App = ReturnType<typeof makeEmulator>['app'];
const auth = (r: request.Test) => r.auth(SID, TOKEN);
const create = (app: App, form: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
  return auth(request(app).post(`${V}/Calls.json`))
    .type('form')
    .send(body.toString());
};
const move = (app: App, advance: string) =>
  request(app).post('/__admin/clock').type('json').send(JSON.stringify({ advance }));
async function settled(app: App): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await request(app).get('/__admin/callbacks')).body.pending === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('callbacks still pending');
}
const base = { From: '+15126002188', Url: 'http://127.0.0.1:1/twiml' };

/** X-Twilio-Signature as Twilio's documentation defines it, computed here from the request received. */
function expectedSignature(url: string, body: string): string {
  const params = [...new URLSearchParams(body)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHmac('sha1', TOKEN)
    .update(url + params.map(([k, v]) => k + v).join(''))
    .digest('base64');
}

describe("POST Calls.json: a create as Twilio's", () => {
  test('201 and the call, queued, in the list and fetched by its sid', async () => {
    const { app } = emulator();
    const res = await create(app, { ...base, To: '+15550000001' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'queued',
      direction: 'outbound-api',
      to: '+15550000001',
      from: '+15126002188',
      start_time: null,
      end_time: null,
      duration: null,
      price: null,
    });
    expect(res.body.sid).toMatch(/^CA[0-9a-f]{32}$/);
    const list = await auth(request(app).get(`${V}/Calls.json?PageSize=1`));
    expect(list.body.calls[0].sid).toBe(res.body.sid);
    const one = await auth(request(app).get(res.body.uri));
    expect([one.status, one.body.status]).toEqual([200, 'queued']);
    await move(app, 'PT1H');
    const after = await auth(request(app).get(res.body.uri));
    expect([after.body.status, after.body.duration === null]).toEqual(['completed', false]);
  });

  // [form, code, message]
  const refusals: [Record<string, string>, number, string][] = [
    [{ From: '+1', Url: 'http://127.0.0.1:1/x' }, 21201, messages.twilioCreateTo],
    [{ To: '+1', Url: 'http://127.0.0.1:1/x' }, 21213, messages.twilioCreateFrom],
    [{ To: '+1', From: '+2' }, 21205, messages.twilioCreateUrl],
    [{ ...base, To: '+1', Record: 'yes' }, 20001, messages.twilioBoolean('Record', 'yes')],
    [
      {
        ...base,
        To: '+1',
        Record: 'true',
        RecordingStatusCallback: 'http://127.0.0.1:9/r',
        RecordingStatusCallbackEvent: 'in-progress',
      },
      20001,
      messages.twilioRecordingInProgress,
    ],
    [{ ...base, To: '+1', Timeout: '0' }, 20001, messages.twilioEnum('Timeout', ['an integer from 1 to 600'], '0')],
    [
      { ...base, To: '+1', StatusCallback: 'http://127.0.0.1:9/s', StatusCallbackEvent: 'hungup' },
      20001,
      messages.twilioEnum('StatusCallbackEvent', ['initiated', 'ringing', 'answered', 'completed'], 'hungup'),
    ],
    [{ ...base, To: '+1', StatusCallback: 'http://10.0.0.1/s' }, 20001, messages.callbackHostRefused('10.0.0.1')],
  ];
  test.each(refusals)('%j: 400, code %i', async (form, code, message) => {
    const { app } = emulator();
    const res = await create(app, form);
    expect(res.body).toEqual({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status: 400 });
  });
});

describe("status callbacks as Twilio sends them: the events asked for, Twilio's statuses, signed", () => {
  // [To, events asked (none: the default), CallStatus of each callback]
  const cases: [string, string[], string[]][] = [
    ['+15550000001', [], ['completed']],
    [
      '+15550000001',
      ['initiated', 'ringing', 'answered', 'completed'],
      ['initiated', 'ringing', 'in-progress', 'completed'],
    ],
    ['+15550000001', ['answered'], ['in-progress']],
    ['+15550000002', [], ['busy']],
    ['+15550000003', ['ringing', 'completed'], ['ringing', 'no-answer']],
    ['+15550000004', ['initiated', 'completed'], ['initiated', 'failed']],
    ['+15550000006', [], ['canceled']],
  ];
  test.each(cases)('To %s, StatusCallbackEvent %j: %j', async (to, events, statuses) => {
    const rx = await receiver();
    try {
      const { app } = emulator();
      const res = await create(app, {
        ...base,
        To: to,
        StatusCallback: `${rx.url}/status?tenant=7`,
        StatusCallbackEvent: events,
      });
      await settled(app);
      await move(app, 'PT1H');
      await settled(app);
      expect(statusesOf(rx.got)).toEqual(statuses);
      rx.got.forEach((got, i) => {
        const p = new URLSearchParams(got.body);
        expect(Object.fromEntries(p)).toMatchObject({
          AccountSid: SID,
          ApiVersion: '2010-04-01',
          CallSid: res.body.sid,
          From: '+15126002188',
          To: to,
          Direction: 'outbound-api',
          CallbackSource: 'call-progress-events',
          SequenceNumber: String(i),
        });
        expect(p.get('Timestamp')).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
        expect(got.url).toBe('/status?tenant=7');
        expect(got.headers['x-twilio-signature']).toBe(expectedSignature(`${rx.url}/status?tenant=7`, got.body));
      });
      const last = new URLSearchParams(rx.got.at(-1)?.body);
      if (last.get('CallStatus') === 'completed') expect(Number(last.get('CallDuration'))).toBeGreaterThan(0);
      // The callbacks made are the call's events.
      const ev = await auth(request(app).get(`${V}/Calls/${res.body.sid}/Events.json`));
      expect(ev.body.events.map((e: Item) => e.request.parameters.CallStatus)).toEqual(statuses);
      expect(ev.body.events[0].response.response_code).toBe(200);
    } finally {
      await rx.close();
    }
  });

  test('a GET callback carries the parameters in its query, and the signature covers the whole URL', async () => {
    const rx = await receiver();
    try {
      const { app } = emulator();
      await create(app, { ...base, To: '+15550000001', StatusCallback: `${rx.url}/s`, StatusCallbackMethod: 'GET' });
      await move(app, 'PT1H');
      await settled(app);
      const [got] = rx.got;
      expect(got?.method).toBe('GET');
      expect(new URLSearchParams(got?.url.split('?')[1]).get('CallStatus')).toBe('completed');
      expect(got?.headers['x-twilio-signature']).toBe(expectedSignature(`${rx.url}${got?.url}`, ''));
    } finally {
      await rx.close();
    }
  });
});

describe('update and delete', () => {
  test('Status=completed hangs up a call in progress; its completed callback goes at once; a second update is 21220', async () => {
    const rx = await receiver();
    try {
      const { app } = emulator();
      const res = await create(app, {
        ...base,
        To: '+15550000001',
        StatusCallback: `${rx.url}/s`,
        StatusCallbackEvent: ['answered', 'completed'],
      });
      // Answered within 20 s; the talk lasts minutes.
      await move(app, 'PT25S');
      await settled(app);
      expect(statusesOf(rx.got)).toEqual(['in-progress']);
      const up = await auth(request(app).post(res.body.uri)).type('form').send('Status=completed');
      expect([up.status, up.body.status, up.body.sid]).toEqual([200, 'completed', res.body.sid]);
      await settled(app);
      expect(statusesOf(rx.got)).toEqual(['in-progress', 'completed']);
      const fetched = await auth(request(app).get(res.body.uri));
      expect([fetched.body.status, fetched.body.duration]).toEqual(['completed', up.body.duration]);
      await move(app, 'PT1H');
      await settled(app);
      expect(statusesOf(rx.got)).toEqual(['in-progress', 'completed']);
      const again = await auth(request(app).post(res.body.uri)).type('form').send('Status=completed');
      expect([again.status, again.body.code, again.body.message]).toEqual([400, 21220, messages.twilioNotInProgress]);
    } finally {
      await rx.close();
    }
  });

  test('Status=canceled ends a queued call canceled; it is ignored on an answered one; other values are refused', async () => {
    const { app } = emulator();
    const res = await create(app, { ...base, To: '+15550000001' });
    const up = await auth(request(app).post(res.body.uri)).type('form').send('Status=canceled');
    expect([up.status, up.body.status]).toEqual([200, 'canceled']);
    const other = await create(app, { ...base, To: '+15550000001' });
    await move(app, 'PT25S');
    const ignored = await auth(request(app).post(other.body.uri)).type('form').send('Status=canceled');
    expect([ignored.status, ignored.body.status]).toEqual([200, 'in-progress']);
    const bad = await auth(request(app).post(other.body.uri)).type('form').send('Status=stopped');
    expect([bad.status, bad.body.message]).toEqual([400, messages.twilioUpdateStatus('stopped')]);
  });

  test('DELETE a call and a recording: 204, then 404', async () => {
    const { app } = emulator();
    const list = await auth(request(app).get(`${V}/Recordings.json`));
    const rec = list.body.recordings[0];
    const del = await auth(request(app).delete(rec.uri));
    expect([del.status, del.text]).toEqual([204, '']);
    expect((await auth(request(app).get(rec.uri))).status).toBe(404);
    const calls = await auth(request(app).get(`${V}/Calls.json`));
    const call = calls.body.calls[0];
    expect((await auth(request(app).delete(call.uri))).status).toBe(204);
    const gone = await auth(request(app).delete(call.uri));
    expect([gone.status, gone.body.code]).toEqual([404, 20404]);
    const after = await auth(request(app).get(`${V}/Calls.json`));
    expect(after.body.calls.map((c: Item) => c.sid)).not.toContain(call.sid);
  });
});

describe('sandboxes, the clock, resets and the state in the dialect', () => {
  test("a sandbox is an account of Twilio's: its own sid, token and API key, the parent's calls, writes of its own", async () => {
    const { app } = emulator();
    const fork = await request(app)
      .post('/__admin/sandboxes')
      .type('json')
      .send(JSON.stringify({ from: SID }));
    expect(fork.status).toBe(201);
    const {
      sid,
      token,
      api_key: key,
    } = fork.body as { sid: string; token: string; api_key: { sid: string; secret: string } };
    const mine = await request(app).get(`/2010-04-01/Accounts/${sid}/Calls.json`).auth(sid, token);
    const theirs = await auth(request(app).get(`${V}/Calls.json`));
    expect(mine.body.calls.map((c: Item) => c.sid)).toEqual(theirs.body.calls.map((c: Item) => c.sid));
    expect(mine.body.calls[0].account_sid).toBe(sid);
    const byKey = await request(app).get(`/2010-04-01/Accounts/${sid}/Calls.json`).auth(key.sid, key.secret);
    expect(byKey.status).toBe(200);
    const created = await request(app)
      .post(`/2010-04-01/Accounts/${sid}/Calls.json`)
      .auth(sid, token)
      .type('form')
      .send(new URLSearchParams({ ...base, To: '+15550000001' }).toString());
    expect(created.status).toBe(201);
    const after = await auth(request(app).get(`${V}/Calls.json`));
    expect(after.body.calls.map((c: Item) => c.sid)).not.toContain(created.body.sid);
    // The state export holds the created call; an import into a fresh emulator answers alike.
    const state = await request(app).get(`/__admin/accounts/${sid}/state`);
    expect(state.status).toBe(200);
    const hash = (await request(app).get('/__admin/state/hash')).body.hash;
    const whole = await request(app).get('/__admin/state');
    const other = emulator();
    const put = await request(other.app).put('/__admin/state').type('json').send(JSON.stringify(whole.body));
    expect(put.status).toBe(200);
    expect((await request(other.app).get('/__admin/state/hash')).body.hash).toBe(hash);
    const again = await request(other.app)
      .get(`/2010-04-01/Accounts/${sid}/Calls/${created.body.sid}.json`)
      .auth(sid, token);
    expect([again.status, again.body.to]).toEqual([200, '+15550000001']);
    // A reset takes a write back; an admin error keeps the admin API's own shape.
    const mine2 = await create(app, { ...base, To: '+15550000001' });
    expect((await auth(request(app).get(`${V}/Calls.json?PageSize=1000`))).body.calls).toHaveLength(6);
    const reset = await request(app).post(`/__admin/accounts/${SID}/reset`);
    expect(reset.status).toBe(200);
    const afterReset = await auth(request(app).get(`${V}/Calls.json?PageSize=1000`));
    expect(afterReset.body.calls.map((c: Item) => c.sid)).not.toContain(mine2.body.sid);
    expect(afterReset.body.calls).toHaveLength(5);
    const bad = await request(app).post('/__admin/clock').type('json').send('{"advance": "soon"}');
    expect([bad.status, Object.keys(bad.body)]).toEqual([400, ['message']]);
  });
});

test("a state export keeps a created call's StatusCallbackEvent: the imported call sends those states alone", async () => {
  const rx = await receiver();
  try {
    const { app } = emulator();
    const made = await create(app, {
      ...base,
      To: '+15550000001',
      StatusCallback: `${rx.url}/s`,
      StatusCallbackEvent: ['answered'],
    });
    expect(made.status).toBe(201);
    const state = await request(app).get('/__admin/state');
    const [mine] = (state.body.accounts as Item[]).filter((a) => a.sid === SID);
    const [created] = ((mine as Item).inserted_calls as Item[]).filter((c) => c.sid.endsWith(made.body.sid));
    expect(created?.created).toMatchObject({ status_callback: `${rx.url}/s`, status_callback_event: 'answered' });
    const other = emulator();
    const put = await request(other.app).put('/__admin/state').type('json').send(JSON.stringify(state.body));
    expect(put.status).toBe(200);
    await move(other.app, 'PT1H');
    await settled(other.app);
    expect(statusesOf(rx.got)).toEqual(['in-progress']);
  } finally {
    await rx.close();
  }
});

test("a fault scoped to an account, and the journal by account, see the account's Twilio paths", async () => {
  const { app } = emulator();
  const fault = await request(app)
    .post('/__admin/faults')
    .type('json')
    .send(JSON.stringify({ account: SID, status: 503, times: 1 }));
  expect(fault.status).toBe(201);
  const hit = await auth(request(app).get(`${V}/Calls.json`));
  expect([hit.status, hit.body.code, hit.body.status]).toEqual([503, 20503, 503]);
  expect((await auth(request(app).get(`${V}/Calls.json`))).status).toBe(200);
  const journal = await request(app).get(`/__admin/requests?account=${SID}`);
  const paths = (journal.body.requests as Item[]).map((r) => r.path);
  expect(paths.filter((p) => p === `${V}/Calls.json`)).toHaveLength(2);
});

describe("Record=true: a created call's recording and its recording status callbacks", () => {
  test('an answered call: its recording appears as it ends, in both lists, and a signed completed callback names it', async () => {
    const rx = await receiver();
    try {
      const { app } = emulator();
      const made = await create(app, {
        ...base,
        To: '+15550000001',
        Record: 'true',
        RecordingStatusCallback: `${rx.url}/rec`,
      });
      const under = `${V}/Calls/${made.body.sid}/Recordings.json`;
      expect((await auth(request(app).get(under))).body.recordings).toEqual([]);
      await move(app, 'PT1H');
      await settled(app);
      const call = (await auth(request(app).get(made.body.uri))).body;
      expect(call.status).toBe('completed');
      const [rec] = (await auth(request(app).get(under))).body.recordings as Item[];
      expect([rec?.call_sid, rec?.duration, rec?.start_time]).toEqual([made.body.sid, call.duration, call.start_time]);
      const listed = await auth(request(app).get(`${V}/Recordings.json?CallSid=${made.body.sid}`));
      expect(listed.body.recordings.map((r: Item) => r.sid)).toEqual([rec?.sid]);
      const media = await request(app).get(listed.body.recordings[0].media_url.replace('http://127.0.0.1:8080', ''));
      expect([media.status, media.headers['content-type']]).toEqual([200, 'audio/wav']);
      expect(rx.got).toHaveLength(1);
      const [got] = rx.got;
      const p = Object.fromEntries(new URLSearchParams(got?.body));
      expect(p).toEqual({
        AccountSid: SID,
        CallSid: made.body.sid,
        RecordingSid: rec?.sid,
        RecordingStatus: 'completed',
        RecordingUrl: listed.body.recordings[0].media_url,
        RecordingDuration: call.duration,
        RecordingChannels: '1',
        RecordingStartTime: call.start_time,
        RecordingSource: 'RecordVerb',
        ErrorCode: '0',
      });
      expect(got?.headers['x-twilio-signature']).toBe(expectedSignature(`${rx.url}/rec`, got?.body ?? ''));
    } finally {
      await rx.close();
    }
  });

  test('a call that ends unanswered makes no recording; absent is sent where asked for', async () => {
    const rx = await receiver();
    try {
      const { app } = emulator();
      const made = await create(app, {
        ...base,
        To: '+15550000002',
        Record: 'true',
        RecordingStatusCallback: `${rx.url}/rec`,
        RecordingStatusCallbackEvent: ['completed', 'absent'],
      });
      await move(app, 'PT1H');
      await settled(app);
      expect((await auth(request(app).get(`${V}/Calls/${made.body.sid}/Recordings.json`))).body.recordings).toEqual([]);
      expect(rx.got.map((g) => Object.fromEntries(new URLSearchParams(g.body)))).toEqual([
        { AccountSid: SID, CallSid: made.body.sid, RecordingStatus: 'absent', ErrorCode: '0' },
      ]);
    } finally {
      await rx.close();
    }
  });

  test('hung up by an update, the recording is made at once; a state export keeps Record for its import', async () => {
    const { app } = emulator();
    const made = await create(app, { ...base, To: '+15550000001', Record: 'true' });
    await move(app, 'PT25S');
    const state = await request(app).get('/__admin/state');
    const up = await auth(request(app).post(made.body.uri)).type('form').send('Status=completed');
    expect(up.body.status).toBe('completed');
    const recs = (await auth(request(app).get(`${V}/Calls/${made.body.sid}/Recordings.json`))).body
      .recordings as Item[];
    expect(recs.map((r) => r.duration)).toEqual([up.body.duration]);
    // The state taken before the end holds the call as created, Record and all: imported, it records.
    const other = emulator();
    expect((await request(other.app).put('/__admin/state').type('json').send(JSON.stringify(state.body))).status).toBe(
      200,
    );
    await move(other.app, 'PT1H');
    const theirs = await request(other.app).get(`${V}/Calls/${made.body.sid}/Recordings.json`).auth(SID, TOKEN);
    expect(theirs.body.recordings).toHaveLength(1);
  });
});
