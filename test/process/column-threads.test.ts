import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CALL_SORT } from '../../src/query/sort';
import { THREADED_MIN } from '../../src/store/column-threads';
import { authGet, callsPath, makeEmulator } from '../support/app';
import { adminAccounts, get, type Spawned, startCli } from '../support/process';

/**
 * The built server draws the sort columns of a huge account on worker threads (the TypeScript
 * sources under jest cannot start one, so the in-process emulator draws them itself): the two
 * must list the same calls in the same order, for every attribute, at either end and inside.
 */
const CALLS = THREADED_MIN + 200_003;
const PAGE_SIZE = 50;
const lastPage = Math.ceil(CALLS / PAGE_SIZE) - 1;

let em: Spawned;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'callrec-threads-'));
  const file = join(dir, 'huge.json');
  writeFileSync(file, JSON.stringify({ accounts: [{ friendly_name: 'Threads', calls: CALLS, recordings: 0 }] }));
  em = await startCli(['--fixtures', file, '--log-level', 'warn']);
});
afterAll(async () => {
  await em?.stop();
});

test.each(Object.keys(CALL_SORT).filter((a) => a !== 'DateCreated'))(
  'sorted by %s, pages of the threaded server equal the in-thread ones',
  async (attribute) => {
    const [account] = await adminAccounts(em.url);
    const local = makeEmulator({ accounts: [{ friendlyName: 'Threads', calls: CALLS, recordings: 0 }] });
    const path = callsPath(account!.sid);
    for (const direction of ['asc', 'desc']) {
      for (const page of [0, Math.floor(lastPage / 2) + 1, lastPage]) {
        const query = `?SortBy=${attribute}:${direction}&Page=${page}&PageSize=${PAGE_SIZE}`;
        const remote = await get(`${em.url}${path}${query}`, account!.token);
        expect(remote.status).toBe(200);
        const mine = await authGet(local.app, `${path}${query}`, account!.token);
        const calls = (JSON.parse(remote.text) as { calls: { sid: string }[] }).calls;
        expect(calls.length).toBeGreaterThan(0);
        expect(calls).toEqual((mine.body as { calls: unknown[] }).calls);
      }
    }
    expect(em.stderr()).not.toMatch(/column thread failed/);
  },
  60_000,
);

// Filters read From, To and Status through the same threaded columns, and EndTime through the
// status column past its bound: the threaded server must keep exactly the in-thread calls.
test.each(['Status=completed', 'Status=BUSY', 'From=%2B1%25', 'To=5', 'EndTime=MIDDLE', 'To=1&SortBy=Price:desc'])(
  'filtered by %s, pages of the threaded server equal the in-thread ones',
  async (given) => {
    let filter = given;
    const [account] = await adminAccounts(em.url);
    const local = makeEmulator({ accounts: [{ friendlyName: 'Threads', calls: CALLS, recordings: 0 }] });
    const path = callsPath(account!.sid);
    if (filter === 'EndTime=MIDDLE') {
      // The day of the middle call: half the calls end by then, half after.
      const middle = await get(`${em.url}${path}?Page=${Math.floor(CALLS / 2)}&PageSize=1`, account!.token);
      const [call] = (JSON.parse(middle.text) as { calls: { date_created: string }[] }).calls;
      filter = `EndTime=${new Date(call!.date_created).toISOString().slice(0, 10)}`;
    }
    const first = await get(`${em.url}${path}?${filter}&PageSize=${PAGE_SIZE}`, account!.token);
    expect(first.status).toBe(200);
    const { total } = JSON.parse(first.text) as { total: number };
    expect(total).toBeGreaterThan(0);
    const last = Math.ceil(total / PAGE_SIZE) - 1;
    for (const page of [0, Math.floor(last / 2), last]) {
      const query = `?${filter}&Page=${page}&PageSize=${PAGE_SIZE}`;
      const remote = await get(`${em.url}${path}${query}`, account!.token);
      const mine = await authGet(local.app, `${path}${query}`, account!.token);
      expect(JSON.parse(remote.text)).toEqual(mine.body);
    }
    expect(em.stderr()).not.toMatch(/column thread failed/);
  },
  60_000,
);
