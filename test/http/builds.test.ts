import request from 'supertest';
import { buildsUnderWay } from '../../src/http/slices';
import { authGet, byCalls, callsPath, makeEmulator } from '../support/app';

const CALLS = 150_000;
const { app, world } = makeEmulator({
  accounts: [
    { friendlyName: 'Large', calls: CALLS, recordings: 0 },
    { friendlyName: 'Small', calls: 10, recordings: 0 },
  ],
});
const big = byCalls(world, CALLS);
const small = byCalls(world, 10);

interface BuildView {
  account_sid: string;
  list: string;
  sort: string;
  filter: string;
  step: string | null;
  step_number: number;
  done: number;
  total: number;
  elapsed_ms: number;
}

async function builds(query = ''): Promise<BuildView[]> {
  const res = await request(app).get(`/__admin/builds${query}`);
  expect(res.status).toBe(200);
  return res.body.builds as BuildView[];
}

describe('GET /__admin/builds: an order being built says how far it is', () => {
  test('none when nothing is built', async () => {
    expect(await builds()).toEqual([]);
  });

  test("a first sort's build is listed while it runs, its steps move forward, and it is gone when the page comes", async () => {
    let answered = false;
    const page = authGet(app, `${callsPath(big.sid)}?SortBy=From:asc&PageSize=5`, big.token).then((res) => {
      answered = true;
      return res;
    });
    const seen: BuildView[] = [];
    while (!answered) {
      const now = await builds();
      if (now.length > 0) seen.push(now[0] as BuildView);
    }
    expect((await page).status).toBe(200);
    // A build of 300,000 calls takes several turns of the event loop: it was seen under way.
    expect(seen.length).toBeGreaterThan(0);
    const first = seen[0] as BuildView;
    expect(first).toMatchObject({ account_sid: big.sid, list: 'calls', sort: 'from:asc', filter: '' });
    for (const b of seen) {
      expect(b.done).toBeLessThanOrEqual(b.total);
      // A busy runner gives each slice less of the build, so even its last short step shows.
      expect(b.step === null || /^(Reading each call's from|Sorting|Counting keys)$/.test(b.step)).toBe(true);
    }
    // Progress never goes back: within a step the count grows, and steps only advance.
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1] as BuildView, seen[i] as BuildView];
      expect(b.step_number).toBeGreaterThanOrEqual(a.step_number);
      if (b.step_number === a.step_number) expect(b.done).toBeGreaterThanOrEqual(a.done);
    }
    expect(await builds()).toEqual([]);
    expect(buildsUnderWay()).toEqual([]);
  });

  test('a filter names its step and its filter; ?account= lists one account', async () => {
    let answered = false;
    const page = authGet(app, `${callsPath(big.sid)}?Status=busy&PageSize=5`, big.token).then((res) => {
      answered = true;
      return res;
    });
    const seen: BuildView[] = [];
    const other: BuildView[] = [];
    while (!answered) {
      seen.push(...(await builds(`?account=${big.sid}`)));
      other.push(...(await builds(`?account=${small.sid}`)));
    }
    expect((await page).status).toBe(200);
    expect(seen.length).toBeGreaterThan(0);
    // A Status filter reads the calls' status keys, then walks the order for the kept ones.
    const steps = new Set(['Filtering', "Reading each call's status"]);
    expect(seen.some((b) => steps.has(b.step ?? '') && b.filter === 'Status=busy' && b.total === CALLS)).toBe(true);
    expect(other).toEqual([]);
  });

  test('an order already built is never listed', async () => {
    await authGet(app, `${callsPath(small.sid)}?SortBy=To:desc`, small.token);
    expect(buildsUnderWay()).toEqual([]);
  });

  test('an unknown parameter is a 400', async () => {
    const res = await request(app).get('/__admin/builds?acount=x');
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(expect.any(String));
  });
});
