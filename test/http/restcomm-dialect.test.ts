import { createHash } from 'node:crypto';
import request from 'supertest';
import { REALM } from '../../src/auth';
import { messages } from '../../src/errors';
import { DEFAULT_ORGANIZATION } from '../../src/format/account';
import { rfc2822Date } from '../../src/format/dates';
import { accountEmail } from '../../src/generators/account';
import { accountCreatedSec } from '../../src/generators/timeline';
import { byCalls, makeEmulator, PUBLIC_URL } from '../support/app';

type Item = Record<string, any>;
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const get = (app: Parameters<typeof request>[0], path: string, user: string, pass: string) =>
  request(app).get(path).set('Authorization', basic(user, pass)).set('Accept', 'application/json');

// The token Restcomm's own test suite gives its administrator: the MD5 of the password "RestComm".
const CONSOLE_TOKEN = createHash('md5').update('RestComm').digest('hex');
const { app, world } = makeEmulator({
  dialect: 'restcomm',
  accounts: [
    { friendlyName: 'Acme Support Line', calls: 448, recordings: 160 },
    { friendlyName: 'Globex Sales', calls: 50, recordings: 34 },
    { friendlyName: 'Console', calls: 3, recordings: 1, token: CONSOLE_TOKEN },
  ],
});
const big = byCalls(world, 448);
const other = byCalls(world, 50);
const consoleAccount = byCalls(world, 3);
const spec = makeEmulator();
const specBig = byCalls(spec.world, 448);

const RC = '/restcomm/2012-04-24/Accounts';

describe('--dialect restcomm: logins as Restcomm takes them', () => {
  const path = (sid: string) => `${RC}/${sid}/Calls.json`;

  test.each([
    ['AccountSid:AuthToken', () => [big.sid, big.token]],
    ['email:AuthToken', () => [big.store.profile.email, big.token]],
    ['the token as the user name, as the service takes it', () => [big.token, '']],
    [
      'email and the password whose MD5 is the token (the console)',
      () => [consoleAccount.store.profile.email, 'RestComm'],
    ],
    ['AccountSid and the MD5 itself', () => [consoleAccount.sid, CONSOLE_TOKEN]],
  ])('%s logs in', async (_name, creds) => {
    const [user, pass] = creds() as [string, string];
    const account = world
      .accounts()
      .find((a) => a.profile.email === user || a.profile.sid === user || a.profile.token === user)!;
    const res = await get(app, path(account.profile.sid), user, pass);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(account.calls.count);
  });

  test.each([
    ['a wrong token', () => [big.sid, other.token]],
    ['no password', () => [big.sid, '']],
    ['an unknown email', () => ['nobody@example.com', big.token]],
    ['a friendly name (Restcomm refuses them)', () => ['Acme Support Line', big.token]],
  ])('%s is a 401 with the challenge and what to send', async (_name, creds) => {
    const [user, pass] = creds() as [string, string];
    const res = await get(app, path(big.sid), user, pass);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(`Basic realm="${REALM}"`);
    expect(res.body).toEqual({ message: messages.unknownCredentialsRestcomm });
  });

  test('no credentials are told what to send, which differs from credentials that name no account', async () => {
    const res = await request(app).get(path(big.sid)).set('Accept', 'application/json');
    expect([res.status, res.body]).toEqual([401, { message: messages.unauthorizedRestcomm }]);
    expect(messages.unauthorizedRestcomm).not.toBe(messages.unknownCredentialsRestcomm);
  });

  test("another account's list is a 403, as production answers", async () => {
    const res = await get(app, path(other.sid), big.sid, big.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: messages.forbidden(other.sid) });
  });

  test('the default dialect keeps the token as the user name, and says so to an AccountSid login', async () => {
    const res = await get(spec.app, `/call/2012-04-24/Accounts/${specBig.sid}/Calls.json`, specBig.sid, specBig.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: messages.unauthorizedSid });
    expect(messages.unauthorizedSid).toContain('--dialect restcomm');
    const restcommPath = await get(spec.app, `${RC}/${specBig.sid}/Calls.json`, specBig.token, '');
    expect(restcommPath.status).toBe(404);
    expect((await get(spec.app, `${RC}/${specBig.sid}.json`, specBig.token, '')).status).toBe(404);
  });
});

