import { type CachedResponse, RenderCache } from '../../src/cache/render-cache';

// The response cache as the front door drives it: a hit counts a sight; a miss asks `admits`
// and, if let in, keeps the response it built.
function client(cache: RenderCache) {
  return (keys: readonly string[]) => {
    let hits = 0;
    let kept = 0;
    for (const key of keys) {
      const hit = cache.responses.get(key);
      if (hit !== undefined) {
        cache.sighted(hit);
        hits++;
      } else if (cache.admits(key)) {
        const response: CachedResponse = { headers: [], body: Buffer.from(key), warnings: [] };
        cache.keep(key, response, 1000);
        kept++;
      }
    }
    return { hits, kept };
  };
}

describe('the response cache, once full, keeps what is asked for more often than what it would push out', () => {
  const keys = (n: number, prefix = 'k') => Array.from({ length: n }, (_, k) => `${prefix}${k}`);

  test('a round of requests twice the cache: half of each round hits, and nothing more is kept', () => {
    const ask = client(new RenderCache({ responseBytes: 10_000 }));
    const rounds = Array.from({ length: 6 }, () => ask(keys(20)));
    // Seen once, then kept from the second sight until full. A plain LRU would hit nothing:
    // each response pushed out just before it is asked again.
    expect(rounds[0]).toEqual({ hits: 0, kept: 0 });
    expect(rounds[1]?.kept).toBe(10);
    for (const r of rounds.slice(2)) expect(r).toEqual({ hits: 10, kept: 0 });
  });

  test('a newcomer asked for more often than the oldest held gets in', () => {
    const cache = new RenderCache({ responseBytes: 10_000 });
    const ask = client(cache);
    for (let r = 0; r < 3; r++) ask(keys(10));
    expect(ask(['new', 'new', 'new'])).toEqual({ hits: 0, kept: 0 });
    // Every held response was asked for three times; the newcomer passes them on its fourth.
    expect(ask(['new', 'new'])).toEqual({ hits: 1, kept: 1 });
    expect(cache.responses.size).toBe(10);
  });

  test('below its budget, everything asked for twice is kept', () => {
    const ask = client(new RenderCache({ responseBytes: 100_000 }));
    expect(ask(keys(50))).toEqual({ hits: 0, kept: 0 });
    expect(ask(keys(50))).toEqual({ hits: 0, kept: 50 });
    expect(ask(keys(50))).toEqual({ hits: 50, kept: 0 });
  });

  test('a walk of one-off requests through a full cache leaves what it holds', () => {
    const ask = client(new RenderCache({ responseBytes: 10_000 }));
    for (let r = 0; r < 3; r++) ask(keys(10));
    expect(ask(keys(5000, 'walk'))).toEqual({ hits: 0, kept: 0 });
    expect(ask(keys(10))).toEqual({ hits: 10, kept: 0 });
  });
});
