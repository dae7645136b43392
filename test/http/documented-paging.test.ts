import { messages } from '../../src/errors';
import { allItems, authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

const { app, world } = makeEmulator({ paging: 'documented' });
const big = byCalls(world, 448);
const fifty = byCalls(world, 50);
const empty = byCalls(world, 0);

describe('--paging documented', () => {
  test('ceil page count, inclusive end, last page num_pages - 1', async () => {
    const last = await authGet(app, `${callsPath(big.sid)}?Page=8`, big.token);
    expect(last.body).toMatchObject({ num_pages: 9, start: '400', end: '447', next_page_uri: 'null' });
    expect(last.body.last_page_uri).toBe(`/2012-04-24/Accounts/${big.sid}/Calls?Page=8&PageSize=50`);
    expect(last.body.calls).toHaveLength(48);
  });

  test('a multiple of PageSize has no empty trailing page', async () => {
    const p0 = await authGet(app, callsPath(fifty.sid), fifty.token);
    expect(p0.body).toMatchObject({ num_pages: 1, end: '49', next_page_uri: 'null' });
    const p1 = await authGet(app, `${callsPath(fifty.sid)}?Page=1`, fifty.token);
    expect(p1.status).toBe(400);
    expect(p1.body).toEqual({ message: messages.pageBeyondLast(1, 0) });
  });

  test('an empty list has one empty page', async () => {
    const res = await authGet(app, recordingsPath(empty.sid), empty.token);
    expect(res.body).toMatchObject({ num_pages: 1, start: '0', end: '0', recordings: [] });
  });

  test('walking next links visits every item once', async () => {
    const items = await allItems(app, callsPath(big.sid), big.token, 'calls', '', 50);
    expect(new Set(items.map((c) => c.sid)).size).toBe(448);
  });
});
