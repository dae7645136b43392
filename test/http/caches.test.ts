import request from 'supertest';
import { RUN_MAX_ITEMS } from '../../src/cache/render-cache';
import * as renderedRuns from '../../src/cache/rendered-run';
import * as callFormat from '../../src/format/call';
import type { AccountSpec } from '../../src/generators/account-spec';
import { CALL_SORT, RECORDING_SORT } from '../../src/query/sort';
import { authGet, callsPath, makeEmulator, recordingsPath, type TestEmulator } from '../support/app';

/**
 * The caches must be invisible: every answer equals, byte for byte, what an emulator with cold
 * caches renders for the same request.
 */
const accounts = [
  { friendlyName: 'Multi', calls: 37, recordings: 25 },
  { friendlyName: 'Exact', calls: 20, recordings: 15 },
  { friendlyName: 'None', calls: 0, recordings: 0 },
];

function pagesOf(total: number, size: number): number[] {
  const last = Math.floor(total / size);
  return [...new Set([0, 1, last - 1, last].filter((p) => p >= 0 && p <= last))];
}

function requests(em: TestEmulator): { path: string; token: string }[] {
  const out: { path: string; token: string }[] = [];
  for (const a of em.world.accounts()) {
    const lists = [
      { path: callsPath(a.profile.sid), total: a.calls.count, attrs: Object.keys(CALL_SORT) },
      { path: recordingsPath(a.profile.sid), total: a.recordings.count, attrs: Object.keys(RECORDING_SORT) },
    ];
    for (const list of lists) {
      const sorts = ['', ...list.attrs.flatMap((attr) => [`&SortBy=${attr}`, `&SortBy=${attr}:desc`])];
      for (const sort of sorts) {
        // Page edges: first, second, next to last and last pages, at sizes that divide the
        // total and sizes that do not, and PageSize=1.
        for (const size of [1, 5, 7, 50]) {
          for (const page of pagesOf(list.total, size)) {
            out.push({ path: `${list.path}?Page=${page}&PageSize=${size}${sort}`, token: a.profile.token });
          }
        }
      }
    }
  }
  return out;
}

async function bodies(em: TestEmulator, reqs: { path: string; token: string }[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of reqs) {
    const res = await authGet(em.app, r.path, r.token);
    expect(res.status).toBe(200);
    out.push(`${JSON.stringify(res.headers['x-emulator-warning'] ?? null)} ${res.text}`);
  }
  return out;
}

