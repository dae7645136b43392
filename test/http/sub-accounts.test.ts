import request from 'supertest';
import { messages, problems } from '../../src/errors';
import type { AccountSpec } from '../../src/generators/account-spec';
import { validateFixtures } from '../../src/store/fixtures';
import { World } from '../../src/store/world';
import { makeEmulator } from '../support/app';

type Item = Record<string, any>;
const sid = (n: number) => `AC${String(n).padStart(32, '0')}`;
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

/** Root (an Administrator) › Child › Grandchild, a Developer root above Leaf, and Stranger. */
const ACCOUNTS: AccountSpec[] = [
  { friendlyName: 'Root', calls: 20, recordings: 5, sid: sid(1), token: 'root-token', role: 'Administrator' },
  { friendlyName: 'Child', calls: 12, recordings: 3, sid: sid(2), token: 'child-token', parent: sid(1) },
  { friendlyName: 'Grandchild', calls: 6, recordings: 2, sid: sid(3), token: 'grand-token', parent: sid(2) },
  { friendlyName: 'Dev Root', calls: 4, recordings: 1, sid: sid(4), token: 'dev-token' },
  { friendlyName: 'Leaf', calls: 5, recordings: 1, sid: sid(5), token: 'leaf-token', parent: sid(4) },
  { friendlyName: 'Stranger', calls: 3, recordings: 1, sid: sid(6), token: 'stranger-token' },
];
const TOKENS = Object.fromEntries(ACCOUNTS.map((a) => [a.sid as string, a.token as string]));
const NAMES = Object.fromEntries(ACCOUNTS.map((a) => [a.friendlyName, a.sid as string]));
const RC = '/restcomm/2012-04-24/Accounts';

const { app, world } = makeEmulator({ dialect: 'restcomm', accounts: ACCOUNTS });
const as = (login: string, path: string, accept = 'application/json') =>
  request(app).get(path).set('Authorization', basic(NAMES[login]!, TOKENS[NAMES[login]!]!)).set('Accept', accept);

describe("sub-accounts' records: the account itself, its parent and any ancestor (secureLevelControl)", () => {
  // [login, account read, expected]
  const matrix: [string, string, 200 | 403][] = [
    ['Root', 'Root', 200],
    ['Root', 'Child', 200],
    ['Root', 'Grandchild', 200],
    ['Child', 'Grandchild', 200],
    ['Child', 'Root', 403],
    ['Grandchild', 'Child', 403],
    ['Dev Root', 'Leaf', 200],
    ['Leaf', 'Dev Root', 403],
    ['Root', 'Leaf', 403],
    ['Stranger', 'Child', 403],
    ['Child', 'Stranger', 403],
  ];
  test.each(matrix)('%s reads the lists of %s: %s', async (login, target, status) => {
    for (const list of ['Calls', 'Recordings', 'Notifications']) {
      const res = await as(login, `${RC}/${NAMES[target]}/${list}.json`);
      expect([list, res.status]).toEqual([list, status]);
      if (status === 200) expect(res.body.uri).toContain(NAMES[target]);
      else expect(res.body).toEqual({ message: messages.forbidden(NAMES[target]!) });
    }
  });

  test("an ancestor reads a sub-account's call under the sub-account's path, and nowhere else", async () => {
    const child = world.account(NAMES['Child']!)!;
    const callSid = child.calls.get(child.calls.order(null).at(0)).sid;
    const ok = await as('Root', `${RC}/${child.profile.sid}/Calls/${callSid}.json`);
    expect([ok.status, ok.body.sid, ok.body.account_sid]).toEqual([200, callSid, child.profile.sid]);
    // The record must belong to the account in the path (production's resourceAccountSid check).
    const underRoot = await as('Root', `${RC}/${NAMES['Root']}/Calls/${callSid}.json`);
    expect([underRoot.status, underRoot.body]).toEqual([403, { message: messages.forbiddenRecord(callSid) }]);
    const root = world.account(NAMES['Root']!)!;
    const rootCall = root.calls.get(root.calls.order(null).at(0)).sid;
    const rootUnderChild = await as('Root', `${RC}/${child.profile.sid}/Calls/${rootCall}.json`);
    expect(rootUnderChild.status).toBe(403);
  });

  test('the rule is the data’s: the service’s own dialect applies it too', async () => {
    const spec = makeEmulator({ accounts: ACCOUNTS });
    const read = (token: string, target: string) =>
      request(spec.app).get(`/call/2012-04-24/Accounts/${target}/Calls.json`).auth(token, '');
    expect((await read('root-token', sid(3))).status).toBe(200);
    expect((await read('grand-token', sid(1))).status).toBe(403);
  });
});

