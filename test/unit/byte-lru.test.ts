import { ByteLru } from '../../src/cache/byte-lru';

describe('ByteLru', () => {
  test('evicts the least recently used until the bytes fit', () => {
    const lru = new ByteLru<string, string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A'); // a is now younger than b
    lru.set('c', 'C', 4);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
    expect(lru.bytes).toBe(8);
    expect(lru.size).toBe(2);
  });

  test('replacing a key counts its bytes once', () => {
    const lru = new ByteLru<string, number>(10);
    lru.set('a', 1, 6);
    lru.set('a', 2, 7);
    expect(lru.bytes).toBe(7);
    expect(lru.get('a')).toBe(2);
  });

  test('a value larger than the budget is not kept, and drops the old value of its key', () => {
    const lru = new ByteLru<string, number>(10);
    lru.set('a', 1, 5);
    lru.set('a', 2, 11);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.bytes).toBe(0);
  });

  test('counts hits and misses; clear empties', () => {
    const lru = new ByteLru<number, number>(100);
    lru.set(1, 1, 1);
    lru.get(1);
    lru.get(2);
    expect([lru.hits, lru.misses]).toEqual([1, 1]);
    lru.clear();
    expect([lru.size, lru.bytes]).toEqual([0, 0]);
  });
});

describe('ByteLru eviction over a long run', () => {
  test('evicts in least-recently-used order across thousands of evictions, moves and re-adds', () => {
    const lru = new ByteLru<number, number>(100);
    // A model: an array in recency order, oldest first.
    const model: number[] = [];
    const touch = (k: number) => {
      const at = model.indexOf(k);
      if (at >= 0) model.splice(at, 1);
      model.push(k);
    };
    for (let i = 0; i < 20_000; i++) {
      const k = (i * 7919) % 317;
      if (i % 3 === 0 && lru.get(k) !== undefined) {
        touch(k);
      } else {
        lru.set(k, i, 1);
        touch(k);
        while (model.length > 100) model.shift();
      }
      if (i % 997 === 0) {
        lru.clear();
        model.splice(0);
      }
    }
    expect(lru.size).toBe(model.length);
    for (const k of model) expect(lru.get(k)).not.toBeUndefined();
  });

  test('oldestKey() names what the next eviction drops, and moves nothing', () => {
    const lru = new ByteLru<string, string>(12);
    expect(lru.oldestKey()).toBeUndefined();
    for (const k of ['a', 'b', 'c']) lru.set(k, k.toUpperCase(), 4);
    expect(lru.oldestKey()).toBe('a');
    expect(lru.oldestKey()).toBe('a');
    lru.get('a'); // a moves to the young end: b is the oldest now
    expect(lru.oldestKey()).toBe('b');
    lru.set('b', 'B2', 4); // replaced: young again
    expect(lru.oldestKey()).toBe('c');
    lru.set('d', 'D', 4); // pushes out the oldest, c
    expect(lru.get('c')).toBeUndefined();
    expect([lru.get('a'), lru.get('b'), lru.get('d')]).toEqual(['A', 'B2', 'D']);
    expect(lru.oldestKey()).toBe('a');
    lru.clear();
    expect(lru.oldestKey()).toBeUndefined();
  });
});
