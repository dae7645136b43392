import { BuiltOrders, builtOrders } from '../../src/store/built-orders';
import { type Account, World } from '../../src/store/world';

describe('built orders: one byte budget, least recently used dropped past it', () => {
  test('adding past the budget drops the least recently used, never the one just built', () => {
    const b = new BuiltOrders(100);
    const dropped: string[] = [];
    const [x, y, z] = [{}, {}, {}];
    b.add(x, 40, () => dropped.push('x'));
    b.add(y, 40, () => dropped.push('y'));
    b.use(x);
    b.add(z, 40, () => dropped.push('z'));
    expect([dropped, b.bytes]).toEqual([['y'], 80]);
    const huge = {};
    b.add(huge, 500, () => dropped.push('huge'));
    expect([dropped, b.bytes]).toEqual([['y', 'x', 'z'], 500]);
  });

  test("a table's dropped orders are built again when asked, the same", () => {
    const w = new World({
      seed: 'lru',
      clockMs: Date.UTC(2025, 5, 1),
      accounts: [{ friendlyName: 'A', calls: 20_000, recordings: 0 }],
    });
    const calls = (w.accounts()[0] as Account).calls;
    const limit = builtOrders.limit;
    try {
      // Room for about one column and its order of 20,000 calls.
      builtOrders.limit = 20_000 * 4 * 6;
      const page = (column: 'from' | 'to' | 'duration') => {
        const order = calls.order({ column, direction: 'asc' });
        return Array.from({ length: 20 }, (_, p) => order.at(p));
      };
      const from = page('from');
      page('to');
      page('duration');
      expect(builtOrders.bytes).toBeLessThanOrEqual(builtOrders.limit);
      expect(page('from')).toEqual(from);
    } finally {
      builtOrders.limit = limit;
    }
  });
});
