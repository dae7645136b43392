import { LoginThrottle } from '../../src/login-throttle';

describe('failed logins are slowed down per client', () => {
  test('200 failures pass at once; then each login waits its turn, 50 a second however many come at once', () => {
    const t = new LoginThrottle();
    const now = 1_000_000;
    for (let i = 0; i < 200; i++) {
      expect(t.wait('a', now)).toBe(0);
      t.failed('a', now);
    }
    // Ten logins at once: answered 20 ms apart.
    const waits = Array.from({ length: 10 }, () => t.wait('a', now));
    expect(waits).toEqual(Array.from({ length: 10 }, (_, i) => 20 * (i + 1)));
    // Another client is not slowed.
    expect(t.wait('b', now)).toBe(0);
  });

  test('a client earns its failures back with time, and is then forgotten', () => {
    const t = new LoginThrottle();
    for (let i = 0; i < 200; i++) t.failed('a', 0);
    expect(t.wait('a', 0)).toBeGreaterThan(0);
    // Four seconds on: all 200 back.
    expect(t.wait('a', 4_100)).toBe(0);
  });

  test('a slowed login given up (its client left) gives its turn back to the next', () => {
    const t = new LoginThrottle();
    for (let i = 0; i < 200; i++) t.failed('a', 0);
    expect([t.wait('a', 0), t.wait('a', 0), t.wait('a', 0)]).toEqual([20, 40, 60]);
    t.cancel('a');
    t.cancel('a');
    expect(t.wait('a', 0)).toBe(40);
  });
});
