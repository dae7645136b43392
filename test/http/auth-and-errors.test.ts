import request from 'supertest';
import { messages } from '../../src/errors';
import { authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

const { app, world } = makeEmulator();
const big = byCalls(world, 448);
const other = byCalls(world, 50);
const lists = [
  ['calls', callsPath],
  ['recordings', recordingsPath],
] as const;

describe.each(lists)('authentication on the %s list', (_name, path) => {
  test('no credentials → 401 with a Basic challenge and a message', async () => {
    const res = await request(app).get(path(big.sid));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Restcomm realm"');
    expect(res.body).toEqual({ message: messages.unauthorized });
  });

  test.each([
    // Credentials that name no account are told so; none sent (or not Basic) is told what to send.
    ['an unknown token', `Basic ${Buffer.from('nope:').toString('base64')}`, messages.unknownToken],
    // Restcomm's own scheme (account sid as user, token as password) is not this service's:
    // the message says what to send instead.
    [
      'the sid as user and the token as password',
      `Basic ${Buffer.from(`${big.sid}:${big.token}`).toString('base64')}`,
      messages.unauthorizedSid,
    ],
    ['a malformed header', 'Basic !!!', messages.unauthorized],
    ['another scheme', `Bearer ${big.token}`, messages.unauthorized],
    ['a user name without the colon', `Basic ${Buffer.from('abc').toString('base64')}`, messages.unauthorized],
  ])('%s → 401', async (_label, header, message) => {
    const res = await request(app).get(path(big.sid)).set('Authorization', header);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(res.body).toEqual({ message });
  });

  test('the token is the user name; any password is accepted', async () => {
    expect((await authGet(app, path(big.sid), big.token)).status).toBe(200);
    expect((await request(app).get(path(big.sid)).auth(big.token, 'whatever')).status).toBe(200);
  });

  test('a valid token on another account → 403', async () => {
    const res = await authGet(app, path(other.sid), big.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: messages.forbidden(other.sid) });
  });

  test('a valid token on an account that does not exist → 403', async () => {
    const ghost = `AC${'0'.repeat(32)}`;
    const res = await authGet(app, path(ghost), big.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: messages.forbidden(ghost) });
  });
});

describe('routes', () => {
  test.each([
    ['another version segment', `/call/2010-04-01/Accounts/${big.sid}/Calls.json`, callsPath(big.sid)],
    ['a lower-case list', `/call/2012-04-24/Accounts/${big.sid}/calls.json`, callsPath(big.sid)],
    [
      'both, and a call',
      `/call/2012-04-01/accounts/${big.sid}/Calls/CA1.json`,
      `/call/2012-04-24/Accounts/${big.sid}/Calls/CA1.json`,
    ],
    ['an admin typo', '/__admin/fault', '/__admin/faults'],
    ['an admin typo with a sid', `/__admin/acounts/${big.sid}/calls`, `/__admin/accounts/${big.sid}/calls`],
  ])('%s → 404 naming the route it nearly is, with its own values', async (_what, path, near) => {
    const res = await authGet(app, path, big.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: messages.notFoundNear('GET', path, near) });
  });

  test('a path near no route → 404 with no guess', async () => {
    const res = await authGet(app, '/__admin/completely/elsewhere', big.token);
    expect(res.body).toEqual({ message: messages.notFound('GET', '/__admin/completely/elsewhere') });
  });

  test.each([
    '/nowhere',
    `/2012-04-24/Accounts/ACx/Calls.json`,
    `/call/2012-04-24/accounts/ACx/calls.json`,
    `/call/2012-04-24/Accounts/ACx/Calls.json/`,
    `/call/2012-04-24/Accounts/ACx/Calls.xml`,
  ])('%s → 404 {message}', async (path) => {
    const res = await authGet(app, path, big.token);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body.message).toContain(path);
  });

  test.each(['put', 'delete', 'patch'] as const)(
    '%s on the calls list → 405 with Allow (calls are created by POST)',
    async (method) => {
      const res = await request(app)[method](callsPath(big.sid)).auth(big.token, '');
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD, POST');
      expect(res.body).toEqual({ message: messages.methodNotAllowed(method.toUpperCase(), 'GET, HEAD, POST') });
    },
  );

  test.each(['post', 'put', 'delete', 'patch'] as const)(
    '%s on the recordings list → 405 with Allow',
    async (method) => {
      const res = await request(app)
        [method](callsPath(big.sid).replace('/Calls.json', '/Recordings.json'))
        .auth(big.token, '');
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD');
      expect(res.body).toEqual({ message: messages.methodNotAllowed(method.toUpperCase(), 'GET, HEAD') });
    },
  );

  test('HEAD on a list → 200 with the headers and no body', async () => {
    const res = await request(app).head(callsPath(big.sid)).auth(big.token, '');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(1000);
  });
});

describe.each(lists)('the %s path without .json', (_name, path) => {
  const bare = (sid: string) => path(sid).replace(/\.json$/, '');

  test('Accept containing json → the same JSON body', async () => {
    const json = await authGet(app, path(big.sid), big.token);
    const res = await authGet(app, bare(big.sid), big.token).set('Accept', 'application/json');
    expect(res.status).toBe(200);
    expect(res.text).toBe(json.text);
  });

  test.each([undefined, '*/*', 'application/xml', 'text/html'])('Accept %s → 406 {message}', async (accept) => {
    const req = authGet(app, bare(big.sid), big.token);
    const res = await (accept === undefined ? req.unset('Accept') : req.set('Accept', accept));
    expect(res.status).toBe(406);
    expect(res.body).toEqual({ message: messages.notAcceptable });
  });
});

