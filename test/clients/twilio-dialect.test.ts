import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import twilio6 from 'twilio';
import twilio4 from 'twilio-v4';
import twilio5 from 'twilio-v5';
import ts from 'typescript';
import { type EmulatorHandle, startEmulator } from '../../src/emulator';
import { receiver, statusesOf } from '../support/receiver';

/**
 * twilio-node, unchanged, against `--dialect twilio`: the current major and the two before it,
 * each given only credentials and the emulator as its API's base URL (`client.api.baseUrl`).
 * One account of 10,000 calls and its recordings is walked every way the library walks.
 */
type Item = Record<string, unknown> & { sid: string };
const LIBRARIES: [string, (sid: string, token: string, opts?: Record<string, unknown>) => any][] = [
  ['6.x', (sid, token, opts) => twilio6(sid, token, opts)],
  ['5.x', (sid, token, opts) => twilio5(sid, token, opts)],
  ['4.x', (sid, token, opts) => twilio4(sid, token, opts)],
];

let em: EmulatorHandle;
let sid: string;
let token: string;
/** Every call and recording as the emulator lists them, in one walk of raw requests. */
const all: { calls: Item[]; recordings: Item[] } = { calls: [], recordings: [] };

async function rawWalk(list: 'Calls' | 'Recordings'): Promise<Item[]> {
  const items: Item[] = [];
  let next: string | null = `/2010-04-01/Accounts/${sid}/${list}.json?PageSize=1000`;
  while (next !== null) {
    const res = await fetch(`${em.url}${next}`, {
      headers: { Authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}` },
    });
    const body = (await res.json()) as Record<string, unknown>;
    items.push(...(body[list.toLowerCase()] as Item[]));
    next = body['next_page_uri'] as string | null;
  }
  return items;
}

beforeAll(async () => {
  em = await startEmulator({
    dialect: 'twilio',
    seed: 'twilio-node',
    fixtures: { accounts: [{ friendly_name: 'Ten Thousand', calls: 10_000, recordings: 2_500 }] },
  });
  const [first] = em.accounts;
  sid = first?.sid as string;
  token = first?.token as string;
  all.calls = await rawWalk('Calls');
  all.recordings = await rawWalk('Recordings');
}, 60_000);
afterAll(async () => {
  await em.close();
});

const sids = (items: { sid: string }[]) => items.map((i) => i.sid);
const ms = (text: unknown) => (text === null ? Number.NaN : Date.parse(String(text)));

describe.each(LIBRARIES)('twilio-node %s', (_version, make) => {
  const client = () => {
    const c = make(sid, token);
    c.api.baseUrl = em.url;
    return c;
  };

  test('the raw walk holds every call and recording', () => {
    expect(all.calls).toHaveLength(10_000);
    expect(all.recordings).toHaveLength(2_500);
  });

  test('page() and nextPage() walk every page of the calls, in order, once each', async () => {
    const seen: string[] = [];
    let page = await client().calls.page({ pageSize: 1000 });
    for (;;) {
      seen.push(...page.instances.map((c: Item) => c.sid));
      const next = await page.nextPage();
      if (next === undefined) break;
      page = next;
    }
    expect(seen).toEqual(sids(all.calls));
  });

  test('each() visits every recording; list() with a limit stops there', async () => {
    const seen: string[] = [];
    await client().recordings.each({ pageSize: 200 }, (r: Item) => {
      seen.push(r.sid);
    });
    expect(seen).toEqual(sids(all.recordings));
    const first = await client().recordings.list({ limit: 120 });
    expect(sids(first)).toEqual(sids(all.recordings).slice(0, 120));
  });

  test('list() with each calls filter gives what the filter keeps of the whole list', async () => {
    const c = all.calls[1234] as Item;
    const day = new Date(ms(c['start_time']));
    const cases: [Record<string, unknown>, (x: Item) => boolean][] = [
      [{ status: 'busy' }, (x) => x['status'] === 'busy'],
      [{ to: c['to'] }, (x) => x['to'] === c['to']],
      [{ from: c['from'] }, (x) => x['from'] === c['from']],
      [{ startTimeAfter: day }, (x) => ms(x['start_time']) >= day.getTime()],
      [{ startTimeBefore: day }, (x) => ms(x['start_time']) <= day.getTime()],
      [{ endTimeBefore: day }, (x) => ms(x['end_time']) <= day.getTime()],
      [{ endTimeAfter: day, status: 'completed' }, (x) => ms(x['end_time']) >= day.getTime()],
      [{ parentCallSid: `CA${'1'.repeat(32)}` }, () => false],
    ];
    for (const [params, keeps] of cases) {
      const listed = await client().calls.list({ ...params, pageSize: 1000 });
      const kept = all.calls.filter(keeps);
      expect([params, sids(listed)]).toEqual([params, sids(kept)]);
      // Each filter but the parent's keeps some calls and drops others: no case passes empty.
      if (params['parentCallSid'] === undefined)
        expect([params, kept.length > 0 && kept.length < 10_000]).toEqual([params, true]);
    }
  });

  test('the recordings filters: callSid, dateCreatedAfter and dateCreatedBefore', async () => {
    const r = all.recordings[700] as Item;
    const at = new Date(ms(r['date_created']));
    const byCall = await client().recordings.list({ callSid: r['call_sid'], pageSize: 1000 });
    expect(sids(byCall)).toEqual(sids(all.recordings.filter((x) => x['call_sid'] === r['call_sid'])));
    const after = await client().recordings.list({ dateCreatedAfter: at, pageSize: 1000 });
    expect(sids(after)).toEqual(sids(all.recordings.filter((x) => ms(x['date_created']) >= at.getTime())));
    const before = await client().recordings.list({ dateCreatedBefore: at, pageSize: 1000 });
    expect(sids(before)).toEqual(sids(all.recordings.filter((x) => ms(x['date_created']) <= at.getTime())));
  });

  test("an API key bound to the account: the library's (apiKey, apiSecret, { accountSid })", async () => {
    const { sid: keySid, secret } = (em.accounts[0] as { api_key: { sid: string; secret: string } }).api_key;
    const c = make(keySid, secret, { accountSid: sid });
    c.api.baseUrl = em.url;
    expect(sids(await c.calls.list({ limit: 20 }))).toEqual(sids(all.calls.slice(0, 20)));
  });

  test("fetch a call and a recording; an unknown sid is the library's RestException", async () => {
    const c = all.calls[42] as Item;
    const call = await client().calls(c.sid).fetch();
    expect([call.sid, call.status, call.to, call.dateCreated.getTime()]).toEqual([
      c.sid,
      c['status'],
      c['to'],
      ms(c['date_created']),
    ]);
    const r = all.recordings[42] as Item;
    const rec = await client().recordings(r.sid).fetch();
    expect([rec.sid, rec.callSid, rec.mediaUrl]).toEqual([r.sid, r['call_sid'], r['media_url']]);
    await expect(
      client()
        .calls(`CA${'0'.repeat(32)}`)
        .fetch(),
    ).rejects.toMatchObject({ status: 404, code: 20404 });
  });
});

/** The emulator's admin API, as a test drives it. */
async function admin(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${em.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}
async function settled(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if ((await admin('GET', '/__admin/callbacks')).pending === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('callbacks still pending');
}
const VALIDATORS: Record<string, typeof twilio6.validateRequest> = {
  '6.x': twilio6.validateRequest,
  '5.x': twilio5.validateRequest,
  '4.x': twilio4.validateRequest,
};

describe.each(LIBRARIES)('twilio-node %s writes', (version, make) => {
  const client = (opts?: Record<string, unknown>) => {
    const c = make(sid, token, opts);
    c.api.baseUrl = em.url;
    return c;
  };

  test("create a call with a StatusCallback: every callback passes the library's own validateRequest", async () => {
    const rx = await receiver();
    try {
      const call = await client().calls.create({
        to: '+15550000001',
        from: '+15126002188',
        url: 'http://127.0.0.1:1/twiml',
        statusCallback: `${rx.url}/status`,
        statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      });
      expect([call.status, call.direction, call.sid]).toEqual(['queued', 'outbound-api', expect.stringMatching(/^CA/)]);
      await settled();
      await admin('POST', '/__admin/clock', { advance: 'PT1H' });
      await settled();
      const statuses = statusesOf(rx.got);
      expect(statuses[0]).toBe('initiated');
      expect(['completed', 'busy', 'no-answer', 'failed', 'canceled']).toContain(statuses.at(-1));
      const validate = VALIDATORS[version] as typeof twilio6.validateRequest;
      for (const got of rx.got) {
        const params = Object.fromEntries(new URLSearchParams(got.body));
        const signature = String(got.headers['x-twilio-signature']);
        expect(params['CallSid']).toBe(call.sid);
        expect(validate(token, signature, `${rx.url}${got.url}`, params)).toBe(true);
        expect(validate('0'.repeat(32), signature, `${rx.url}${got.url}`, params)).toBe(false);
      }
    } finally {
      await rx.close();
    }
  });

  test('update ends a queued call canceled; remove deletes a call and a recording', async () => {
    const call = await client().calls.create({ to: '+15550000009', from: '+15126002188', twiml: '<Response/>' });
    const updated = await client().calls(call.sid).update({ status: 'completed' });
    expect([updated.sid, updated.status]).toEqual([call.sid, 'canceled']);
    expect(await client().calls(call.sid).remove()).toBe(true);
    await expect(client().calls(call.sid).fetch()).rejects.toMatchObject({ status: 404, code: 20404 });
    const [rec] = await client().recordings.list({ limit: 1 });
    expect(await client().recordings(rec.sid).remove()).toBe(true);
    await expect(client().recordings(rec.sid).fetch()).rejects.toMatchObject({ status: 404 });
  });

  // twilio-node 4.x has no autoRetry: its RestException is what it meets.
  test("a 429 fault: the library's RestException, and with autoRetry (5.x, 6.x) its own retries get through", async () => {
    const fault = { path: `/2010-04-01/Accounts/${sid}/Calls.json`, status: 429, headers: { 'Retry-After': '1' } };
    try {
      await admin('POST', '/__admin/faults', { ...fault, times: 1 });
      await expect(client().calls.list({ limit: 3 })).rejects.toMatchObject({ status: 429, code: 20429 });
      if (version === '4.x') return;
      await admin('POST', '/__admin/faults', { ...fault, times: 2 });
      const calls = await client({ autoRetry: true, maxRetries: 3 }).calls.list({ limit: 3 });
      // The newest three: the calls created above lead the list.
      expect(sids(calls)).toEqual(sids(await client().calls.list({ limit: 3 })));
      const journal = await em.requests({ limit: 4 });
      expect(journal.map((r) => r.status)).toEqual([200, 200, 429, 429]);
    } finally {
      await admin('DELETE', '/__admin/faults');
    }
  });
});

describe("README's snippets for twilio-node and twilio-python, as printed", () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const block = (lang: string, needle: string) =>
    [...readme.matchAll(new RegExp(`\`\`\`${lang}\n([\\s\\S]*?)\`\`\``, 'g'))]
      .map((m) => m[1] as string)
      .find((b) => b.includes(needle));

  test('both print the busy calls of the default account, newest first, a line each', async () => {
    const node = block('ts', 'client.api.baseUrl');
    const python = block('python', 'client.api.base_url');
    expect([node, python]).toEqual([expect.any(String), expect.any(String)]);
    const dflt = await startEmulator({ dialect: 'twilio' });
    try {
      const [first] = dflt.accounts;
      const res = await fetch(`${dflt.url}/2010-04-01/Accounts/${first?.sid}/Calls.json?PageSize=1000&Status=busy`, {
        headers: { Authorization: `Basic ${Buffer.from(`${first?.sid}:${first?.token}`).toString('base64')}` },
      });
      const busy = ((await res.json()) as { calls: Item[] }).calls.map((c) => `${c.sid} ${c['to']}`);
      expect(busy.length).toBeGreaterThan(0);
      const body = (node as string)
        .replace("import twilio from 'twilio';", '')
        .replaceAll('http://127.0.0.1:8080', dflt.url);
      const js = ts.transpileModule(`exports.run = (async () => {${body}})();`, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const printed: string[] = [];
      const exported: { run?: Promise<void> } = {};
      new Function('exports', 'twilio', 'console', js)(exported, twilio6, {
        log: (...parts: unknown[]) => printed.push(parts.join(' ')),
      });
      await exported.run;
      expect(printed).toEqual(busy);
      if (!existsSync('/usr/bin/python3') || spawnSync('/usr/bin/python3', ['-c', 'import twilio.rest']).status !== 0)
        return;
      // Not spawnSync: the emulator answering it runs in this process.
      const script = (python as string).replaceAll('http://127.0.0.1:8080', dflt.url);
      const py = await promisify(execFile)('/usr/bin/python3', ['-c', script]);
      expect(py.stdout.trim().split('\n')).toEqual(busy);
    } finally {
      await dflt.close();
    }
  });
});
