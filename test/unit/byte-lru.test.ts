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
