import fc from 'fast-check';
import { callFromInput } from '../../src/admin/call-input';
import { finish, permutationOrder } from '../../src/store/order';
import { mergeOrder } from '../../src/store/overlay';
import { patchedOrder } from '../../src/store/patched-order';
import { sortComparator } from '../../src/store/sort-keys';
import type { RecordKey } from '../../src/store/table-contracts';
import { type Account, World } from '../../src/store/world';

const all = (o: { length: number; at(p: number): number }) => Array.from({ length: o.length }, (_, p) => o.at(p));

describe('patchedOrder: the merge kept as a patch over its base', () => {
  test('equals mergeOrder at every position, for any base, deletions and inserts (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 0, maxLength: 60 }),
        fc.array(fc.integer({ min: -5, max: 55 }), { maxLength: 20 }),
        fc.array(fc.nat({ max: 59 }), { maxLength: 20 }),
        fc.boolean(),
        (seededKeys, insertedKeys, deletions, descending) => {
          // Ids 0..n-1 are seeded, 1000+ inserted; the key ties are broken by id, as the tables' are.
          const keys = new Map<number, number>();
          for (const [i, k] of seededKeys.entries()) keys.set(i, k);
          for (const [i, k] of insertedKeys.entries()) keys.set(1000 + i, k);
          const sign = descending ? -1 : 1;
          const compare = (a: number, b: number) => sign * ((keys.get(a) as number) - (keys.get(b) as number)) || a - b;
          const base = permutationOrder(Uint32Array.from([...seededKeys.keys()].sort(compare)));
          const deleted = new Set(deletions.filter((d) => d < seededKeys.length));
          const inserted = insertedKeys.map((_, i) => 1000 + i);
          const expected = all(permutationOrder(finish(mergeOrder(base, deleted, inserted, compare))));
          expect(all(finish(patchedOrder(base, deleted, inserted, compare)))).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('a deleted id the base does not hold takes nothing out', () => {
    const base = permutationOrder(Uint32Array.of(0, 1, 2));
    expect(all(finish(patchedOrder(base, [7], [5], (a, b) => a - b)))).toEqual([0, 1, 2, 5]);
  });
});

describe('an account with live traffic, inserts and deletions: its creation orders as patches', () => {
  test('every live call once, in the order its comparator gives, both ways', () => {
    const w = new World({
      seed: 'patch',
      clockMs: Date.UTC(2025, 5, 1, 12),
      accounts: [{ friendlyName: 'T', calls: 300, recordings: 0, traffic: { callsPerHour: 120 } }],
    });
    const a = w.accounts()[0] as Account;
    w.setClock(Date.UTC(2025, 5, 1, 15));
    // Inserts dated among the seeded calls, among the arrivals, and with no date (ended now).
    const dates = [
      'Sun, 1 Jun 2025 09:00:00 +0000',
      'Sun, 1 Jun 2025 13:30:00 +0000',
      undefined,
      'Tue, 20 May 2025 00:00:00 +0000',
    ];
    for (const [k, date] of dates.entries()) {
      const input = date === undefined ? {} : { date_created: date };
      w.insertCalls(a, [callFromInput(a, input, 'body', a.calls.nextInsert + k)]);
    }
    const before = a.calls.order(null);
    // One seeded call and one arrival deleted.
    const seededId = before.at(before.length - 1);
    const arrivalId = before.at(0);
    w.deleteCall(a, seededId);
    w.deleteCall(a, arrivalId);
    for (const direction of ['desc', 'asc'] as const) {
      const order = a.calls.order({ column: 'created', direction });
      const ids = all(order);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(a.calls.count);
      expect(ids).not.toContain(seededId);
      expect(ids).not.toContain(arrivalId);
      const key = a.calls.recordKey({ column: 'created', direction });
      const compare = sortComparator<RecordKey>(
        { column: 'created', direction },
        { value: (k) => k.v, created: (k) => k.c, sid: (k) => k.sid },
      );
      for (let p = 1; p < ids.length; p++) {
        const [x, y] = [key(a.calls.get(ids[p - 1] as number)), key(a.calls.get(ids[p] as number))];
        expect(compare(x, y)).toBeLessThan(0);
      }
    }
  });
});