describe('rendered-bytes caches', () => {
  const warm = makeEmulator({ accounts });
  const reqs = requests(warm);

  test('every order, at page edges: first and cached answers equal a cold render', async () => {
    expect(reqs.length).toBeGreaterThan(300);
    const first = await bodies(warm, reqs);
    // The second sight is kept (see Doorkeeper), the third is served from the cache.
    const second = await bodies(warm, reqs);
    const again = await bodies(warm, reqs);
    const cold: string[] = [];
    // A fresh emulator per request: nothing cached anywhere.
    for (const r of reqs.slice(0, 60)) cold.push(...(await bodies(makeEmulator({ accounts }), [r])));
    expect(second).toEqual(first);
    expect(again).toEqual(first);
    expect(first.slice(0, 60)).toEqual(cold);
    expect(warm.app.cache.responses.hits).toBeGreaterThanOrEqual(reqs.length);
    expect(warm.app.cache.items.hits).toBeGreaterThan(0);
    // Every order was asked for again: each one of an account with records is a run.
    expect(warm.app.cache.runs.size).toBeGreaterThan(30);
    expect(warm.app.cache.runs.hits).toBeGreaterThan(0);
  });

  test('items cached by one page size serve another order and size unchanged', async () => {
    const fresh = makeEmulator({ accounts });
    const big = fresh.world.accounts()[0]!;
    // Asked twice: the items are kept on their second render.
    for (let i = 0; i < 2; i++)
      await authGet(fresh.app, `${callsPath(big.profile.sid)}?PageSize=37`, big.profile.token);
    const path = `${callsPath(big.profile.sid)}?PageSize=9&Page=2&SortBy=To:desc`;
    const viaItems = await authGet(fresh.app, path, big.profile.token);
    const cold = await authGet(makeEmulator({ accounts }).app, path, big.profile.token);
    expect(viaItems.text).toBe(cold.text);
    expect(fresh.app.cache.items.hits).toBe(9);
  });

  test('after a reset, answers are a fresh render and the caches start over', async () => {
    const em = makeEmulator({ accounts });
    const sample = reqs.filter((_, i) => i % 7 === 0);
    const before = await bodies(em, sample);
    await bodies(em, sample);
    expect(em.app.cache.responses.size).toBe(sample.length);
    const hits = em.app.cache.responses.hits;
    await request(em.app).post('/__admin/reset').type('json').expect(200);
    const after = await bodies(em, sample);
    expect(after).toEqual(before);
    // The reset emptied the caches: the first round after it missed every time and rendered
    // afresh. Its answers had been asked for before, so they were kept at once.
    expect(em.app.cache.responses.hits).toBe(hits);
    expect(em.app.cache.responses.size).toBe(sample.length);
    expect(await bodies(em, sample)).toEqual(before);
    expect(em.app.cache.responses.hits).toBe(hits + sample.length);
  });

  test('an answer is kept from its second request, and served from the cache from its third', async () => {
    const em = makeEmulator({ accounts });
    const a = em.world.accounts()[0]!;
    const path = `${callsPath(a.profile.sid)}?PageSize=5`;
    const seen: [number, number, number][] = [];
    for (let i = 0; i < 4; i++) {
      expect((await authGet(em.app, path, a.profile.token)).status).toBe(200);
      const { responses, items } = em.app.cache;
      seen.push([responses.size, responses.hits, items.size]);
    }
    // Once: nothing kept. Twice: the response and its 5 items kept. Then: hits, nothing new.
    expect(seen).toEqual([
      [0, 0, 0],
      [1, 0, 5],
      [1, 1, 5],
      [1, 2, 5],
    ]);
  });

  test('a page built while a write went by is not kept for the state after the write', async () => {
    const em = makeEmulator({ accounts });
    const a = em.world.accounts()[0]!;
    const path = `${callsPath(a.profile.sid)}?PageSize=5&SortBy=Duration`;
    expect((await authGet(em.app, path, a.profile.token)).status).toBe(200);
    // The second ask is admitted to the cache; while its page is written (as a page thread or an
    // order built in slices may take, with other requests served meanwhile) the world changes.
    const version = em.world.version;
    const real = callFormat.callJson;
    const write = jest.spyOn(callFormat, 'callJson').mockImplementationOnce((call, sid) => {
      em.world.setClock(em.world.nowMs + 60_000);
      return real(call, sid);
    });
    try {
      expect((await authGet(em.app, path, a.profile.token)).status).toBe(200);
    } finally {
      write.mockRestore();
    }
    expect(em.world.version).toBeGreaterThan(version);
    expect(em.app.cache.responses.size).toBe(0);
  });

  test('requests that differ only in credentials are cached apart', async () => {
    const em = makeEmulator({ accounts });
    const a = em.world.accounts()[0]!;
    const path = callsPath(a.profile.sid);
    expect((await authGet(em.app, path, a.profile.token)).status).toBe(200);
    const wrong = await authGet(em.app, path, 'not-a-token');
    expect(wrong.status).toBe(401);
    const other = await authGet(em.app, path, em.world.accounts()[1]!.profile.token);
    expect(other.status).toBe(403);
  });

  test('small budgets bound the caches, and evictions change no answer', async () => {
    const small = makeEmulator({ accounts, cache: { itemBytes: 8_000, responseBytes: 30_000, runBytes: 100_000 } });
    const sample = reqs.slice(0, 120);
    const first = await bodies(small, sample);
    const again = await bodies(small, sample);
    expect(again).toEqual(first);
    expect(first).toEqual(await bodies(warm, sample));
    expect(small.app.cache.responses.bytes).toBeLessThanOrEqual(30_000);
    expect(small.app.cache.items.bytes).toBeLessThanOrEqual(8_000);
    expect(small.app.cache.runs.bytes).toBeLessThanOrEqual(100_000);
    expect(small.app.cache.responses.size).toBeGreaterThan(0);
    expect(small.app.cache.runs.size).toBeGreaterThan(0);
  });

  test('budgets of 0 (--cache-mb 0) keep nothing and change no answer', async () => {
    const none = makeEmulator({ accounts, cache: { itemBytes: 0, responseBytes: 0, runBytes: 0 } });
    const sample = reqs.slice(0, 40);
    expect(await bodies(none, sample)).toEqual(await bodies(warm, sample));
    expect(await bodies(none, sample)).toEqual(await bodies(warm, sample));
    expect([none.app.cache.items.size, none.app.cache.responses.size, none.app.cache.runs.size]).toEqual([0, 0, 0]);
    expect(none.app.cache.responses.hits).toBe(0);
  });
});

