import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import request from 'supertest';
import type { ListName } from '../../src/generators/list-names';
import { authGet, byCalls, listPath, makeEmulator } from '../support/app';

/**
 * Golden files pin exact response bodies for the default seed and fixtures (public URL
 * http://127.0.0.1:8080). `npm run golden:update` rewrites them; that diff is reviewed like code.
 *
 * They are stored indented, one field a line, so a diff is readable; the test compares the
 * response byte for byte with the file's compact form. The body is JSON.stringify output, so
 * that compact form is exact: any change of a byte on the wire fails.
 */
const GOLDEN_DIR = resolve(__dirname, '..', '..', 'fixtures', 'golden');
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

const production = makeEmulator();
const documented = makeEmulator({ paging: 'documented' });

type Role = 448 | 50 | 1 | 0;
type Case = [
  name: string,
  emulator: 'production' | 'documented',
  role: Role,
  list: ListName | 'admin',
  query: string,
  status: number,
];

const cases: Case[] = [
  ['calls-page0', 'production', 448, 'calls', '', 200],
  ['calls-page2', 'production', 448, 'calls', '?Page=2', 200],
  ['calls-page8-last', 'production', 448, 'calls', '?Page=8', 200],
  ['calls-pagesize1', 'production', 448, 'calls', '?PageSize=1', 200],
  ['calls-from-desc-page1-size20', 'production', 448, 'calls', '?SortBy=From:desc&Page=1&PageSize=20', 200],
  ['calls-to-asc-size10', 'production', 448, 'calls', '?SortBy=To&PageSize=10', 200],
  ['calls-duration-asc-size10', 'production', 448, 'calls', '?SortBy=Duration:asc&PageSize=10', 200],
  ['calls-price-desc-size10', 'production', 448, 'calls', '?SortBy=Price:desc&PageSize=10', 200],
  ['calls-status-desc-size10', 'production', 448, 'calls', '?SortBy=Status:DESC&PageSize=10', 200],
  ['calls-direction-asc-size10', 'production', 448, 'calls', '?SortBy=Direction:asc&PageSize=10', 200],
  ['calls-datecreated-asc-size10', 'production', 448, 'calls', '?SortBy=DateCreated:asc&PageSize=10', 200],
  ['calls-50-page1-empty', 'production', 50, 'calls', '?Page=1', 200],
  ['calls-1', 'production', 1, 'calls', '', 200],
  ['calls-none', 'production', 0, 'calls', '', 200],
  ['calls-documented-page8-last', 'documented', 448, 'calls', '?Page=8', 200],
  ['calls-documented-50', 'documented', 50, 'calls', '', 200],
  ['recordings-page0', 'production', 448, 'recordings', '', 200],
  ['recordings-34-size10-page3', 'production', 50, 'recordings', '?PageSize=10&Page=3', 200],
  ['recordings-duration-desc-size10', 'production', 448, 'recordings', '?SortBy=Duration:desc&PageSize=10', 200],
  ['recordings-callsid-asc-size10', 'production', 448, 'recordings', '?SortBy=CallSid&PageSize=10', 200],
  ['recordings-1', 'production', 1, 'recordings', '', 200],
  ['notifications-page0-size10', 'production', 448, 'notifications', '?PageSize=10', 200],
  ['notifications-errorcode-asc-size5', 'production', 448, 'notifications', '?SortBy=ErrorCode&PageSize=5', 200],
  ['error-sortby-missing-field', 'production', 448, 'calls', '?SortBy=:asc', 400],
  ['error-sortby-direction', 'production', 448, 'calls', '?SortBy=DateCreated:invalid', 400],
  ['error-page-beyond', 'production', 448, 'calls', '?Page=9', 400],
  ['admin-accounts', 'production', 448, 'admin', '', 200],
];

describe('golden bodies for the default seed', () => {
  test.each(cases)('%s', async (name, which, role, list, query, status) => {
    const em = which === 'production' ? production : documented;
    const account = byCalls(em.world, role);
    const res =
      list === 'admin'
        ? await request(em.app).get('/__admin/accounts')
        : await authGet(em.app, listPath(list, account.sid) + query, account.token);
    expect(res.status).toBe(status);
    const file = join(GOLDEN_DIR, `${name}.json`);
    if (UPDATE) writeFileSync(file, `${JSON.stringify(JSON.parse(res.text), null, 2)}\n`);
    expect(existsSync(file)).toBe(true);
    expect(res.text).toBe(JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
  });
});

/**
 * XML (`--dialect restcomm`, no `.json`, no Accept) is pinned as it comes, byte for byte: it is
 * already one element a line, so the file is the body.
 */
const restcomm = makeEmulator({ dialect: 'restcomm' });
const RC = '/restcomm/2012-04-24/Accounts';
const xmlCases: [
  name: string,
  role: Role,
  path: (sid: string, store: ReturnType<typeof byCalls>['store']) => string,
][] = [
  ['calls-page0-size5', 448, (sid) => `${RC}/${sid}/Calls?PageSize=5`],
  ['calls-status-asc-size10', 448, (sid) => `${RC}/${sid}/Calls?SortBy=Status:asc&PageSize=10`],
  ['calls-none', 0, (sid) => `${RC}/${sid}/Calls`],
  ['recordings-page1-size3', 448, (sid) => `${RC}/${sid}/Recordings?PageSize=3&Page=1`],
  ['recordings-none', 0, (sid) => `${RC}/${sid}/Recordings`],
  ['notifications-size2', 448, (sid) => `${RC}/${sid}/Notifications?PageSize=2`],
  ['call', 448, (sid, a) => `${RC}/${sid}/Calls/${a.calls.get(a.calls.order(null).at(0)).sid}`],
  ['call-recordings', 1, (sid, a) => `${RC}/${sid}/Calls/${a.calls.get(a.calls.order(null).at(0)).sid}/Recordings`],
  ['account', 448, (sid) => `${RC}/${sid}`],
];

describe('golden XML bodies for the default seed (--dialect restcomm)', () => {
  test.each(xmlCases)('%s', async (name, role, path) => {
    const account = byCalls(restcomm.world, role);
    const res = await authGet(restcomm.app, path(account.sid, account.store), account.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml');
    const file = join(GOLDEN_DIR, 'xml', `${name}.xml`);
    if (UPDATE) writeFileSync(file, res.text);
    expect(existsSync(file)).toBe(true);
    expect(res.text).toBe(readFileSync(file, 'utf8'));
  });
});