describe("the account resource follows production's roles (secureLevelControlAccounts)", () => {
  const matrix: [string, string, 200 | 403][] = [
    ['Root', 'Child', 200],
    ['Root', 'Grandchild', 200],
    // A Developer reads only itself, its sub-accounts' records notwithstanding.
    ['Child', 'Grandchild', 403],
    ['Dev Root', 'Leaf', 403],
    ['Dev Root', 'Dev Root', 200],
    ['Grandchild', 'Root', 403],
  ];
  test.each(matrix)('%s reads the account %s: %s', async (login, target, status) => {
    const res = await as(login, `${RC}/${NAMES[target]}.json`);
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body.sid).toBe(NAMES[target]);
  });

  test('the role is shown as the fixtures give it, Developer by default', async () => {
    expect((await as('Root', `${RC}/${NAMES['Root']}.json`)).body.role).toBe('Administrator');
    expect((await as('Root', `${RC}/${NAMES['Child']}.json`)).body.role).toBe('Developer');
  });
});

describe('GET Accounts.json: the login’s direct sub-accounts (the console’s account switcher)', () => {
  test.each([
    ['Root', ['Child']],
    ['Child', ['Grandchild']],
    ['Grandchild', []],
    ['Dev Root', ['Leaf']],
    ['Stranger', []],
  ])('%s sees %j', async (login, children) => {
    const res = await as(login, `${RC}.json`);
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/json']);
    expect((res.body as Item[]).map((a) => a['friendly_name'])).toEqual(children);
    // Each is the account resource as the sub-account itself reads it.
    for (const item of res.body as Item[]) {
      const self = await request(app)
        .get(`${RC}/${item['sid']}.json`)
        .set('Authorization', basic(item['sid'], TOKENS[item['sid']]!));
      expect(item).toEqual(self.body);
    }
  });

  test('without .json it is an <Accounts> list; under every prefix; POST is a 405', async () => {
    const xml = await as('Root', RC, '*/*');
    expect([xml.status, xml.headers['content-type']]).toEqual([200, 'application/xml']);
    expect(xml.text).toMatch(/^<RestcommResponse>\n {2}<Accounts>\n {4}<Account>\n {6}<Sid>AC0+2<\/Sid>/);
    expect((await as('Stranger', RC, '*/*')).text).toBe('<RestcommResponse>\n  <Accounts/>\n</RestcommResponse>');
    for (const prefix of ['/restcomm', '/call', '']) {
      expect((await as('Root', `${prefix}/2012-04-24/Accounts.json`)).body).toHaveLength(1);
    }
    const post = await request(app)
      .post(`${RC}.json`)
      .set('Authorization', basic(sid(1), 'root-token'));
    expect(post.status).toBe(405);
  });

  test('no login is a 401; the service’s own dialect has no such resource', async () => {
    expect((await request(app).get(`${RC}.json`)).status).toBe(401);
    const spec = makeEmulator({ accounts: ACCOUNTS });
    expect((await request(spec.app).get('/call/2012-04-24/Accounts.json').auth('root-token', '')).status).toBe(404);
  });
});