describe('runs: an order of a small account kept whole, its pages slices of it', () => {
  const pagesOfOrder = (sid: string, sort: string, size: number, total: number) =>
    pagesOf(total, size).map((page) => `${callsPath(sid)}?Page=${page}&PageSize=${size}${sort}`);
  const move = (em: TestEmulator) =>
    request(em.app).post('/__admin/clock').type('json').send({ advance: 'PT1M' }).expect(200);

  test('built on the second ask of an order in one version; every page of it then equals a cold render', async () => {
    const em = makeEmulator({ accounts });
    const a = em.world.accounts()[0]!;
    const first = `${callsPath(a.profile.sid)}?PageSize=5&SortBy=From:desc`;
    await authGet(em.app, first, a.profile.token);
    expect(em.app.cache.runs.size).toBe(0);
    // Another page of the same order is its second ask.
    await authGet(em.app, `${callsPath(a.profile.sid)}?PageSize=7&Page=2&SortBy=From:desc`, a.profile.token);
    expect(em.app.cache.runs.size).toBe(1);
    const paths = [7, 9, 37, 50].flatMap((size) => pagesOfOrder(a.profile.sid, '&SortBy=From:desc', size, 37));
    const hits = em.app.cache.runs.hits;
    const viaRun = await bodies(
      em,
      paths.map((path) => ({ path, token: a.profile.token })),
    );
    expect(em.app.cache.runs.hits).toBe(hits + paths.length);
    const cold: string[] = [];
    for (const path of paths)
      cold.push(...(await bodies(makeEmulator({ accounts }), [{ path, token: a.profile.token }])));
    expect(viaRun).toEqual(cold);
  });

  test('a write between two asks builds nothing; the next two asks after it do', async () => {
    const em = makeEmulator({ accounts });
    const a = em.world.accounts()[0]!;
    // Pages of one order, each asked once (a page asked again would come from the response cache).
    const path = `${callsPath(a.profile.sid)}?PageSize=5&SortBy=Duration`;
    await authGet(em.app, `${path}&Page=0`, a.profile.token);
    await move(em);
    await authGet(em.app, `${path}&Page=1`, a.profile.token);
    // A clock moved before every request (--clock-rate) must not render whole orders each time.
    expect(em.app.cache.runs.size).toBe(0);
    await authGet(em.app, `${path}&Page=2`, a.profile.token);
    expect(em.app.cache.runs.size).toBe(1);
    const moved = await authGet(em.app, `${path}&Page=3`, a.profile.token);
    const fresh = makeEmulator({ accounts });
    await move(fresh);
    expect(moved.text).toBe((await authGet(fresh.app, `${path}&Page=3`, a.profile.token)).text);
  });

  test(`an order over ${RUN_MAX_ITEMS} items is never a run`, async () => {
    const em = makeEmulator({ accounts: [{ friendlyName: 'Big', calls: RUN_MAX_ITEMS + 1, recordings: 0 }] });
    const a = em.world.accounts()[0]!;
    for (let i = 0; i < 3; i++) await authGet(em.app, `${callsPath(a.profile.sid)}?PageSize=10`, a.profile.token);
    expect(em.app.cache.runs.size).toBe(0);
    expect(em.app.cache.responses.hits).toBe(1);
  });

  test(`the items of an order over ${RUN_MAX_ITEMS} are not kept, and its pages equal a cold render`, async () => {
    const big = [{ friendlyName: 'Big', calls: RUN_MAX_ITEMS + 1, recordings: 0 }];
    const em = makeEmulator({ accounts: big });
    const a = em.world.accounts()[0]!;
    // Overlapping pages, each asked twice: what the item cache would keep, were it used.
    const paths = [5, 7, 5, 7].map((size) => `${callsPath(a.profile.sid)}?PageSize=${size}&Page=1`);
    const served = await bodies(
      em,
      paths.map((path) => ({ path, token: a.profile.token })),
    );
    expect(em.app.cache.items.size).toBe(0);
    const cold = makeEmulator({ accounts: big, cache: { itemBytes: 0, responseBytes: 0 } });
    expect(served).toEqual(
      await bodies(
        cold,
        paths.map((path) => ({ path, token: a.profile.token })),
      ),
    );
  });

  test('a run larger than its budget is built once in a version, not on every other ask', async () => {
    const em = makeEmulator({ accounts, cache: { runBytes: 1_000 } });
    const a = em.world.accounts()[0]!;
    const build = jest.spyOn(renderedRuns, 'renderedRun');
    const paths = pagesOfOrder(a.profile.sid, '&SortBy=To', 5, 37);
    const viaRuns = await bodies(
      em,
      paths.map((path) => ({ path, token: a.profile.token })),
    );
    expect(build).toHaveBeenCalledTimes(1);
    expect(em.app.cache.runs.size).toBe(0);
    build.mockRestore();
    const cold = makeEmulator({ accounts, cache: { runBytes: 0 } });
    expect(viaRuns).toEqual(
      await bodies(
        cold,
        paths.map((path) => ({ path, token: a.profile.token })),
      ),
    );
  });

  test('an order holding an inserted record is not a run, and its pages are right', async () => {
    const em = makeEmulator({ accounts });
    const a = em.world.accounts()[1]!;
    await request(em.app)
      .post(`/__admin/accounts/${a.profile.sid}/calls`)
      .type('json')
      .send({ from: 'alice' })
      .expect(201);
    const paths = pagesOfOrder(a.profile.sid, '&SortBy=From', 3, 21);
    const first = await bodies(
      em,
      paths.map((path) => ({ path, token: a.profile.token })),
    );
    const second = await bodies(
      em,
      paths.map((path) => ({ path, token: a.profile.token })),
    );
    expect(em.app.cache.runs.size).toBe(0);
    expect(second).toEqual(first);
    expect(first.some((b) => b.includes('"from":"alice"'))).toBe(true);
  });

  test('XML pages (the Restcomm dialect without .json) are not runs', async () => {
    const em = makeEmulator({ accounts, dialect: 'restcomm' });
    const a = em.world.accounts()[0]!;
    const xmlPath = `/restcomm/2012-04-24/Accounts/${a.profile.sid}/Calls?PageSize=5`;
    for (let i = 0; i < 3; i++) {
      const res = await authGet(em.app, `${xmlPath}&Page=${i}`, a.profile.token);
      expect([res.status, res.type]).toEqual([200, 'application/xml']);
    }
    expect(em.app.cache.runs.size).toBe(0);
  });
});

