import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_MAX_ITEMS } from '../../src/cache/render-cache';
import { authGet, callsPath, makeEmulator } from '../support/app';
import { adminAccounts, get, type Spawned, startCli } from '../support/process';

/**
 * The built server hands pages of a long order that are asked for together to page threads (the
 * TypeScript sources under jest start none, so the in-process emulator writes every page itself):
 * whatever a thread writes must be the in-thread page byte for byte, for an account and for a
 * sandbox forked from it (drawn from its parent's data, written under its own sid).
 */
const CALLS = 20 * RUN_MAX_ITEMS;
const spec = { friendlyName: 'Walked', calls: CALLS, recordings: 0 };

let em: Spawned;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'callrec-page-threads-'));
  const file = join(dir, 'walked.json');
  writeFileSync(
    file,
    JSON.stringify({ accounts: [{ friendly_name: spec.friendlyName, calls: CALLS, recordings: 0 }] }),
  );
  em = await startCli(['--fixtures', file, '--log-level', 'warn']);
});
afterAll(async () => {
  await em?.stop();
});

/** Pages on threads so far, from /metrics. */
async function onThreads(): Promise<number> {
  const text = (await get(`${em.url}/metrics`)).text;
  const line = text.split('\n').find((l) => l.startsWith('callrec_pages_on_threads_total '));
  return Number(line?.split(' ')[1]);
}

/** Many pages at once, as a walk's connections ask for them: more than a thread's slots, so some wait for one. */
const queries = Array.from({ length: 80 }, (_, k) => {
  const size = [50, 10, 100, 37][k % 4] as number;
  const sort = ['', '&SortBy=From:asc', '&SortBy=Duration:desc', '&Status=completed'][Math.floor(k / 4) % 4];
  return `?PageSize=${size}&Page=${(k * 7) % 150}${sort}`;
});

test('pages asked for together are written on threads, equal to the in-thread pages', async () => {
  const [account] = await adminAccounts(em.url);
  const path = callsPath(account!.sid);
  const local = makeEmulator({ accounts: [spec] });
  const before = await onThreads();
  // Twice: the first asks of a profile are checked against this thread's own first call.
  for (let round = 0; round < 2; round++) {
    const remote = await Promise.all(queries.map((q) => get(`${em.url}${path}${q}`, account!.token)));
    for (const [k, q] of queries.entries()) {
      expect(remote[k]?.status).toBe(200);
      const mine = await authGet(local.app, `${path}${q}`, account!.token);
      expect(remote[k]?.text).toBe(mine.text);
    }
  }
  expect(await onThreads()).toBeGreaterThan(before);
  expect(em.stderr()).not.toMatch(/page thread|thread made/);
}, 60_000);

test("a sandbox's pages on threads are its parent's, under its own sid", async () => {
  const [account] = await adminAccounts(em.url);
  const made = await fetch(`${em.url}/__admin/sandboxes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: account!.sid }),
  });
  expect(made.status).toBe(201);
  const sandbox = (await made.json()) as { sid: string; token: string };
  const before = await onThreads();
  const [mine, parents] = await Promise.all([
    Promise.all(queries.map((q) => get(`${em.url}${callsPath(sandbox.sid)}${q}`, sandbox.token))),
    Promise.all(queries.map((q) => get(`${em.url}${callsPath(account!.sid)}${q}`, account!.token))),
  ]);
  for (const [k, page] of mine.entries()) {
    expect(page.status).toBe(200);
    expect(page.text.includes(account!.sid)).toBe(false);
    expect(page.text.replaceAll(sandbox.sid, account!.sid)).toBe(parents[k]?.text);
  }
  expect(await onThreads()).toBeGreaterThan(before);
  // A thread that drew other calls than this one would be caught by the first page's check.
  expect(em.stderr()).not.toMatch(/page thread|thread made/);
}, 60_000);
