import { messages } from '../../src/errors';
import { ENVELOPES } from '../../src/format/envelopes';
import { DIALECTS } from '../../src/format/uris';
import { PAGE_WRITERS } from '../../src/routes/writers';
import type { PageWriter } from '../../src/routes/writers/page';
import { authGet, byCalls, callsPath, ENVELOPE_KEYS, makeEmulator, recordingsPath } from '../support/app';

const { app, world } = makeEmulator();
const big = byCalls(world, 448);
const fifty = byCalls(world, 50);
const empty = byCalls(world, 0);

describe('the calls list envelope', () => {
  test('keys in production order, numbers and strings as production types them', async () => {
    const res = await authGet(app, callsPath(big.sid), big.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Object.keys(res.body)).toEqual([...ENVELOPE_KEYS, 'calls']);
    for (const k of ['page', 'num_pages', 'page_size', 'total']) expect(typeof res.body[k]).toBe('number');
    for (const k of ['start', 'end']) expect(typeof res.body[k]).toBe('string');
  });

  test.each([
    // [query, items, start, end, page, previous, next]
    ['', 50, '0', '49', 0, 'null', 'Page=1&PageSize=50&AfterSid='],
    ['?Page=2', 50, '100', '149', 2, 'Page=1&PageSize=50', 'Page=3&PageSize=50&AfterSid='],
    ['?Page=8', 48, '400', '448', 8, 'Page=7&PageSize=50', 'null'],
    ['?PageSize=100&Page=4', 48, '400', '448', 4, 'Page=3&PageSize=100', 'null'],
    ['?PageSize=100&Page=2', 100, '200', '299', 2, 'Page=1&PageSize=100', 'Page=3&PageSize=100&AfterSid='],
  ])('448 calls %s', async (query, items, start, end, page, previous, next) => {
    const res = await authGet(app, callsPath(big.sid) + query, big.token);
    const uri = `/2012-04-24/Accounts/${big.sid}/Calls`;
    const ps = res.body.page_size as number;
    expect(res.body).toMatchObject({ page, total: 448, num_pages: Math.floor(448 / ps), start, end, uri });
    expect(res.body.calls).toHaveLength(items);
    expect(res.body.first_page_uri).toBe(`${uri}?Page=0&PageSize=${ps}`);
    expect(res.body.last_page_uri).toBe(`${uri}?Page=${Math.floor(448 / ps)}&PageSize=${ps}`);
    expect(res.body.previous_page_uri).toBe(previous === 'null' ? 'null' : `${uri}?${previous}`);
    if (next === 'null') {
      expect(res.body.next_page_uri).toBe('null');
    } else {
      const lastSid = res.body.calls[items - 1].sid as string;
      expect(res.body.next_page_uri).toBe(`${uri}?${next}${lastSid}`);
    }
  });

  test('PageSize=1: one item, num_pages equals total', async () => {
    const res = await authGet(app, `${callsPath(big.sid)}?PageSize=1`, big.token);
    expect(res.body).toMatchObject({ num_pages: 448, total: 448, start: '0', end: '0', page_size: 1 });
    expect(res.body.calls).toHaveLength(1);
  });

  test('50 calls at 50 a page: page 0 is full with a next link, page 1 is valid and empty', async () => {
    const p0 = await authGet(app, callsPath(fifty.sid), fifty.token);
    expect(p0.body).toMatchObject({ num_pages: 1, start: '0', end: '49' });
    expect(p0.body.next_page_uri).toContain('Page=1&PageSize=50&AfterSid=');
    const p1 = await authGet(app, `${callsPath(fifty.sid)}?Page=1`, fifty.token);
    expect(p1.status).toBe(200);
    expect(p1.body).toMatchObject({ page: 1, num_pages: 1, start: '50', end: '50', next_page_uri: 'null', calls: [] });
  });

  test('an empty list: num_pages 0, start and end "0", both neighbour links "null"', async () => {
    const res = await authGet(app, callsPath(empty.sid), empty.token);
    expect(res.body).toMatchObject({
      page: 0,
      num_pages: 0,
      page_size: 50,
      total: 0,
      start: '0',
      end: '0',
      previous_page_uri: 'null',
      next_page_uri: 'null',
      calls: [],
    });
    expect(res.body.last_page_uri).toBe(`/2012-04-24/Accounts/${empty.sid}/Calls?Page=0&PageSize=50`);
  });

  test('page links never carry SortBy or other parameters', async () => {
    const res = await authGet(app, `${callsPath(big.sid)}?Page=1&PageSize=20&SortBy=From:desc&Foo=bar`, big.token);
    for (const k of ['first_page_uri', 'previous_page_uri', 'next_page_uri', 'last_page_uri']) {
      expect(res.body[k]).not.toMatch(/SortBy|Foo/);
    }
    expect(res.body.uri).toBe(`/2012-04-24/Accounts/${big.sid}/Calls`);
  });

  test('the next link names the last item of the page in the requested order', async () => {
    const res = await authGet(app, `${callsPath(big.sid)}?PageSize=7&SortBy=Duration:desc`, big.token);
    expect(res.body.next_page_uri).toBe(
      `/2012-04-24/Accounts/${big.sid}/Calls?Page=1&PageSize=7&AfterSid=${res.body.calls[6].sid}`,
    );
  });

  test('a client-sent AfterSid is ignored: the page is the same; a warning names the record the page follows', async () => {
    const page0 = await authGet(app, `${callsPath(big.sid)}?Page=0&PageSize=5`, big.token);
    const plain = await authGet(app, `${callsPath(big.sid)}?Page=1&PageSize=5`, big.token);
    const other = page0.body.calls[2].sid as string;
    const withAfter = await authGet(app, `${callsPath(big.sid)}?Page=1&PageSize=5&AfterSid=${other}`, big.token);
    expect(withAfter.text).toBe(plain.text);
    expect(withAfter.headers['x-emulator-warning']).toBe(messages.afterSidOther(other, page0.body.calls[4].sid));
    const first = await authGet(app, `${callsPath(big.sid)}?Page=0&PageSize=5&AfterSid=${other}`, big.token);
    expect(first.headers['x-emulator-warning']).toBe(messages.afterSidOther(other, undefined));
  });

  test('the AfterSid of next_page_uri (the item just before the page) is normal use: no warning', async () => {
    const page0 = await authGet(app, `${callsPath(big.sid)}?Page=0&PageSize=5`, big.token);
    const next = await authGet(app, `/call${page0.body.next_page_uri.replace('/Calls?', '/Calls.json?')}`, big.token);
    expect(next.status).toBe(200);
    expect(next.headers['x-emulator-warning']).toBeUndefined();
  });
});

