import { connect } from '../../src/client';
import { startCli } from '../support/process';
import { receiver, statusesOf } from '../support/receiver';

/**
 * The clock is data: the same moves and writes give the same bytes in any time zone and locale,
 * whatever the wall clock says, in a process of its own.
 */
describe('the clock across time zones and restarts', () => {
  const run = async (env: NodeJS.ProcessEnv, steps: (string | number)[]) => {
    const em = await startCli(['--seed', 'tz', '--public-url', 'http://emulator.test'], env);
    try {
      const client = connect(em.url);
      for (const step of steps) await client.clock.advance(step);
      const [a] = await client.accounts();
      await client.addCalls(a!.sid, [{}, { status: 'busy' }, { duration: 42 }]);
      // Live traffic too: its calls and recordings are generated from the clock alone.
      const res = await fetch(`${em.url}/__admin/accounts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ friendly_name: 'Live', token: 'live-token', traffic: { calls_per_hour: 600 } }),
      });
      const live = (await res.json()) as { sid: string };
      for (const step of steps) await client.clock.advance(step);
      const auth = { Authorization: `Basic ${Buffer.from('live-token:').toString('base64')}` };
      const lists = await Promise.all(
        ['Calls', 'Recordings'].map(async (list) =>
          (
            await fetch(`${em.url}/call/2012-04-24/Accounts/${live.sid}/${list}.json?PageSize=1000`, { headers: auth })
          ).text(),
        ),
      );
      const state = await (await fetch(`${em.url}/__admin/state`)).text();
      const hash = ((await (await fetch(`${em.url}/__admin/state/hash`)).json()) as { hash: string }).hash;
      return { state, hash, lists };
    } finally {
      await em.stop();
    }
  };

  test('UTC and two far zones, in one step or in three, give the same state and hash', async () => {
    const utc = await run({ TZ: 'UTC', LANG: 'C' }, ['PT2H']);
    expect(await run({ TZ: 'Pacific/Chatham', LANG: 'de_DE.UTF-8' }, ['PT1H', 'PT30M', 1800])).toEqual(utc);
    expect(await run({ TZ: 'America/St_Johns' }, [3600, 'PT1H'])).toEqual(utc);
    expect(JSON.parse(utc.state).now).toBe('2025-06-01T16:00:00.000Z');
    expect(utc.lists[0]).toContain('in-progress');
  });

  test('--clock-rate: the banner says the clock follows wall time, and it does', async () => {
    const em = await startCli(['--clock-rate', '3600']);
    try {
      expect(em.stdout()).toContain('The clock follows wall time at 3600x from start-up');
      await new Promise((r) => setTimeout(r, 1200));
      const clock = (await (await fetch(`${em.url}/__admin/clock`)).json()) as {
        advanced_ms: number;
        deterministic: boolean;
      };
      expect(clock.deterministic).toBe(false);
      expect(clock.advanced_ms).toBeGreaterThanOrEqual(3_600_000);
    } finally {
      await em.stop();
    }
  });

  test('--clock-rate: status callbacks follow the running clock, with no move, each once', async () => {
    const rx = await receiver();
    const callback = `${rx.url}/cb`;
    // 600x: a busy call's ring of at most ten seconds passes in well under a second of wall time.
    const em = await startCli(['--clock-rate', '600']);
    try {
      const add = await fetch(`${em.url}/__admin/accounts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ friendly_name: 'Busy', token: 'busy-token', outcomes: { busy: 1 } }),
      });
      const { sid } = (await add.json()) as { sid: string };
      const made = await fetch(`${em.url}/call/2012-04-24/Accounts/${sid}/Calls.json`, {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from('busy-token:').toString('base64')}` },
        body: new URLSearchParams({
          From: '+15126002188',
          To: '+15550001111',
          Url: 'http://127.0.0.1:1/x',
          StatusCallback: callback,
        }),
      });
      expect(made.status).toBe(200);
      for (let i = 0; i < 200 && rx.got.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
      // A little longer: nothing more comes, and nothing twice.
      await new Promise((r) => setTimeout(r, 600));
      expect(statusesOf(rx.got)).toEqual(['initiated', 'ringing', 'completed']);
    } finally {
      await em.stop();
      await rx.close();
    }
  });
});
