import { emulator, useSandbox } from 'callrec-emulator/jest';

/**
 * The tests of one worker's file: each in its own sandbox inserts calls, moves its clock and
 * injects a fault, then checks it sees exactly its own effects: none of the other workers',
 * which run the same tests at the same time.
 */
export function isolationSuite(file: number, tests: number): void {
  const sandbox = useSandbox('Acme Support Line');
  const parent = { calls: 0, start: '' };

  beforeAll(async () => {
    const accounts = await emulator().accounts();
    parent.calls = accounts.find((a) => a.friendly_name === 'Acme Support Line')?.calls ?? -1;
    parent.start = await emulator().clock.now();
  });

  const list = async (query: string) => {
    const sb = sandbox();
    const res = await fetch(`${sb.callsUrl}?${query}`, { headers: { Authorization: sb.authorization } });
    return { status: res.status, body: (await res.json()) as { total: number; calls: { from: string }[] } };
  };

  for (let t = 0; t < tests; t++) {
    test(`file ${file}, test ${t}: inserts, clock and faults stay in the sandbox`, async () => {
      const sb = sandbox();
      const marker = `+1555${String(file).padStart(2, '0')}${String(t).padStart(5, '0')}`;
      const inserted = (t % 3) + 1;

      // Inserts: exactly this test's, on top of the account's seeded calls.
      await sb.addCalls(Array.from({ length: inserted }, () => ({ from: marker, status: 'completed' as const })));
      const mine = await list(`From=${encodeURIComponent(marker)}`);
      expect(mine.body.calls.map((c) => c.from)).toEqual(Array(inserted).fill(marker));
      expect((await list('PageSize=1')).body.total).toBe(parent.calls + inserted);

      // Its clock: moved by this test only; the world's has not moved.
      const minutes = file * 100 + t + 1;
      const moved = await sb.clock.advance(minutes * 60);
      expect(Date.parse(moved.now) - Date.parse(parent.start)).toBe(minutes * 60_000);
      expect(await emulator().clock.now()).toBe(parent.start);
      // With no dates, a call has just ended at the sandbox's own clock.
      const [late] = await sb.addCalls({ from: marker });
      expect(Date.parse(late?.date_updated ?? '')).toBe(Date.parse(moved.now));

      // A fault on this sandbox fires on its next request, and on nobody else's.
      const fault = await sb.fault({ path: '/*/Calls.json', status: 503, times: 1 });
      expect((await list('PageSize=1')).status).toBe(503);
      expect((await list('PageSize=1')).status).toBe(200);
      expect((await emulator().faults.list()).find((f) => f.id === fault.id)?.applied).toBe(1);

      // Its journal: its own requests only, the 503 among them.
      const seen = await sb.requests();
      expect(seen.length).toBeGreaterThanOrEqual(4);
      expect(seen.every((r) => r.account === sb.sid)).toBe(true);
      expect(seen.filter((r) => r.status === 503)).toHaveLength(1);
    });
  }

  test(`file ${file}: a reset of a sandbox takes it back to its parent, whose hash no worker changed`, async () => {
    const sb = sandbox();
    const before = await sb.hash();
    await sb.addCalls({ from: '+15559999999' });
    await sb.clock.advance('PT1H');
    expect(await sb.hash()).not.toBe(before);
    await sb.reset();
    expect(await sb.hash()).toBe(before);
  });
}