describe('what outlives a request, an app and a reset (ARCHITECTURE.md)', () => {
  const family: AccountSpec[] = [
    { friendlyName: 'Parent', calls: 30, recordings: 5, sid: `AC${'1'.padStart(32, '0')}`, token: 'parent-token' },
    {
      friendlyName: 'Child',
      calls: 12,
      recordings: 3,
      sid: `AC${'2'.padStart(32, '0')}`,
      token: 'child-token',
      parent: `AC${'1'.padStart(32, '0')}`,
    },
  ];
  const parent = family[0] as AccountSpec & { sid: string; token: string };
  const merged = `${callsPath(parent.sid)}?SubAccounts=true&PageSize=7`;

  test('two apps in one process share no list state: a merged order is kept by the app that made it', async () => {
    const one = makeEmulator({ accounts: family });
    const two = makeEmulator({ accounts: family });
    const page = await authGet(one.app, merged, parent.token);
    expect(page.body.total).toBe(42);
    expect(one.app.listCaches.mergedCount).toBe(1);
    expect(two.app.listCaches.mergedCount).toBe(0);
    expect(two.app.listCaches).not.toBe(one.app.listCaches);
  });

  test("a reset keeps the app's list caches, and never serves a merge made before it", async () => {
    const em = makeEmulator({ accounts: family });
    const before = (await authGet(em.app, merged, parent.token)).body;
    await request(em.app).post(`/__admin/accounts/${parent.sid}/calls`).send([{}]).expect(201);
    const written = (await authGet(em.app, merged, parent.token)).body;
    expect(written.total).toBe(43);
    expect(em.app.listCaches.mergedCount).toBe(2);
    await request(em.app).post('/__admin/reset').type('json').expect(200);
    // After the reset the merge is keyed by the tables' new write counts: the one with the insert is never served.
    const after = (await authGet(em.app, merged, parent.token)).body;
    expect(after).toEqual(before);
    expect(em.app.listCaches.mergedCount).toBe(3);
  });
});
