import fc from 'fast-check';
import { idOf, type MergePart, mergeParts, partOf, REF_SPAN } from '../../src/store/merged-order';
import { finish, permutationOrder } from '../../src/store/order';
import type { RecordKey, StoreSort } from '../../src/store/table-contracts';

/** A record of a test list: a sorted value, a creation second, a sid. */
interface Rec {
  sid: string;
  v: number;
  c: number;
}

/** The rule written out the slow way: ORDER BY v, then date_created descending, then sid; or by creation. */
function byRule(sort: StoreSort<string> | null): (a: Rec, b: Rec) => number {
  const sid = (a: Rec, b: Rec) => (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0);
  const newest = (a: Rec, b: Rec) => b.c - a.c || sid(a, b);
  if (sort === null) return newest;
  const sign = sort.direction === 'asc' ? 1 : -1;
  if (sort.column === 'created') return (a, b) => sign * (a.c - b.c) || sid(a, b);
  return (a, b) => sign * (a.v - b.v) || newest(a, b);
}

/** A part whose ids are positions in `records`, ordered by the rule (as each account's own list is). */
function part(records: Rec[], sort: StoreSort<string> | null): MergePart<Rec> {
  const ids = records.map((_, i) => i).sort((a, b) => byRule(sort)(records[a]!, records[b]!));
  return {
    state: { order: permutationOrder(Uint32Array.from(ids)), get: (id) => records[id]! },
    key: (r): RecordKey => ({ v: r.v, c: r.c, sid: r.sid }),
  };
}

function merged(accounts: Rec[][], sort: StoreSort<string> | null): string[] {
  const order = finish(
    mergeParts(
      accounts.map((records) => part(records, sort)),
      sort,
    ),
  );
  return Array.from({ length: order.length }, (_, p) => {
    const ref = order.at(p);
    return accounts[partOf(ref)]![idOf(ref)]!.sid;
  });
}

const rec = (sid: string, v: number, c: number): Rec => ({ sid, v, c });

describe('mergeParts: several accounts’ orders as one, by the rule every order follows', () => {
  const a = [rec('CA1', 5, 100), rec('CA2', 3, 90), rec('CA3', 5, 80)];
  const b = [rec('CB1', 4, 95), rec('CB2', 5, 100)];
  const c = [rec('CC1', 1, 50)];
  test.each([
    ['default: newest first, sid on a tie', null, ['CA1', 'CB2', 'CB1', 'CA2', 'CA3', 'CC1']],
    ['created ascending', { column: 'created', direction: 'asc' }, ['CC1', 'CA3', 'CA2', 'CB1', 'CA1', 'CB2']],
    [
      'a column ascending, ties newest first',
      { column: 'v', direction: 'asc' },
      ['CC1', 'CA2', 'CB1', 'CA1', 'CB2', 'CA3'],
    ],
    ['a column descending', { column: 'v', direction: 'desc' }, ['CA1', 'CB2', 'CA3', 'CB1', 'CA2', 'CC1']],
  ] as const)('%s', (_name, sort, expected) => {
    expect(merged([a, b, c], sort)).toEqual(expected);
    // Whichever part is the largest (the base), the answer is the same.
    expect(merged([c, b, a], sort)).toEqual(expected);
  });

  test.each([
    [[[], [], []], 0],
    [[[], [rec('X', 1, 1)]], 1],
    [[[rec('X', 1, 1)], []], 1],
  ] as const)('empty parts: %j → %i records', (accounts, n) => {
    expect(merged(accounts as unknown as Rec[][], null)).toHaveLength(n);
  });

  test('a reference names its part and its id', () => {
    expect([partOf(3 * REF_SPAN + 7), idOf(3 * REF_SPAN + 7)]).toEqual([3, 7]);
    expect([partOf(2 ** 32 - 1), idOf(2 ** 32 - 1)]).toEqual([0, 2 ** 32 - 1]);
  });

  test('any accounts, any sort: the merge is the union sorted by the rule (property)', () => {
    const recs = fc.array(fc.record({ v: fc.integer({ min: 0, max: 4 }), c: fc.integer({ min: 0, max: 6 }) }), {
      maxLength: 30,
    });
    const sorts = fc.constantFrom<StoreSort<string> | null>(
      null,
      { column: 'created', direction: 'asc' },
      { column: 'created', direction: 'desc' },
      { column: 'v', direction: 'asc' },
      { column: 'v', direction: 'desc' },
    );
    fc.assert(
      fc.property(fc.array(recs, { minLength: 1, maxLength: 5 }), sorts, (raw, sort) => {
        const accounts = raw.map((rs, i) => rs.map((r, j) => rec(`S${i}-${String(j).padStart(2, '0')}`, r.v, r.c)));
        const expected = accounts
          .flat()
          .sort(byRule(sort))
          .map((r) => r.sid);
        expect(merged(accounts, sort)).toEqual(expected);
      }),
    );
  });
});