describe('--dialect restcomm: the account resource', () => {
  const expected = (sid: string) => {
    const a = world.account(sid)!;
    const date = rfc2822Date(accountCreatedSec(a.context, a.profile, a.spec.calls));
    // No /restcomm: production's converter builds them from the API version alone.
    const sub = (name: string) => `/2012-04-24/Accounts/${sid}/${name}.json`;
    return {
      sid,
      organization: DEFAULT_ORGANIZATION,
      friendly_name: a.profile.friendlyName,
      email_address: accountEmail(a.profile.friendlyName, sid),
      type: 'Full',
      status: 'active',
      role: 'Developer',
      date_created: date,
      date_updated: date,
      auth_token: a.profile.token,
      uri: `/2012-04-24/Accounts.json/${sid}`,
      subresource_uris: {
        available_phone_numbers: sub('AvailablePhoneNumbers'),
        calls: sub('Calls'),
        conferences: sub('Conferences'),
        incoming_phone_numbers: sub('IncomingPhoneNumbers'),
        notifications: sub('Notifications'),
        outgoing_caller_ids: sub('OutgoingCallerIds'),
        recordings: sub('Recordings'),
        sandbox: sub('Sandbox'),
        sms_messages: sub('SMS/Messages'),
        transcriptions: sub('Transcriptions'),
      },
    };
  };

  test.each([
    ['Accounts/{sid}.json', () => `${RC}/${big.sid}.json`],
    ['Accounts.json/{sid}', () => `/restcomm/2012-04-24/Accounts.json/${big.sid}`],
    [
      'Accounts.json/{email} (the console logs in so)',
      () => `/restcomm/2012-04-24/Accounts.json/${big.store.profile.email}`,
    ],
    ['Accounts/{sid} with Accept: application/json', () => `${RC}/${big.sid}`],
    ['under /call too', () => `/call/2012-04-24/Accounts/${big.sid}.json`],
  ])('%s: keys and values as Restcomm writes them', async (_name, path) => {
    const res = await get(app, path(), big.sid, big.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe(JSON.stringify(expected(big.sid)));
  });

  test('its uri is requestable as it stands; created a day before the oldest call', async () => {
    const res = await get(app, `${RC}/${big.sid}.json`, big.sid, big.token);
    expect((await get(app, res.body.uri, big.sid, big.token)).text).toBe(res.text);
    const calls = await get(app, `${RC}/${big.sid}/Calls.json?PageSize=1&Page=447`, big.sid, big.token);
    const oldest = Date.parse(calls.body.calls[0].date_created) / 1000;
    expect(oldest - Date.parse(res.body.date_created) / 1000).toBe(86_400);
  });

  test.each([
    ['another account', () => other.sid],
    ["another account's email", () => other.store.profile.email],
    ['an unknown sid', () => `AC${'0'.repeat(32)}`],
  ])('%s is a 403', async (_name, ref) => {
    const res = await get(app, `${RC}/${ref()}.json`, big.sid, big.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: messages.forbidden(ref()) });
  });

  test('without .json: XML where Accept admits it, a 406 where it admits neither; POST is a 405', async () => {
    const auth = basic(big.sid, big.token);
    const xml = await request(app).get(`${RC}/${big.sid}`).set('Authorization', auth).set('Accept', 'application/xml');
    expect([xml.status, xml.headers['content-type']]).toEqual([200, 'application/xml']);
    const html = await request(app).get(`${RC}/${big.sid}`).set('Authorization', auth).set('Accept', 'text/html');
    expect([html.status, html.body]).toEqual([406, { message: messages.notAcceptableRestcomm }]);
    const post = await request(app).post(`${RC}/${big.sid}.json`).set('Authorization', auth);
    expect(post.status).toBe(405);
  });
});

