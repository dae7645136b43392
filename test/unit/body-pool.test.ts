import { BodyPool } from '../../src/cache/body-pool';

describe('BodyPool', () => {
  test.each([
    [1, 0],
    [4096, 0],
    [4097, 8192],
    [8192, 8192],
    [8193, 16384],
    [100_000, 131072],
    [2 ** 21, 2 ** 21],
    [2 ** 21 + 1, 0],
  ])(
    'a body of %i bytes is exactly that long, in a buffer of the pool of %i bytes (0: not the pool)',
    (bytes, slab) => {
      const pool = new BodyPool(2 ** 24);
      const body = pool.take(bytes);
      expect(body.length).toBe(bytes);
      expect(pool.lent).toBe(slab === 0 ? 0 : 1);
      if (slab !== 0) expect(body.buffer.byteLength).toBe(slab);
      pool.give(body);
      expect([pool.lent, pool.heldBytes]).toEqual([0, slab]);
    },
  );

  test('a buffer given back serves the next body of its size class, and no other', () => {
    const pool = new BodyPool(2 ** 24);
    const first = pool.take(10_000);
    first.fill(1);
    pool.give(first);
    expect(pool.take(20_000).buffer).not.toBe(first.buffer);
    const again = pool.take(12_000);
    expect(again.buffer).toBe(first.buffer);
    expect(again.length).toBe(12_000);
    expect(pool.heldBytes).toBe(0);
  });

  test('what is given back beyond the budget is left to the collector', () => {
    const pool = new BodyPool(20_000);
    const [a, b] = [pool.take(10_000), pool.take(10_000)];
    pool.give(a);
    pool.give(b);
    expect([pool.lent, pool.heldBytes]).toEqual([0, 16384]);
  });

  test('a buffer the pool did not give is refused', () => {
    const pool = new BodyPool(2 ** 24);
    pool.give(Buffer.alloc(16384));
    pool.give(Buffer.alloc(10_000));
    pool.give(Buffer.allocUnsafeSlow(32768).subarray(8, 16392));
    expect(pool.heldBytes).toBe(16384);
    pool.give(Buffer.from('small'));
    expect(pool.heldBytes).toBe(16384);
  });
});
