import { Doorkeeper, textHash } from '../../src/cache/doorkeeper';
import { mix32 } from '../../src/random/stream';

describe('Doorkeeper', () => {
  test('lets a key in on its second sight, not its first', () => {
    const door = new Doorkeeper(12);
    expect([door.admits(7), door.admits(7), door.admits(7)]).toEqual([false, true, true]);
  });

  test('two keys asked in turn are both let in on their second sight, whatever their hashes', () => {
    // Keys that share the low bits: in a table of slots they would push each other out for good.
    const pairs: [number, number][] = [
      [5, 5 + 2 ** 12],
      [0, 2 ** 20],
      [mix32(1), mix32(1) ^ 0x40000],
    ];
    for (const [x, y] of pairs) {
      const door = new Doorkeeper(12);
      expect([door.admits(x), door.admits(y), door.admits(x), door.admits(y)]).toEqual([false, false, true, true]);
    }
  });

  test('distinct keys up to its capacity are let in on their first sight rarely (under 6%)', () => {
    const door = new Doorkeeper(16);
    const capacity = 2 ** 13;
    let early = 0;
    for (let k = 1; k <= capacity; k++) if (door.admits(mix32(k))) early++;
    expect(early / capacity).toBeLessThan(0.06);
  });

  test('empties itself past its capacity: what was seen before must be seen twice again', () => {
    const door = new Doorkeeper(10);
    door.admits(1);
    // 2^10 bits take 2^7 keys; the next one added empties the filter.
    let k = 2;
    for (let added = 1; added <= 2 ** 7; ) if (!door.admits(mix32(k++))) added++;
    expect([door.admits(1), door.admits(1)]).toEqual([false, true]);
  });

  test('clear forgets every sight', () => {
    const door = new Doorkeeper(10);
    door.admits(42);
    door.clear();
    expect(door.admits(42)).toBe(false);
  });
});

describe('textHash', () => {
  test('is FNV-1a of the code units', () => {
    expect([textHash(''), textHash('a'), textHash('foobar')]).toEqual([0x811c9dc5, 0xe40c292c, 0xbf9cf968]);
  });
});