describe('making sub-accounts: fixtures and the admin API, as production lets them be made', () => {
  const world = (accounts: unknown[]) =>
    new World({ seed: 's', clockMs: Date.UTC(2025, 5, 1), accounts: validateFixtures({ accounts }, 'f.json') });
  const acc = (n: number, parent?: number) => ({
    friendly_name: `A${n}`,
    sid: sid(n),
    ...(parent === undefined ? {} : { parent: sid(parent) }),
  });

  test.each([
    ['an unknown parent', [acc(1), acc(2, 9)], 'accounts[1].parent', problems.parentUnknown(sid(9))],
    ['itself', [acc(1, 1)], 'accounts[0].parent', problems.parentSelf],
    ['a loop', [acc(1, 2), acc(2, 1)], 'accounts[0].parent', problems.parentCycle(sid(1))],
    ['a fourth level', [acc(1), acc(2, 1), acc(3, 2), acc(4, 3)], 'accounts[3].parent', problems.parentDepth(3)],
  ])('fixtures naming %s as parent are refused', (_name, accounts, field, problem) => {
    expect(() => world(accounts)).toThrow(`${field}: ${problem}`);
  });

  test('a child may come before its parent in the file; an unknown role is refused', () => {
    expect(
      world([acc(2, 1), acc(1)])
        .children(sid(1))
        .map((a) => a.profile.sid),
    ).toEqual([sid(2)]);
    expect(() => validateFixtures({ accounts: [{ friendly_name: 'x', role: 'Boss' }] }, 'f.json')).toThrow(
      problems.oneOf(['Developer', 'Administrator'], 'Boss'),
    );
  });

  test('POST /__admin/accounts with a parent; a fourth level is a 400; a parent with children is not deleted', async () => {
    const em = makeEmulator({ dialect: 'restcomm', accounts: ACCOUNTS });
    const add = (body: object) => request(em.app).post('/__admin/accounts').type('json').send(body);
    const made = await add({ friendly_name: 'New Child', parent: sid(1), token: 'new-token' });
    expect(made.status).toBe(201);
    const listed = await request(em.app).get(`${RC}.json`).auth(sid(1), 'root-token');
    expect((listed.body as Item[]).map((a) => a['friendly_name'])).toEqual(['Child', 'New Child']);
    const detail = (await request(em.app).get('/__admin/accounts?detail=true')).body.accounts as Item[];
    expect(detail.find((a) => a['sid'] === made.body.sid)).toMatchObject({ parent: sid(1), role: 'Developer' });
    expect(detail.find((a) => a['sid'] === sid(1))).toMatchObject({ parent: null, role: 'Administrator' });

    const deep = await add({ friendly_name: 'Too Deep', parent: sid(3) });
    expect([deep.status, deep.body]).toEqual([400, { message: `parent: ${problems.parentDepth(3)}` }]);
    const unknown = await add({ friendly_name: 'Orphan', parent: sid(99) });
    expect([unknown.status, unknown.body]).toEqual([400, { message: `parent: ${problems.parentUnknown(sid(99))}` }]);

    const refused = await request(em.app).delete(`/__admin/accounts/${sid(2)}`);
    expect([refused.status, refused.body]).toEqual([409, { message: messages.hasSubAccounts(sid(2), [sid(3)]) }]);
    expect(em.world.account(sid(2))).toBeDefined();
    expect((await request(em.app).delete(`/__admin/accounts/${sid(3)}`)).status).toBe(200);
    expect((await request(em.app).delete(`/__admin/accounts/${sid(2)}`)).status).toBe(200);
  });

  test('a state export keeps the hierarchy; an import that breaks it changes nothing', async () => {
    const em = makeEmulator({ dialect: 'restcomm', accounts: ACCOUNTS });
    const state = (await request(em.app).get('/__admin/state')).body as Item;
    const other = makeEmulator({ dialect: 'restcomm' });
    expect((await request(other.app).put('/__admin/state').type('json').send(state)).status).toBe(200);
    expect(other.world.children(sid(1)).map((a) => a.profile.sid)).toEqual([sid(2)]);
    expect(
      (
        await request(other.app)
          .get(`${RC}/${sid(3)}/Calls.json`)
          .auth(sid(1), 'root-token')
      ).status,
    ).toBe(200);

    const broken = structuredClone(state);
    broken.accounts = (broken.accounts as Item[]).filter((a) => a['sid'] !== sid(2));
    const before = (await request(other.app).get('/__admin/state/hash')).body.hash;
    const res = await request(other.app).put('/__admin/state').type('json').send(broken);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(problems.parentUnknown(sid(2)));
    expect((await request(other.app).get('/__admin/state/hash')).body.hash).toBe(before);
  });

  test('a sandbox stands alone: forked from a sub-account, no ancestor reads it', async () => {
    const em = makeEmulator({ dialect: 'restcomm', accounts: ACCOUNTS });
    const box = await request(em.app)
      .post('/__admin/sandboxes')
      .type('json')
      .send({ from: sid(2) });
    expect(box.status).toBe(201);
    const sandbox = em.world.account(box.body.sid)!;
    expect(em.world.ancestors(sandbox)).toEqual([]);
    const read = await request(em.app).get(`${RC}/${box.body.sid}/Calls.json`).auth(sid(1), 'root-token');
    expect(read.status).toBe(403);
    expect(em.world.children(sid(2)).map((a) => a.profile.sid)).toEqual([sid(3)]);
  });
});

