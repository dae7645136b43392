import { DEFAULT_CLOCK } from '../../src/config';
import { parseInstant } from '../../src/format/dates';
import { type Account, World } from '../../src/store/world';

/**
 * Adding and ending accounts is O(1) whatever the count: counted in map writes, not timed. An
 * end rebuilt every sid and token map (5,000 sandboxes of one TTL froze the server for seconds as
 * they expired one by one), and so did every account of a state import (10,000 sandboxes, 28 s).
 */
describe('the world keeps its accounts in maps it changes one entry at a time', () => {
  const world = () =>
    new World({
      seed: 'scale',
      clockMs: parseInstant(DEFAULT_CLOCK) as number,
      accounts: [{ friendlyName: 'Parent', calls: 100, recordings: 10 }],
    });

  /** Map writes made while `fn` runs. */
  function mapWrites(fn: () => void): number {
    const spy = jest.spyOn(Map.prototype, 'set');
    try {
      fn();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  }

  test('ending 1,000 of 2,000 sandboxes writes a few map entries per end, not the whole maps', () => {
    const w = world();
    const parent = w.accounts()[0] as Account;
    const sandboxes: string[] = [];
    for (let i = 0; i < 2000; i++) sandboxes.push(w.forkAccount(parent).profile.sid);
    const writes = mapWrites(() => {
      for (const sid of sandboxes.slice(0, 1000)) w.deleteAccount(sid);
    });
    expect(writes / 1000).toBeLessThan(5);
    expect(w.accounts()).toHaveLength(1001);
    expect(w.sandboxes()).toHaveLength(1000);
  });

  test('restoring 2,000 sandboxes (a state import) writes a few map entries for each', () => {
    const w = world();
    const parent = w.accounts()[0] as Account;
    const writes = mapWrites(() => {
      for (let i = 0; i < 2000; i++) {
        w.restoreSandbox(
          {
            friendlyName: `S${i}`,
            calls: 100,
            recordings: 10,
            sid: `AC${i.toString(16).padStart(32, '0')}`,
            token: `t${i}`,
            dataOf: parent.profile.sid,
          },
          parent.profile.sid,
          w.nowMs,
        );
      }
    });
    expect(writes / 2000).toBeLessThan(20);
    expect(w.accountByToken('t1999')?.profile.friendlyName).toBe('S1999');
  });

  test('an account is found by email in one look-up; a deleted one is not found', () => {
    const w = world();
    const parent = w.accounts()[0] as Account;
    const fork = w.forkAccount(parent);
    expect(w.accountByEmail(fork.profile.email)).toBe(fork);
    w.deleteAccount(fork.profile.sid);
    expect(w.accountByEmail(fork.profile.email)).toBeUndefined();
    expect(w.accountByEmail(parent.profile.email)).toBe(parent);
  });

  test('a fork of an account holding 20,000 writes copies none of them (copy-on-write), and both sides go their own way', () => {
    const w = world();
    const parent = w.accounts()[0] as Account;
    const calls = Array.from({ length: 20_000 }, (_, i) => ({
      ...parent.calls.get(i % 100),
      sid: `ID${'0'.repeat(32)}-CA${i.toString(16).padStart(32, '0')}`,
    }));
    w.insertCalls(parent, calls);
    const forks: Account[] = [];
    const writes = mapWrites(() => {
      for (let i = 0; i < 300; i++) forks.push(w.forkAccount(parent));
    });
    // A few entries per fork (its identity, its place in the world), never the 20,000 writes.
    expect(writes / 300).toBeLessThan(50);
    const [a, b] = forks as [Account, Account];
    expect(a.calls.count).toBe(20_100);
    w.deleteCall(a, a.calls.find(calls[5]!.sid) as number);
    w.insertCalls(b, [{ ...calls[0]!, sid: `ID${'0'.repeat(32)}-CA${'f'.repeat(32)}` }]);
    expect([a.calls.count, b.calls.count, parent.calls.count]).toEqual([20_099, 20_101, 20_100]);
    expect(parent.calls.find(calls[5]!.sid)).toBeDefined();
  });
});
