import { emulator, useSandbox } from 'callrec-emulator/vitest';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

describe.each([1, 2, 3, 4])('worker-sized group %i', (group) => {
  const sandbox = useSandbox('Acme Support Line', { beforeEach, afterEach });

  test('inserts, a clock move and a fault stay in the sandbox', async () => {
    const sb = sandbox();
    const marker = `+155577700${group}`;
    await sb.addCalls([{ from: marker }, { from: marker }]);
    await sb.clock.advance(group * 60);
    await sb.fault({ path: '/*/Calls.json', status: 429, times: 1 });
    const get = () =>
      fetch(`${sb.callsUrl}?From=${encodeURIComponent(marker)}`, { headers: { Authorization: sb.authorization } });
    expect((await get()).status).toBe(429);
    const page = (await (await get()).json()) as { total: number };
    expect(page.total).toBe(2);
    expect(Date.parse(await sb.clock.now()) - Date.parse(await emulator().clock.now())).toBe(group * 60_000);
    expect((await sb.requests()).every((r) => r.account === sb.sid)).toBe(true);
  });

  test('the sandbox is named after its test, and gone after it', async () => {
    const live = await emulator().sandboxes();
    expect(live.find((s) => s.sid === sandbox().sid)?.friendly_name).toBe(
      'the sandbox is named after its test, and gone after it',
    );
  });
});
