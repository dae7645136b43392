import { resolve } from 'node:path';
import { requestable, walkCalls } from '../../examples/client/walk-calls';
import { adminAccounts, ROOT, runCommand, type Spawned, startCli } from '../support/process';

const run = runCommand;

describe('examples/', () => {
  let em: Spawned;
  beforeAll(async () => {
    em = await startCli([]);
  });
  afterAll(async () => {
    await em.stop();
  });

  test('the TypeScript client walks every page through next_page_uri and counts total', async () => {
    expect(requestable('/2012-04-24/Accounts/AC1/Calls?Page=1&PageSize=50&AfterSid=X')).toBe(
      '/call/2012-04-24/Accounts/AC1/Calls.json?Page=1&PageSize=50&AfterSid=X',
    );
    const accounts = await adminAccounts(em.url);
    for (const a of accounts) {
      for (const size of [7, 50]) {
        const r = await walkCalls(em.url, a.sid, a.token, size);
        expect(r.seen).toBe(a.calls);
        expect(r.total).toBe(a.calls);
        expect(new Set(r.sids).size).toBe(a.calls);
      }
    }
  });

  test('the incremental sync example: the naive watermark misses late commits, named; the fix misses none', async () => {
    const { incrementalSync } = await import('../../examples/client/incremental-sync');
    const calm = await incrementalSync(em.url);
    expect(calm.first).toBeGreaterThan(4000);
    expect(calm.second).toBeGreaterThan(600);
    expect(calm.sync).toMatchObject({ walks: 2, missed: [], causes: {} });
    const naive = await incrementalSync(em.url, { commitLagS: 600 });
    expect(naive.sync.missed?.length).toBeGreaterThan(3);
    expect(new Set(Object.values(naive.sync.causes))).toEqual(new Set(['commit_lag']));
    expect(Object.keys(naive.sync.causes).sort()).toEqual([...(naive.sync.missed ?? [])].sort());
    const fixed = await incrementalSync(em.url, { commitLagS: 600, fixed: true });
    expect(fixed.sync).toMatchObject({ walks: 2, missed: [], causes: {} });
    expect(fixed.second).toBeGreaterThan(naive.second);
    expect((await adminAccounts(em.url)).map((a) => a.friendly_name)).not.toContain('Incremental sync');
  });

  test('the compose app walks the calls of the emulator it is given', async () => {
    const r = await run(process.execPath, [resolve(ROOT, 'examples', 'compose-app', 'app.js')], {
      CALLREC_URL: em.url,
    });
    expect(r.out).toMatch(/^walked 448 of 448 calls of AC[0-9a-f]{32}$/m);
    expect(r.code).toBe(0);
  });

  test('the curl walkthrough runs to the end', async () => {
    const r = await run('bash', [resolve(ROOT, 'examples', 'curl-walkthrough.sh'), em.url]);
    expect(r.out).toContain('== done');
    expect(r.out).toMatch(/whole: 200 \d+ bytes/);
    expect(r.out).toContain('range: 206 44 bytes');
    expect(r.out).toContain('+15550001111');
    expect(r.code).toBe(0);
  });
});
