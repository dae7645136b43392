import { resolve } from 'node:path';
import { connect } from '../../src/client';
import { type EmulatorHandle, startEmulator } from '../../src/emulator';
import type { Call } from '../../src/format/call';
import { ROOT, requireBuild, runCommand } from '../support/process';
import { receiver, statusesOf } from '../support/receiver';

describe('startEmulator (in-process API)', () => {
  let em: EmulatorHandle;
  beforeAll(async () => {
    em = await startEmulator({
      seed: 'in-process',
      fixtures: {
        accounts: [
          { friendly_name: 'A', calls: 30, recordings: 10 },
          { friendly_name: 'B', calls: 5 },
        ],
      },
    });
  });
  afterAll(async () => {
    await em.close();
  });

  const list = async (sid: string, token: string) =>
    (await (
      await fetch(`${em.url}/call/2012-04-24/Accounts/${sid}/Calls.json`, {
        headers: { Authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` },
      })
    ).json()) as { total: number; calls: { sid: string }[] };

  test('listens on a free port and lists its accounts', async () => {
    expect(em.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(em.accounts.map((a) => [a.friendly_name, a.calls, a.recordings])).toEqual([
      ['A', 30, 10],
      ['B', 5, 0],
    ]);
    const [a] = em.accounts;
    expect((await list(a!.sid, a!.token)).total).toBe(30);
  });

  test('addCalls, addRecordings, requests, reset', async () => {
    const [a, b] = em.accounts;
    const added = await em.addCalls(a!.sid, [{ duration: 30, status: 'completed' }, {}]);
    expect(added).toHaveLength(2);
    const recs = await em.addRecordings(a!.sid, { call_sid: added[0]!['sid'] });
    expect(recs[0]!['call_sid']).toBe(added[0]!['sid']);
    expect((await list(a!.sid, a!.token)).total).toBe(32);
    const journal = await em.requests({ account: a!.sid, limit: 1 });
    expect(journal).toHaveLength(1);
    expect(journal[0]!.status).toBe(200);
    await em.addCalls(b!.sid);
    await em.reset(a!.sid);
    expect((await list(a!.sid, a!.token)).total).toBe(30);
    expect((await list(b!.sid, b!.token)).total).toBe(6);
    await em.reset();
    expect((await list(b!.sid, b!.token)).total).toBe(5);
  });

  test('faults and seed', async () => {
    const [a] = em.accounts;
    const fault = await em.faults.add({ status: 503, times: 1 });
    expect(fault.id).toBe('fault-1');
    expect(await em.faults.list()).toHaveLength(1);
    const res = await fetch(`${em.url}/call/2012-04-24/Accounts/${a!.sid}/Calls.json`);
    expect(res.status).toBe(503);
    await em.faults.clear();
    expect(await em.faults.list()).toEqual([]);
    await em.seed('another', { accounts: [{ friendly_name: 'Only', calls: 3 }] });
    expect(em.accounts).toHaveLength(1);
    expect(em.accounts[0]!.sid).not.toBe(a!.sid);
  });

  test('connect(url): the same typed admin API from a process that did not start the emulator', async () => {
    const client = connect(em.url);
    const [a] = await client.accounts();
    expect(a).toMatchObject({ sid: em.accounts[0]!.sid, token: em.accounts[0]!.token });
    const [call] = await client.addCalls(a!.sid, { duration: 42, from: '+15550009999' });
    // Typed as the API shows it: these are compile-time facts as much as runtime ones.
    const status: Call['status'] = call!.status;
    expect([status, call!.duration, call!.from]).toEqual(['completed', 42, '+15550009999']);
    const [rec] = await client.addRecordings(a!.sid, { call_sid: call!.sid, duration: 10 });
    const duration: string = rec!.duration;
    expect(duration).toBe('10.0');
    const fault = await client.faults.add({ status: 503, times: 1 });
    expect(fault).toMatchObject({ id: expect.any(String), matched: 0, applied: 0 });
    expect((await client.faults.list()).map((f) => f.id)).toEqual([fault.id]);
    await client.faults.clear();
    await client.reset(a!.sid);
    await expect(client.addCalls(a!.sid, { status: 'busy', direction: 'outbound-api', duration: 5 })).rejects.toThrow(
      /400 body\[0\]\.duration: must be 0 for a call that is BUSY/,
    );
    const inputs = () =>
      client.addCalls(a!.sid, {
        // @ts-expect-error: an insert takes the call's own fields only
        durration: 1,
      });
    await expect(inputs()).rejects.toThrow(/unknown field/);
    await expect(connect(em.url, { adminToken: 'nope' }).accounts()).resolves.toHaveLength(em.accounts.length);
  });

  test('clock: now, advance, set, on the handle and on connect(url); never back', async () => {
    const start = await em.clock.now();
    const moved = await em.clock.advance('PT5M');
    expect(Date.parse(moved.now) - Date.parse(start)).toBe(300_000);
    const other = connect(em.url);
    const later = new Date(Date.parse(moved.now) + 60_000).toISOString();
    expect((await other.clock.set(later)).now).toBe(later);
    expect((await other.clock.advance(30)).advanced_ms).toBe(390_000);
    await expect(em.clock.set(start)).rejects.toThrow(/400 .*never goes back/);
    await em.reset();
    expect(await other.clock.now()).toBe(start);
  });

  test('connect(url).sandbox(): four parallel workers, each inserting, moving its clock; none sees another', async () => {
    const [a] = em.accounts;
    const workers = await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        const sb = await connect(em.url).sandbox(a!.sid, { name: `worker ${w}` });
        await sb.clock.advance(`PT${w + 1}H`);
        await sb.addCalls(Array.from({ length: w + 1 }, () => ({ from: `+1555000000${w}` })));
        return sb;
      }),
    );
    for (const [w, sb] of workers.entries()) {
      const headers = { Authorization: `Basic ${Buffer.from(`${sb.token}:`).toString('base64')}` };
      const body = (await (await fetch(`${sb.callsUrl}?PageSize=100`, { headers })).json()) as {
        total: number;
        calls: { from: string; date_created: string }[];
      };
      expect(body.total).toBe(a!.calls + w + 1);
      expect(body.calls.filter((c) => c.from.startsWith('+1555000000')).map((c) => c.from)).toEqual(
        Array.from({ length: w + 1 }, () => `+1555000000${w}`),
      );
      expect(Date.parse(await sb.clock.now()) - Date.parse(await em.clock.now())).toBe((w + 1) * 3_600_000);
      await sb.delete();
    }
    expect((await connect(em.url).accounts()).map((x) => x.sid)).toEqual(em.accounts.map((x) => x.sid));
  });

  test('seedStart goes back to the start-up seed and accounts after a seed with fixtures of its own', async () => {
    const client = connect(em.url);
    await client.seed('other', { accounts: [{ friendly_name: 'Solo' }] });
    await client.reset();
    expect(await client.accounts()).toHaveLength(1);
    await client.seedStart();
    // The accounts it was started with, as startEmulator listed them then.
    expect((await client.accounts()).map((a) => a.sid)).toEqual(em.accounts.map((a) => a.sid));
  });

  test("a sandbox handle names each of its lists' URLs", async () => {
    const [a] = em.accounts;
    const mine = await connect(em.url).sandbox(a!.sid);
    try {
      for (const [url, list] of [
        [mine.recordingsUrl, 'recordings'],
        [mine.notificationsUrl, 'notifications'],
      ] as const) {
        const page = (await (await fetch(url, { headers: { Authorization: mine.authorization } })).json()) as Record<
          string,
          unknown
        >;
        expect(Array.isArray(page[list])).toBe(true);
        expect(url).toBe(
          `${em.url}/call/2012-04-24/Accounts/${mine.sid}/${list === 'recordings' ? 'Recordings' : 'Notifications'}.json`,
        );
      }
    } finally {
      await mine.delete();
    }
  });

  test('a sandbox handle clears its own faults and journal, counts its requests by filter, and addCall returns one call', async () => {
    const [a] = em.accounts;
    const [mine, theirs] = await Promise.all([connect(em.url).sandbox(a!.sid), connect(em.url).sandbox(a!.sid)]);
    try {
      const call = await mine.addCall({ start_time: '2025-06-01T10:00:00Z', duration: 30, status: 'completed' });
      expect(Array.isArray(call)).toBe(false);
      expect(call).toMatchObject({ start_time: '2025-06-01T10:00:00.000Z', duration: 30 });
      await mine.fault({ status: 429, times: 1 });
      await theirs.fault({ status: 503 });
      const get = (sb: typeof mine) => fetch(sb.callsUrl, { headers: { Authorization: sb.authorization } });
      expect([(await get(mine)).status, (await get(mine)).status, (await get(theirs)).status]).toEqual([429, 200, 503]);
      expect(await mine.countRequests({ status: 429 })).toBe(1);
      expect(await mine.countRequests({ method: 'get' })).toBe(2);
      await mine.clearFaults();
      expect((await em.faults.list()).map((f) => f.account)).toEqual([theirs.sid]);
      await mine.clearRequests();
      expect(await mine.countRequests()).toBe(0);
      expect(await theirs.countRequests({ status: 503 })).toBe(1);
    } finally {
      await Promise.all([mine.delete(), theirs.delete()]);
    }
  });

  test("a sandbox handle's callbacks() and waitForCallback(): a created call's states, in order, none of another sandbox's", async () => {
    const [a] = em.accounts;
    const rx = await receiver();
    const url = `${rx.url}/cb`;
    const [mine, theirs] = await Promise.all([connect(em.url).sandbox(a!.sid), connect(em.url).sandbox(a!.sid)]);
    try {
      const made = await fetch(mine.callsUrl, {
        method: 'POST',
        headers: { Authorization: mine.authorization },
        body: new URLSearchParams({
          From: '+15126002188',
          To: '+15550001111',
          Url: 'http://127.0.0.1:1/x',
          StatusCallback: url,
        }),
      });
      const call = (await made.json()) as Call;
      const initiated = await mine.waitForCallback({ call: call.sid, event: 'initiated' });
      expect(initiated).toMatchObject({
        call_sid: call.sid,
        sequence_number: 0,
        error: null,
        response: { status: 200 },
      });
      // Nothing else is due until the sandbox's clock passes it.
      await expect(mine.waitForCallback({ event: 'ringing' }, { timeoutMs: 100 })).rejects.toThrow(
        /no matching callback/,
      );
      await mine.clock.advance('PT1H');
      // The move answers once every callback it passed has an outcome: the receiver has them all.
      const got = statusesOf(rx.got);
      const last = await mine.waitForCallback((e) => e.event === got[got.length - 1]);
      expect(last.call_sid).toBe(call.sid);
      expect((await mine.callbacks()).map((e) => e.event)).toEqual(got);
      expect(await theirs.callbacks()).toEqual([]);
    } finally {
      await Promise.all([mine.delete(), theirs.delete()]);
      await rx.close();
    }
  });

  test('a bad option rejects with its message', async () => {
    await expect(startEmulator({ paging: 'lazy' as never })).rejects.toThrow(
      'paging: must be production or documented',
    );
    await expect(startEmulator({ paging: 'lazy' as never })).rejects.toThrow(/^callrec-emulator: paging: /);
    await expect(startEmulator({ fixtures: { accounts: [{ calls: 1 }] } })).rejects.toThrow(
      'options.fixtures: accounts[0].friendly_name',
    );
  });

  test('the jest globalSetup/globalTeardown example passes', async () => {
    requireBuild();
    const jest = resolve(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
    const run = await runCommand(
      process.execPath,
      [jest, '-c', resolve(ROOT, 'examples', 'jest', 'jest.config.js')],
      {},
      ROOT,
    );
    expect(run.out).toContain('Tests:       2 passed, 2 total');
    expect(run.code).toBe(0);
  }, 60_000);
});
