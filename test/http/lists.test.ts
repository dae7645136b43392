import request from 'supertest';
import { messages } from '../../src/errors';
import { DIALECTS, listUri } from '../../src/format/uris';
import { LIST_NAMES } from '../../src/generators/list-names';
import { LIST_SPECS } from '../../src/query/list-specs';
import { allItems, byCalls, ENVELOPE_KEYS, listPath, makeEmulator } from '../support/app';

/**
 * What every list of the registry does, asked of each: a list added to the registry gets these
 * checks with no test written for it. Each list's own rules (its sorts, filters and quirks) are
 * in its own tests.
 */
const { app, world } = makeEmulator();
const main = byCalls(world, 448);
const other = byCalls(world, 0);
const get = (path: string, token = main.token) => request(app).get(path).auth(token, '');

describe.each(LIST_NAMES.map((name) => [name]))('the %s list', (name) => {
  const path = listPath(name, main.sid);

  test("answers the envelope in production's key order, its items under the list's name", async () => {
    const res = await get(`${path}?PageSize=3`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...ENVELOPE_KEYS, name]);
    expect(res.body.uri).toBe(listUri(name, main.sid, DIALECTS.spec, '/call'));
    expect(res.body[name].length).toBe(Math.min(3, main.store.tables[name].count));
    expect(res.body.total).toBe(main.store.tables[name].count);
  });

  test('walks to the end through its pages, every record once', async () => {
    const items = await allItems(app, path, main.token, name, '', 97);
    expect(items.length).toBe(main.store.tables[name].count);
    expect(new Set(items.map((i) => i['sid'])).size).toBe(items.length);
  });

  test('sorts by each of its SortBy attributes both ways, the same records', async () => {
    const all = await allItems(app, path, main.token, name, '', 1000);
    const sids = all.map((i) => i['sid']).sort();
    for (const attribute of Object.keys(LIST_SPECS[name].sort)) {
      for (const direction of ['asc', 'desc']) {
        const sorted = await allItems(app, path, main.token, name, `&SortBy=${attribute}:${direction}`, 1000);
        expect(sorted.map((i) => i['sid']).sort()).toEqual(sids);
      }
    }
  });

  test('refuses a page beyond the last, and a bad PageSize, with production-shaped messages', async () => {
    // The last page as the list's own last_page_uri names it (production's arithmetic: see paging tests).
    const first = await get(`${path}?PageSize=10`);
    const last = Number(/[?&]Page=(\d+)/.exec(first.body.last_page_uri)?.[1]);
    expect((await get(`${path}?PageSize=10&Page=${last}`)).status).toBe(200);
    const beyond = await get(`${path}?PageSize=10&Page=${last + 2}`);
    expect(beyond.status).toBe(400);
    expect(beyond.body).toEqual({ message: messages.pageBeyondLast(last + 2, last) });
    const zero = await get(`${path}?PageSize=0`);
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual({ message: messages.pageSizeInvalid('0') });
  });

  test("needs the account's own token: none is a 401, another account's a 403", async () => {
    const none = await request(app).get(path);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: messages.unauthorized });
    const theirs = await get(path, other.token);
    expect(theirs.status).toBe(403);
    expect(theirs.body).toEqual({ message: messages.forbidden(main.sid) });
  });

  test('answers GET and HEAD (and the calls list a create, POST); without .json by Accept', async () => {
    const allow = name === 'calls' ? 'GET, HEAD, POST' : 'GET, HEAD';
    const put = await request(app).put(path).auth(main.token, '');
    expect(put.status).toBe(405);
    expect(put.headers['allow']).toBe(allow);
    if (name !== 'calls') expect((await request(app).post(path).auth(main.token, '')).status).toBe(405);
    const bare = await get(path.replace(/\.json$/, '')).set('Accept', 'application/json');
    expect(bare.status).toBe(200);
    expect(bare.body[name]).toBeDefined();
  });

  test('each page is noted as a walk of this list', async () => {
    const em = makeEmulator();
    const a = byCalls(em.world, 448);
    await request(em.app)
      .get(`${listPath(name, a.sid)}?PageSize=5`)
      .auth(a.token, '');
    const walks = (await request(em.app).get('/__admin/walks')).body.walks as { list: string }[];
    expect(walks.map((w) => w.list)).toEqual([name]);
  });
});