describe('the recordings list envelope', () => {
  test('keys in production order; uri with /call and .json', async () => {
    const res = await authGet(app, recordingsPath(big.sid), big.token);
    expect(Object.keys(res.body)).toEqual([...ENVELOPE_KEYS, 'recordings']);
    expect(res.body.uri).toBe(`/call/2012-04-24/Accounts/${big.sid}/Recordings.json`);
    expect(res.body.first_page_uri).toBe(`/call/2012-04-24/Accounts/${big.sid}/Recordings.json?Page=0&PageSize=50`);
    expect(res.body.total).toBe(160);
  });

  test.each([
    ['', 34, 0, '0', '34', 0],
    ['?PageSize=10', 10, 0, '0', '9', 3],
    ['?PageSize=10&Page=2', 10, 2, '20', '29', 3],
    ['?PageSize=10&Page=3', 4, 3, '30', '34', 3],
    ['?PageSize=1', 1, 0, '0', '0', 34],
  ])('34 recordings %s', async (query, items, page, start, end, numPages) => {
    const res = await authGet(app, recordingsPath(fifty.sid) + query, fifty.token);
    expect(res.body).toMatchObject({ page, start, end, num_pages: numPages, total: 34 });
    expect(res.body.recordings).toHaveLength(items);
  });

  test('34 recordings at PageSize=1: the next link carries the first item sid', async () => {
    const res = await authGet(app, `${recordingsPath(fifty.sid)}?PageSize=1`, fifty.token);
    expect(res.body.next_page_uri).toBe(
      `/call/2012-04-24/Accounts/${fifty.sid}/Recordings.json?Page=1&PageSize=1&AfterSid=${res.body.recordings[0].sid}`,
    );
  });
});

describe('the seams a dialect adds to', () => {
  test("a dialect's envelope is its registration alone: every list page, JSON, of every list, is written by it", async () => {
    const { app: own, world: w } = makeEmulator({ unchecked: true });
    const a = byCalls(w, 448);
    const seen: { key: string; first: string; last: string }[] = [];
    const replaced = jest.spyOn(ENVELOPES, 'spec').mockImplementation((p) => {
      seen.push({ key: p.key, first: p.sidAt(0), last: p.sidAt(p.window.count - 1) });
      return { head: `{"${p.key}":[`, tail: `],"cursor":"${p.sidAt(p.window.count - 1)}"}` };
    });
    try {
      const calls = await authGet(own, `${callsPath(a.sid)}?PageSize=3`, a.token);
      const recordings = await authGet(own, `${recordingsPath(a.sid)}?PageSize=2`, a.token);
      expect(Object.keys(calls.body)).toEqual(['calls', 'cursor']);
      expect(calls.body.cursor).toBe(calls.body.calls[2].sid);
      expect(Object.keys(recordings.body)).toEqual(['recordings', 'cursor']);
      expect(seen.map((s) => s.key)).toEqual(['calls', 'recordings']);
      expect(seen[0]?.first).toBe(calls.body.calls[0].sid);
    } finally {
      replaced.mockRestore();
    }
  });

  test('a new way of writing a page is a writer and its place in the list: it takes the pages it wants, the others go on', async () => {
    const { app: own, world: w } = makeEmulator({ unchecked: true });
    const a = byCalls(w, 448);
    const mine: PageWriter = (job) => {
      if (job.window.count !== 7) return false;
      job.res.setHeader('Content-Type', 'text/plain');
      job.res.end(`${job.head.length} ${job.window.count}`);
      return true;
    };
    const writers = PAGE_WRITERS as PageWriter[];
    writers.unshift(mine);
    try {
      const taken = await authGet(own, `${callsPath(a.sid)}?PageSize=7`, a.token);
      expect(taken.text).toMatch(/^\d+ 7$/);
      const passed = await authGet(own, `${callsPath(a.sid)}?PageSize=6`, a.token);
      expect(passed.body.calls).toHaveLength(6);
    } finally {
      writers.shift();
    }
  });

  test('every dialect has an envelope', () => {
    expect(Object.keys(ENVELOPES).sort()).toEqual(Object.keys(DIALECTS).sort());
  });
});