describe("--dialect restcomm: links follow Restcomm's own prefixes", () => {
  const list = async (path: string) => (await get(app, path, big.sid, big.token)).body as Item;

  test.each([
    // Restcomm builds the calls list's uri from the API version alone, whatever the request.
    ['/restcomm', 'Calls', `/2012-04-24/Accounts/{sid}/Calls`],
    ['', 'Calls', `/2012-04-24/Accounts/{sid}/Calls`],
    ['/call', 'Calls', `/2012-04-24/Accounts/{sid}/Calls`],
    // and the recordings list's from the request path, less .json (AcceptFilter).
    ['/restcomm', 'Recordings', `/restcomm/2012-04-24/Accounts/{sid}/Recordings`],
    ['', 'Recordings', `/2012-04-24/Accounts/{sid}/Recordings`],
    ['/call', 'Recordings', `/call/2012-04-24/Accounts/{sid}/Recordings`],
  ])('under %s, the %s list prints %s', async (mount, name, uri) => {
    const body = await list(`${mount}/2012-04-24/Accounts/${big.sid}/${name}.json?PageSize=10`);
    expect(body.uri).toBe(uri.replace('{sid}', big.sid));
    expect(body.next_page_uri).toBe(`${body.uri}?Page=1&PageSize=10&AfterSid=${body[name.toLowerCase()][9].sid}`);
  });

  test('every printed link answers as it stands, and file_uri is under /restcomm, as production formats it', async () => {
    for (const name of ['Calls', 'Recordings']) {
      const first = await list(`${RC}/${big.sid}/${name}.json?PageSize=50`);
      for (const key of ['first_page_uri', 'next_page_uri', 'last_page_uri']) {
        const res = await get(app, first[key], big.sid, big.token);
        expect([res.status, key]).toEqual([200, key]);
        expect(res.headers['x-emulator-warning']).toBeUndefined();
      }
      for (const item of first[name.toLowerCase()] as Item[]) {
        expect((await get(app, item['uri'], big.sid, big.token)).status).toBe(200);
      }
    }
    const recs = await list(`${RC}/${big.sid}/Recordings.json?PageSize=2`);
    const rec = recs['recordings'][0] as Item;
    expect(rec['file_uri']).toBe(`${PUBLIC_URL}${RC}/${big.sid}/Recordings/${rec['sid']}.wav`);
    const audio = await request(app).get(rec['file_uri'].slice(PUBLIC_URL.length));
    expect([audio.status, audio.headers['content-type']]).toEqual([200, 'audio/wav']);
  });

  // curl sends Accept: */*, and production answers XML there, as the emulator now does.
  test.each([['*/*'], ['application/*'], ['text/html, */*;q=0.1'], [undefined]])(
    'the printed next-page link fetched with Accept %s answers the page in XML',
    async (accept) => {
      const first = await list(`${RC}/${big.sid}/Calls.json?PageSize=10`);
      const req = request(app).get(first['next_page_uri']).set('Authorization', basic(big.sid, big.token));
      const res = await (accept === undefined ? req.unset('Accept') : req.set('Accept', accept));
      expect([res.status, res.headers['content-type']]).toEqual([200, 'application/xml']);
      expect(res.text).toContain('<Calls page="1" ');
    },
  );

  test('the items are the same bytes under every prefix and in the default dialect', async () => {
    const spec3 = makeEmulator({ accounts: [{ friendlyName: 'Acme Support Line', calls: 448, recordings: 160 }] });
    const s = byCalls(spec3.world, 448);
    const specCalls = await get(spec3.app, `/call/2012-04-24/Accounts/${s.sid}/Calls.json?PageSize=20`, s.token, '');
    for (const mount of ['/restcomm', '', '/call']) {
      const res = await list(`${mount}/2012-04-24/Accounts/${big.sid}/Calls.json?PageSize=20`);
      expect(JSON.stringify(res['calls'])).toBe(JSON.stringify(specCalls.body.calls));
    }
  });

  test('the state hash names the dialect (links and file_uri differ), the default one does not change', async () => {
    const accounts = [{ friendlyName: 'Acme Support Line', calls: 448, recordings: 160 }];
    const one = makeEmulator({ accounts });
    const two = makeEmulator({ accounts, dialect: 'spec' });
    const three = makeEmulator({ accounts, dialect: 'restcomm' });
    const hash = async (a: typeof one) => (await request(a.app).get('/__admin/state/hash')).body.hash as string;
    expect(await hash(two)).toBe(await hash(one));
    expect(await hash(three)).not.toBe(await hash(one));
  });
});

describe('links a client cannot follow, in either dialect', () => {
  test.each([
    [app, '/null'],
    [app, '/restcomm/null'],
    [spec.app, '/call/null'],
  ])('%#: the "null" neighbour link requested as a path is a 404 saying what "null" means', async (a, path) => {
    const res = await request(a).get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: messages.notFoundNull('GET', path) });
  });

  test('a /restcomm prefix given twice is a 404 naming the path to request', async () => {
    const path = `/restcomm${RC}/${big.sid}/Recordings`;
    const res = await get(app, path, big.sid, big.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: messages.notFoundDoubled('GET', path, '/restcomm', `${RC}/${big.sid}/Recordings`),
    });
  });
});

describe('--dialect restcomm: the harness knows the account under every prefix', () => {
  test.each([
    ['/restcomm', (sid: string) => `/restcomm/2012-04-24/Accounts/${sid}/Calls.json`],
    ['the servlet path', (sid: string) => `/2012-04-24/Accounts/${sid}/Recordings.json`],
    ['Accounts.json/{sid}', (sid: string) => `/restcomm/2012-04-24/Accounts.json/${sid}`],
    ['Accounts/{sid}.json', (sid: string) => `/restcomm/2012-04-24/Accounts/${sid}.json`],
  ])('%s: the journal files the request under its account', async (_name, path) => {
    const own = makeEmulator({ dialect: 'restcomm' });
    const a = byCalls(own.world, 448);
    expect((await get(own.app, path(a.sid), a.sid, a.token)).status).toBe(200);
    const journal = await request(own.app).get(`/__admin/requests?account=${a.sid}`);
    expect(journal.body.requests.map((r: Item) => r['path'])).toEqual([path(a.sid)]);
  });
});
