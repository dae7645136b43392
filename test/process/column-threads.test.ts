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
