import { messages } from '../../src/errors';
import { Faults } from '../../src/faults/faults';

const ACCOUNT = `AC${'0'.repeat(32)}`;
const LIST = `/call/2012-04-24/Accounts/${ACCOUNT}/Calls.json`;
/** A request as the front door hands it on: the account read off the path. */
const at = (method: string, path: string) => ({ method, path, account: /\/Accounts\/([^/]+)/.exec(path)?.[1] ?? null });

describe('Faults.match', () => {
  test('the first matching fault in creation order acts; path prefix, glob, account and method filter', () => {
    const f = new Faults(() => 'seed');
    f.add({ path: '/call/*/Recordings.json', status: 500 });
    f.add({ account: ACCOUNT, method: 'GET', status: 502 });
    f.add({ path: '/call', status: 503 });
    expect(f.match(at('GET', LIST), 0)?.respond?.status).toBe(502);
    expect(f.match(at('HEAD', LIST), 0)?.respond?.status).toBe(503);
    expect(f.match(at('GET', `/call/2012-04-24/Accounts/${ACCOUNT}/Recordings.json`), 0)?.respond?.status).toBe(500);
    expect(f.match(at('GET', '/other'), 0)).toBeNull();
  });

  test("creation order holds across the index: a request meets its account's faults and the global ones, never another account's", () => {
    const f = new Faults(() => 'seed');
    const OTHER = `AC${'1'.repeat(32)}`;
    for (let i = 0; i < 300; i++) f.add({ account: OTHER, path: `/*${'a'.repeat(50)}b`, status: 418 });
    f.add({ path: '/call/*/Recordings.json', status: 500 });
    f.add({ account: ACCOUNT, status: 502, times: 1 });
    f.add({ path: '/call', status: 503 });
    expect(f.match(at('GET', LIST), 0)?.respond?.status).toBe(502);
    expect(f.match(at('GET', LIST), 0)?.respond?.status).toBe(503);
    expect(f.match(at('GET', `/call/2012-04-24/Accounts/${ACCOUNT}/Recordings.json`), 0)?.respond?.status).toBe(500);
    expect(f.match(at('GET', `/call/2012-04-24/Accounts/${OTHER}/${'a'.repeat(15_000)}b`), 0)?.respond?.status).toBe(
      418,
    );
    expect(f.removeScopedTo(OTHER)).toBe(300);
    expect(f.size).toBe(3);
  });

  test('times bounds how often a fault applies; a default body says it was injected', async () => {
    const f = new Faults(() => 'seed');
    f.add({ status: 500, times: 2 });
    const seen = [0, 1, 2].map(() => f.match(at('GET', LIST), 0)?.respond);
    expect(seen[0]).toEqual({
      status: 500,
      body: JSON.stringify({ message: messages.injected(500) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(seen[1]?.status).toBe(500);
    expect(seen[2]).toBeUndefined();
    expect((await f.views())[0]).toMatchObject({ matched: 3 - 1, applied: 2 });
  });

  test('a rate limit lets `limit` requests through per window, then 429 with Retry-After', () => {
    const f = new Faults(() => 'seed');
    f.add({ rate_limit: { limit: 2, window_s: 10 } });
    expect(f.match(at('GET', LIST), 1000)).toBeNull();
    expect(f.match(at('GET', LIST), 2000)).toBeNull();
    const limited = f.match(at('GET', LIST), 3000);
    expect(limited?.respond).toEqual({
      status: 429,
      body: JSON.stringify({ message: messages.rateLimited(2, 10) }),
      headers: { 'Content-Type': 'application/json', 'Retry-After': '8' },
    });
    // A new window starts once the old one is over.
    expect(f.match(at('GET', LIST), 11_000)).toBeNull();
  });

  test('probability and drawn delays repeat for the same seed, and differ for another', () => {
    const run = (seed: string) => {
      const f = new Faults(() => seed);
      f.add({ probability: 0.5, delay: { distribution: 'uniform', min_ms: 0, max_ms: 1000 } });
      return Array.from({ length: 40 }, () => f.match(at('GET', LIST), 0)?.delayMs ?? -1);
    };
    expect(run('a')).toEqual(run('a'));
    expect(run('a')).not.toEqual(run('b'));
    expect(run('a').filter((d) => d === -1).length).toBeGreaterThan(5);
    expect(run('a').every((d) => d >= -1 && d <= 1000)).toBe(true);
  });

  test('a glob path is matched in linear steps: six stars against a 5,000-character path', () => {
    const f = new Faults(() => 'seed');
    f.add({ path: '/*a*a*a*a*a*b', status: 500 });
    f.add({ path: '/*a*a*a*a*a*a', status: 502 });
    const path = `/${'a'.repeat(5000)}`;
    // As a backtracking RegExp this took past five minutes; a linear matcher answers at once.
    expect(f.match(at('GET', path), 0)?.respond?.status).toBe(502);
  });

  test('a text body is sent as text, a JSON body as JSON, written once when the fault is made', () => {
    const f = new Faults(() => 'seed');
    f.add({ status: 503, body: 'down', times: 1 });
    f.add({ status: 500, body: { error: [1, 2] } });
    expect(f.match(at('GET', LIST), 0)?.respond).toEqual({
      status: 503,
      body: 'down',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(f.match(at('GET', LIST), 0)?.respond?.body).toBe('{"error":[1,2]}');
  });

  test('cuts: connection_reset and empty_response', () => {
    const f = new Faults(() => 'seed');
    f.add({ fault: 'connection_reset', times: 1 });
    f.add({ fault: 'empty_response' });
    expect(f.match(at('GET', LIST), 0)).toMatchObject({ effect: 'connection_reset', cut: 'connection_reset' });
    expect(f.match(at('GET', LIST), 0)).toMatchObject({ effect: 'empty_response', cut: 'empty_response' });
  });

  test('remove and clear; ids start again after a clear', () => {
    const f = new Faults(() => 'seed');
    const { id } = f.add({ status: 500 }) as { id: string };
    expect(f.remove(id)).toBe(true);
    expect(f.remove(id)).toBe(false);
    f.add({ status: 500 });
    f.clear();
    expect(f.size).toBe(0);
    expect(f.add({ status: 500 })['id']).toBe('fault-1');
  });
});
