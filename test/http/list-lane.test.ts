import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { RenderCache } from '../../src/cache/render-cache';
import { DIALECTS, fileBaseOf } from '../../src/format/uris';
import { ListCaches } from '../../src/routes/list-caches';
import { listLane } from '../../src/routes/list-lane';
import type { ListSettings } from '../../src/routes/list-settings';
import type { World } from '../../src/store/world';
import { byCalls, callsPath, listPath, makeEmulator, PUBLIC_URL, recordingsPath } from '../support/app';

/**
 * The list lane serves list pages without express: every answer it gives must be the one the
 * express route gives, byte for byte, and whatever it leaves must reach express untouched.
 */

/** What a response is, but for the headers that change with each exchange. */
function shape(res: request.Response) {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = res.headers;
  return { status: res.status, headers, body: res.text };
}

const sid = (n: number) => `AC${String(n).padStart(32, '0')}`;
const accounts = [
  { friendlyName: 'Parent', calls: 60, recordings: 30, sid: sid(1), token: 'parent-token' },
  { friendlyName: 'Child', calls: 12, recordings: 4, sid: sid(2), token: 'child-token', parent: sid(1) },
  { friendlyName: 'Other', calls: 3, recordings: 0, sid: sid(3), token: 'other-token' },
];

/** Requests of every kind the lane may take, and of kinds it must leave. */
function cases(world: World): { path: string; token: string; accept?: string }[] {
  const parent = byCalls(world, 60);
  const child = byCalls(world, 12);
  const other = byCalls(world, 3);
  const calls = callsPath(parent.sid);
  const t = parent.token;
  return [
    { path: calls, token: t },
    { path: `${calls}?Page=1&PageSize=7&SortBy=From:desc`, token: t },
    { path: `${calls}?Status=completed&PageSize=5`, token: t },
    { path: `${calls}?PageSize=2&Page=1&AfterSid=nope`, token: t },
    { path: `${calls}?Page=99`, token: t },
    { path: `${calls}?PageSize=abc`, token: t },
    { path: `${calls}?SubAccounts=true&PageSize=50`, token: t },
    { path: `${calls}?PageSize=1200`, token: t },
    { path: callsPath(child.sid), token: t },
    { path: callsPath(parent.sid), token: child.token },
    { path: callsPath(other.sid), token: t },
    { path: calls, token: 'not-a-token' },
    { path: `${recordingsPath(parent.sid)}?PageSize=4&Page=2`, token: t },
    { path: `${listPath('notifications', parent.sid)}?PageSize=3`, token: t },
    { path: calls.replace(/\.json$/, ''), token: t },
    { path: calls.replace(/\.json$/, ''), token: t, accept: 'application/xml' },
    { path: `${calls}/`, token: t },
  ];
}

describe.each([
  { dialect: 'spec' as const, strict: false },
  { dialect: 'restcomm' as const, strict: false },
  { dialect: 'spec' as const, strict: true },
])('list lane, $dialect dialect, strict $strict', ({ dialect, strict }) => {
  test('every answer equals the express route’s, status, headers and body', async () => {
    const em = makeEmulator({ accounts, dialect, strict });
    for (const c of cases(em.world)) {
      const ask = (listener: (req: IncomingMessage, res: ServerResponse) => void) => {
        const r = request(listener).get(c.path).auth(c.token, '');
        return c.accept === undefined ? r : r.set('Accept', c.accept);
      };
      const viaDoor = shape(await ask(em.app));
      const viaExpress = shape(await ask(em.app.express));
      expect({ path: c.path, ...viaDoor }).toEqual({ path: c.path, ...viaExpress });
    }
  });
});

describe('what the lane takes and what it leaves to express', () => {
  const em = makeEmulator({ accounts });
  const dialect = DIALECTS.spec;
  const settings: ListSettings = {
    paging: 'production',
    maxPageSize: null,
    fileBase: fileBaseOf(PUBLIC_URL, dialect),
    dialect,
    cache: new RenderCache(),
    strict: false,
    serverZone: 'UTC',
    caches: new ListCaches(),
  };
  const lane = listLane(em.world, settings, () => undefined);
  /** 599 stands for "left to express". */
  const left = 599;
  const server = (req: IncomingMessage, res: ServerResponse) => {
    if (!lane(req, res)) {
      res.statusCode = left;
      res.end();
    }
  };
  const parent = byCalls(em.world, 60);
  const other = byCalls(em.world, 3);
  const calls = callsPath(parent.sid);
  const token = parent.token;

  test.each([
    ['a page of calls', calls, 200],
    ['a page of recordings, sorted', `${recordingsPath(parent.sid)}?SortBy=Duration`, 200],
    ['a parameter production refuses (the lane writes the 400)', `${calls}?PageSize=abc`, 400],
    ['a path without .json and no Accept (the lane writes the 406)', calls.replace(/\.json$/, ''), 406],
    ['another account’s list (a 403 is express’s)', callsPath(other.sid), left],
    ['a percent-encoded sid (express decodes it)', calls.replace('AC', '%41C'), left],
    ['a trailing slash', `${calls}/`, left],
    ['one call', `${calls.replace(/\.json$/, '')}/ID1-CA1.json`, left],
  ])('%s', async (_name, path, status) => {
    const res = await request(server).get(path).auth(token, '');
    expect(res.status).toBe(status);
  });

  test('bad credentials, other methods and other schemes are left to express', async () => {
    expect((await request(server).get(calls).auth('nope', '')).status).toBe(left);
    expect((await request(server).get(calls)).status).toBe(left);
    expect((await request(server).get(calls).set('Authorization', `Bearer ${token}`)).status).toBe(left);
    expect((await request(server).head(calls).auth(token, '')).status).toBe(left);
    expect((await request(server).post(calls).auth(token, '')).status).toBe(left);
  });
});