describe("Restcomm's own paths without --dialect restcomm", () => {
  test('a 404 that names the flag, and the same path under /call', async () => {
    const res = await authGet(app, `/restcomm/2012-04-24/Accounts/${big.sid}/Calls.json`, big.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: messages.notFoundRestcomm(
        'GET',
        `/restcomm/2012-04-24/Accounts/${big.sid}/Calls.json`,
        `/call/2012-04-24/Accounts/${big.sid}/Calls.json`,
      ),
    });
    expect(res.body.message).toContain('--dialect restcomm');
  });
});

describe('parameter errors', () => {
  test.each([
    ['Page=9', messages.pageBeyondLast(9, 8)],
    ['Page=abc', messages.notInteger('Page', 'abc')],
    ['Page=-1', messages.notInteger('Page', '-1')],
    ['PageSize=0', messages.pageSizeInvalid('0')],
    ['PageSize=-3', messages.pageSizeInvalid('-3')],
    ['PageSize=1.5', messages.pageSizeInvalid('1.5')],
  ])('%s → 400 {message}', async (query, message) => {
    const res = await authGet(app, `${callsPath(big.sid)}?${query}`, big.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  test('Page 1 of an empty list → 400', async () => {
    const empty = byCalls(world, 0);
    const res = await authGet(app, `${recordingsPath(empty.sid)}?Page=1`, empty.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: messages.pageBeyondLast(1, 0) });
  });

  test('parameter names are case-sensitive: pagesize is ignored, with a warning', async () => {
    const res = await authGet(app, `${callsPath(big.sid)}?pagesize=5&page=2`, big.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 0, page_size: 50 });
    expect(res.headers['x-emulator-warning']).toContain('did you mean PageSize?');
  });

  test('a parameter given twice: the first value counts', async () => {
    const res = await authGet(app, `${callsPath(big.sid)}?PageSize=3&PageSize=1000&Page=2&Page=0`, big.token);
    expect(res.body).toMatchObject({ page: 2, page_size: 3 });
  });

  test('--max-page-size makes a larger PageSize a 400', async () => {
    const capped = makeEmulator({ maxPageSize: 100 });
    const a = byCalls(capped.world, 448);
    const res = await authGet(capped.app, `${callsPath(a.sid)}?PageSize=101`, a.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: messages.pageSizeTooLarge(101, 100) });
    expect((await authGet(capped.app, `${callsPath(a.sid)}?PageSize=100`, a.token)).status).toBe(200);
  });

  test('a warning that quotes non-ASCII input is escaped, not a 500', async () => {
    const res = await authGet(app, `${callsPath(big.sid)}?SortBy=${encodeURIComponent('Dàté\n')}`, big.token);
    expect(res.status).toBe(200);
    expect(res.headers['x-emulator-warning']).toContain('\\u00e0');
  });
});

describe('one error boundary', () => {
  test("every error answer has the one writer's shape and type, the front door's too", async () => {
    const { app, world } = makeEmulator({ versionWaitMs: 50 });
    const a = byCalls(world, 448);
    const answers = [
      // The front door's own: a bad X-Callrec-Version, one never reached, a POST to /metrics.
      await request(app).get('/__admin/health').set('X-Callrec-Version', 'x'),
      await request(app).get('/__admin/health').set('X-Callrec-Version', '9'),
      await request(app).post('/metrics'),
      // The list lane's and express's.
      await request(app).get(callsPath(a.sid)).auth('not-a-token', ''),
      await request(app)
        .get(`${callsPath(a.sid)}?PageSize=0`)
        .auth(a.token, ''),
      await request(app).get('/nowhere'),
    ];
    expect(answers.map((r) => r.status)).toEqual([400, 503, 405, 401, 400, 404]);
    for (const r of answers) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(Object.keys(r.body)).toEqual(['message']);
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
    }
    expect(answers[1]?.body.message).toBe(messages.versionNotReached(9, 0, 50));
    expect(answers[2]?.headers['allow']).toBe('GET, HEAD');
  });
});

describe('credentials are checked once a request', () => {
  test.each([
    ['a list page (the lane)', (sid: string) => `/restcomm/2012-04-24/Accounts/${sid}/Calls.json`],
    ['the account resource (express)', (sid: string) => `/restcomm/2012-04-24/Accounts/${sid}.json`],
  ])('%s: one look-up of the token, whichever way in', async (_name, path) => {
    const { app, world } = makeEmulator({ dialect: 'restcomm' });
    const a = byCalls(world, 448);
    const lookups = jest.spyOn(world, 'accountByToken');
    const res = await request(app).get(path(a.sid)).auth(a.token, '');
    expect(res.status).toBe(200);
    expect(lookups).toHaveBeenCalledTimes(1);
    // A refused login too: checked once, answered 401 with production's challenge.
    lookups.mockClear();
    const refused = await request(app).get(path(a.sid)).auth('nobody@example.com', 'nope');
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Basic realm="Restcomm realm"');
    expect(lookups).toHaveBeenCalledTimes(1);
  });
});
