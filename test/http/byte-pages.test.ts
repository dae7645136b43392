import request from 'supertest';
import { RUN_MAX_ITEMS } from '../../src/cache/render-cache';
import { callJson } from '../../src/format/call';
import { callsPath, makeEmulator } from '../support/app';

/**
 * A page of an order longer than RUN_MAX_ITEMS (a walk of a big account) is written as bytes,
 * not as text: its items must be, byte for byte, the text each record writes, in every order and
 * filter, with inserted records (texts that need escaping, non-ASCII) among the seeded ones.
 */

const CALLS = 3 * RUN_MAX_ITEMS;
const account = { friendlyName: 'Big', calls: CALLS, recordings: 0, sid: `AC${'b'.repeat(32)}`, token: 'big-token' };

describe('pages of a long order, written as bytes', () => {
  const { app, world } = makeEmulator({ accounts: [account] });
  const store = world.accounts()[0];
  if (store === undefined) throw new Error('no account');

  /** The page's calls as the records' own texts, joined as a page joins them. */
  function expectedItems(body: string): string {
    const calls = (JSON.parse(body) as { calls: { sid: string }[] }).calls;
    const table = store?.calls;
    return calls
      .map(({ sid }) => {
        const id = table?.find(sid);
        if (id === undefined || table === undefined) throw new Error(`no call ${sid}`);
        return callJson(table.get(id), account.sid);
      })
      .join(',');
  }

  test.each([
    ['the default order', 'PageSize=50&Page=3'],
    ['the last page', 'PageSize=100&Page=29'],
    ['a sort by From', 'PageSize=40&Page=7&SortBy=From:asc'],
    ['a sort by Duration', 'PageSize=25&Page=2&SortBy=Duration:desc'],
    ['a filter', 'PageSize=30&Status=completed'],
    ['one item', 'PageSize=1&Page=2999'],
  ])('%s: every item is its record’s text', async (_, query) => {
    const res = await request(app)
      .get(`${callsPath(account.sid)}?${query}`)
      .auth(account.token, '');
    expect(res.status).toBe(200);
    expect(res.text).toContain(`"calls":[${expectedItems(res.text)}]`);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
  });

  test('inserted calls with texts to escape and non-ASCII names are written as their text', async () => {
    for (const caller_name of ['Zoë "Zee" O\\Brien', 'Łukasz 😀', 'tab\there']) {
      const res = await request(app)
        .post(`/__admin/accounts/${account.sid}/calls`)
        .type('json')
        .send({ caller_name, from: '+15550001111', date_created: 'Sat, 31 May 2025 23:59:00 +0000' });
      expect(res.status).toBe(201);
    }
    const res = await request(app)
      .get(`${callsPath(account.sid)}?PageSize=20`)
      .auth(account.token, '');
    expect(res.status).toBe(200);
    const names = (JSON.parse(res.text) as { calls: { caller_name: string }[] }).calls.map((c) => c.caller_name);
    expect(names).toEqual(expect.arrayContaining(['Zoë "Zee" O\\Brien', 'Łukasz 😀', 'tab\there']));
    expect(res.text).toContain(`"calls":[${expectedItems(res.text)}]`);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
  });
});