describe('SubAccounts=true: the account’s records and its sub-accounts’, as production’s lists read it', () => {
  const LISTS = [
    ['Calls', 'calls'],
    ['Recordings', 'recordings'],
    ['Notifications', 'notifications'],
  ] as const;
  /** Every item of a list, read whole in one page. */
  const whole = async (login: string, target: string, list: string, query = '') =>
    (await as(login, `${RC}/${NAMES[target]}/${list}.json?PageSize=1000${query}`)).body as Item;
  const sids = (items: Item[]) => items.map((i) => i.sid as string);

  test.each(LISTS)('%s: the union of the account and all below it, each account’s order kept', async (list, key) => {
    const merged = await whole('Root', 'Root', list, '&SubAccounts=true');
    const own = await Promise.all(['Root', 'Child', 'Grandchild'].map((n) => whole('Root', n, list)));
    expect(merged.total).toBe(own.reduce((sum, o) => sum + (o.total as number), 0));
    expect(merged.total).toBeGreaterThan((own[0] as Item).total);
    const items = merged[key] as Item[];
    expect(new Set(sids(items))).toEqual(new Set(own.flatMap((o) => sids(o[key]))));
    // Each account's records keep their own order: the merge interleaves, never reorders.
    for (const [i, name] of ['Root', 'Child', 'Grandchild'].entries()) {
      const mine = items.filter((it) => it.account_sid === NAMES[name]);
      expect(sids(mine)).toEqual(sids((own[i] as Item)[key]));
      // Written under their own account: its sid and its uri, as production stores them.
      for (const it of mine) expect(it.uri).toContain(`/Accounts/${NAMES[name]}/`);
    }
    // The envelope is the path's: the account asked for.
    expect(merged.uri).toBe((own[0] as Item).uri);
    expect(merged.uri).toContain(NAMES['Root']);
  });

  test('the merged default order is newest first across the accounts', async () => {
    const items = (await whole('Root', 'Root', 'Calls', '&SubAccounts=true')).calls as Item[];
    const times = items.map((c) => Date.parse(c.date_created));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(new Set(items.map((c) => c.account_sid)).size).toBe(3);
  });

  test.each([
    ['From:asc', 'from', 1],
    ['To:desc', 'to', -1],
    ['Duration:desc', 'duration', -1],
  ] as const)('SortBy=%s sorts across the accounts', async (sortBy, field, sign) => {
    const items = (await whole('Root', 'Root', 'Calls', `&SubAccounts=true&SortBy=${sortBy}`)).calls as Item[];
    const values = items.map((c) => (field === 'duration' ? Number(c[field] ?? 0) : String(c[field])));
    for (let k = 1; k < values.length; k++) {
      const [a, b] = [values[k - 1]!, values[k]!];
      expect(sign * (a < b ? -1 : a > b ? 1 : 0)).toBeLessThanOrEqual(0);
    }
  });

  test('a middle account reads itself and below it, not above; an account alone reads itself', async () => {
    const child = await whole('Child', 'Child', 'Calls', '&SubAccounts=true');
    expect(new Set((child.calls as Item[]).map((c) => c.account_sid))).toEqual(new Set([sid(2), sid(3)]));
    const alone = await whole('Stranger', 'Stranger', 'Calls', '&SubAccounts=true');
    expect(alone).toEqual(await whole('Stranger', 'Stranger', 'Calls'));
    // An ancestor asking through a sub-account's path reads that sub-account's family.
    const viaChild = await whole('Root', 'Child', 'Calls', '&SubAccounts=true');
    expect(viaChild.total).toBe(child.total);
  });

  test('pages of the merged list join into the whole; next_page_uri drops SubAccounts, as production’s does', async () => {
    const all = sids((await whole('Root', 'Root', 'Calls', '&SubAccounts=true')).calls);
    const paged: string[] = [];
    for (let page = 0; page * 7 < all.length; page++) {
      const res = await as('Root', `${RC}/${NAMES['Root']}/Calls.json?Page=${page}&PageSize=7&SubAccounts=true`);
      paged.push(...sids(res.body.calls));
      if (res.body.next_page_uri !== null) expect(res.body.next_page_uri).not.toContain('SubAccounts');
    }
    expect(paged).toEqual(all);
  });

  test('filters apply to every account: the total is the sum of each account’s filtered total', async () => {
    const q = '&Status=completed';
    const merged = await whole('Root', 'Root', 'Calls', `&SubAccounts=true${q}`);
    let sum = 0;
    for (const name of ['Root', 'Child', 'Grandchild']) sum += (await whole('Root', name, 'Calls', q)).total;
    expect(merged.total).toBe(sum);
    for (const c of merged.calls as Item[]) expect(c.status).toBe('completed');
  });

  test('a write to a sub-account shows in the merged list at once', async () => {
    const em = makeEmulator({ dialect: 'restcomm', accounts: ACCOUNTS });
    const read = () =>
      request(em.app)
        .get(`${RC}/${sid(1)}/Calls.json?SubAccounts=true&PageSize=1`)
        .set('Authorization', basic(sid(1), 'root-token'));
    const before = (await read()).body as Item;
    const inserted = await request(em.app)
      .post(`/__admin/accounts/${sid(3)}/calls`)
      .type('json')
      .send({});
    expect(inserted.status).toBe(201);
    const after = (await read()).body as Item;
    expect(after.total).toBe(before.total + 1);
    expect([after.calls[0].sid, after.calls[0].account_sid]).toEqual([inserted.body.sid, sid(3)]);
  });

  test.each([
    ['false', false],
    ['FALSE', false],
    ['TRUE', true],
    ['tRuE', true],
  ])('SubAccounts=%s: read as production reads it (true, any case), no warning', async (value, included) => {
    const res = await as('Root', `${RC}/${NAMES['Root']}/Calls.json?SubAccounts=${value}`);
    const own = await whole('Root', 'Root', 'Calls');
    expect(res.body.total === own.total).toBe(!included);
    expect(res.headers['x-emulator-warning']).toBeUndefined();
  });

  test('SubAccounts=1 is read as false, with a warning; --strict refuses it', async () => {
    const res = await as('Root', `${RC}/${NAMES['Root']}/Calls.json?SubAccounts=1`);
    expect(res.body.total).toBe((await whole('Root', 'Root', 'Calls')).total);
    expect(res.headers['x-emulator-warning']).toBe(messages.subAccountsNotTrue('1'));
    const strict = makeEmulator({ dialect: 'restcomm', accounts: ACCOUNTS, strict: true });
    const auth = basic(sid(1), 'root-token');
    const path = `${RC}/${sid(1)}/Calls.json`;
    const refused = await request(strict.app).get(`${path}?SubAccounts=1`).set('Authorization', auth);
    expect([refused.status, refused.body]).toEqual([400, { message: messages.subAccountsNotTrue('1') }]);
    const ok = await request(strict.app).get(`${path}?SubAccounts=true&Reverse=true`).set('Authorization', auth);
    expect(ok.status).toBe(200);
  });

  test('XML: one <Calls> list over the accounts, each <Call> under its own account', async () => {
    const res = await as('Root', `${RC}/${NAMES['Root']}/Calls?SubAccounts=true&PageSize=1000`, 'application/xml');
    const json = await whole('Root', 'Root', 'Calls', '&SubAccounts=true');
    expect(res.type).toBe('application/xml');
    const xmlSids = [...res.text.matchAll(/<Call>\s*<Sid>([^<]+)<\/Sid>/g)].map((m) => m[1]);
    expect(xmlSids).toEqual(sids(json.calls));
    expect(res.text).toContain(`<AccountSid>${sid(3)}</AccountSid>`);
  });
});
