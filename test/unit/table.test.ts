import fc from 'fast-check';
import { finish, permutationOrder } from '../../src/store/order';
import { INSERT_BASE, mergeOrder, Overlay } from '../../src/store/overlay';
import { type Account, World } from '../../src/store/world';

describe('mergeOrder', () => {
  test.each([
    // base, deleted, inserted, expected (ids compare by value)
    [[0, 2, 4], [], [3], [0, 2, 3, 4]],
    [[0, 2, 4], [2], [1, 5], [0, 1, 4, 5]],
    [
      [0, 2, 4],
      [0, 2, 4],
      [7, 6],
      [6, 7],
    ],
    [[], [], [], []],
  ])('%j without %j, with %j → %j', (base, deleted, inserted, expected) => {
    const merged = finish(
      mergeOrder(permutationOrder(Uint32Array.from(base)), new Set(deleted), inserted, (a, b) => a - b),
    );
    expect(Array.from(merged)).toEqual(expected);
  });

  test('equals sorting everything that is left, on random writes', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat({ max: 199 }), { maxLength: 60 }),
        fc.uniqueArray(fc.integer({ min: 300, max: 400 }), { maxLength: 20 }),
        (deleted, inserted) => {
          const cmp = (a: number, b: number) => (a % 37) - (b % 37) || a - b;
          const base = Array.from({ length: 200 }, (_, i) => i).sort(cmp);
          const merged = finish(mergeOrder(permutationOrder(Uint32Array.from(base)), new Set(deleted), inserted, cmp));
          const expected = [...base.filter((i) => !deleted.includes(i)), ...inserted].sort(cmp);
          expect(Array.from(merged)).toEqual(expected);
        },
      ),
      { seed: 11, numRuns: 100 },
    );
  });
});

describe('Overlay', () => {
  test('inserted ids count up from INSERT_BASE and are found by sid; removal and clear', () => {
    const o = new Overlay<{ sid: string }>();
    expect(o.insert({ sid: 'a' })).toBe(INSERT_BASE);
    expect(o.insert({ sid: 'b' })).toBe(INSERT_BASE + 1);
    expect(o.insertedId('b')).toBe(INSERT_BASE + 1);
    o.remove(INSERT_BASE);
    o.remove(5);
    expect([o.insertedId('a'), [...o.deletedIds()], o.nextInsert, o.empty]).toEqual([undefined, [5], 2, false]);
    o.clear();
    expect([o.insertedId('b'), o.nextInsert, o.empty]).toEqual([undefined, 0, true]);
  });
});

describe('Overlay: copy-on-write layers', () => {
  type Rec = { sid: string };
  /** The plain model: what each overlay holds, copied in full on a fork. */
  interface Model {
    inserted: Map<number, Rec>;
    deleted: Set<number>;
    removed: Set<string>;
    next: number;
  }
  const copy = (m: Model): Model => ({
    inserted: new Map(m.inserted),
    deleted: new Set(m.deleted),
    removed: new Set(m.removed),
    next: m.next,
  });

  // Random writes, forks, snapshots, marks and restores on a family of overlays: every read of
  // every overlay (and every snapshot taken) agrees with full copies, through every fold.
  test('agrees with full copies through forks, snapshots, resets and folds', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(7), fc.nat(1000), fc.nat(7)), { maxLength: 400 }), (steps) => {
        const overlays = [new Overlay<Rec>()];
        const models: Model[] = [{ inserted: new Map(), deleted: new Set(), removed: new Set(), next: 0 }];
        const marks = new Map<number, [ReturnType<Overlay<Rec>['mark']>, Model]>();
        const views: [ReturnType<Overlay<Rec>['freeze']>, Map<number, Rec>][] = [];
        let sids = 0;
        for (const [op, n, which] of steps) {
          const k = which % overlays.length;
          const o = overlays[k] as Overlay<Rec>;
          const m = models[k] as Model;
          if (op <= 2) {
            const rec = { sid: `s${sids++}` };
            const id = o.insert(rec);
            expect(id).toBe(INSERT_BASE + m.next);
            m.inserted.set(id, rec);
            m.removed.delete(rec.sid);
            m.next++;
          } else if (op === 3) {
            const live = [...m.inserted.keys()];
            const id = live.length > 0 && n % 2 === 0 ? (live[n % live.length] as number) : n % 50;
            if (id >= INSERT_BASE || !m.deleted.has(id)) {
              o.remove(id);
              const rec = m.inserted.get(id);
              if (rec === undefined) m.deleted.add(id);
              else {
                m.inserted.delete(id);
                m.removed.add(rec.sid);
              }
            }
          } else if (op === 4 && overlays.length < 12) {
            const f = new Overlay<Rec>();
            f.shareFrom(o);
            overlays.push(f);
            models.push(copy(m));
          } else if (op === 5) {
            views.push([o.freeze(), new Map(m.inserted)]);
          } else if (op === 6) {
            marks.set(k, [o.mark(), copy(m)]);
          } else {
            const marked = marks.get(k);
            if (marked !== undefined) {
              o.restore(marked[0]);
              models[k] = copy(marked[1]);
            }
          }
        }
        overlays.forEach((o, k) => {
          const m = models[k] as Model;
          expect([...o.insertedEntries()]).toEqual([...m.inserted]);
          expect([...o.deletedIds()].sort((a, b) => a - b)).toEqual([...m.deleted].sort((a, b) => a - b));
          expect([o.insertedCount, o.deletedCount, o.nextInsert]).toEqual([m.inserted.size, m.deleted.size, m.next]);
          for (const [id, rec] of m.inserted) expect(o.insertedId(rec.sid)).toBe(id);
          for (const sid of m.removed) expect([o.removedSid(sid), o.insertedId(sid)]).toEqual([true, undefined]);
          for (const id of m.deleted) expect(o.isDeleted(id)).toBe(true);
        });
        for (const [view, held] of views) {
          for (const [id, rec] of held) expect(view.insertedRecord(id)).toBe(rec);
        }
      }),
      { seed: 21, numRuns: 200 },
    );
  });
});

test('Overlay: a write after each snapshot folds deep layers, keeping what a fork shares and every read', () => {
  const parent = new Overlay<{ sid: string }>();
  for (let i = 0; i < 5; i++) parent.insert({ sid: `p${i}` });
  const fork = new Overlay<{ sid: string }>();
  fork.shareFrom(parent);
  const held: number[] = [];
  // Forty rounds of write-then-read: each read freezes the top, each write puts a layer on it.
  for (let r = 0; r < 40; r++) {
    held.push(fork.insert({ sid: `f${r}` }));
    if (r % 3 === 0) fork.remove(held.shift() as number);
    if (r === 20) fork.remove(INSERT_BASE + 1);
    fork.freeze();
  }
  expect(fork.insertedId('p1')).toBeUndefined();
  expect(fork.removedSid('p1')).toBe(true);
  expect([...fork.insertedEntries()].map(([, r]) => r.sid)).toEqual([
    'p0',
    'p2',
    'p3',
    'p4',
    ...held.map((id) => `f${id - INSERT_BASE - 5}`),
  ]);
  expect(fork.insertedCount).toBe(4 + held.length);
  // The parent is as it was: its writes were shared, never folded into the fork's or changed.
  expect([...parent.insertedEntries()].map(([, r]) => r.sid)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
});

describe('tables through the World, the only writer', () => {
  const make = () =>
    new World({
      seed: 'tbl',
      clockMs: Date.UTC(2025, 5, 1),
      accounts: [{ friendlyName: 'T', calls: 64, recordings: 40 }],
    });
  const account = (w: World) => w.accounts()[0] as Account;
  const sids = (a: Account, column: 'created' | 'from' | 'duration' | null, direction: 'asc' | 'desc' = 'asc') => {
    const order = a.calls.order(column === null ? null : { column, direction });
    return Array.from({ length: order.length }, (_, p) => a.calls.get(order.at(p)).sid);
  };

  test('the default order is the index order; created:asc its reverse', () => {
    const a = account(make());
    expect(sids(a, null)).toEqual(Array.from({ length: 64 }, (_, i) => a.calls.get(i).sid));
    expect(sids(a, 'created', 'asc')).toEqual([...sids(a, null)].reverse());
    const order = a.calls.order(null);
    expect(Array.from({ length: order.length }, (_, p) => order.at(p))).toEqual(
      Array.from({ length: 64 }, (_, i) => i),
    );
  });

  test('a write bumps the version; orders and counts follow inserts and deletions, in every column', () => {
    const w = make();
    const a = account(w);
    const v = w.version;
    const donor = make();
    const extra = { ...account(donor).calls.get(10), sid: `ID${'1'.repeat(32)}-CA${'2'.repeat(32)}` };
    w.insertCalls(a, [extra]);
    w.deleteCall(a, 3);
    expect(w.version).toBeGreaterThan(v);
    expect(a.calls.count).toBe(64);
    for (const column of ['created', 'from', 'duration'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const order = sids(a, column, direction);
        expect(order).toContain(extra.sid);
        expect(order).not.toContain(a.calls.get(3).sid);
        expect(new Set(order).size).toBe(64);
      }
    }
    expect(a.calls.find(extra.sid)).toBe(INSERT_BASE);
    w.resetAccount(a);
    expect([a.calls.count, a.calls.find(extra.sid)]).toEqual([64, undefined]);
  });

  test('deleting a call deletes its recordings', () => {
    const w = make();
    const a = account(w);
    const callId = a.calls.find(a.recordings.get(0).callSid) as number;
    const before = a.recordingsOfCall(callId).length;
    expect(before).toBeGreaterThan(0);
    expect(w.deleteCall(a, callId)).toBe(before);
    expect(a.recordings.count).toBe(40 - before);
  });

  test('outside the store a table is read-only: its view has no write methods (checked by tsc)', () => {
    const a = account(make());
    const writes = (view: Account['calls']) => [
      // @ts-expect-error: writes go through the World
      view.insert,
      // @ts-expect-error: writes go through the World
      view.remove,
      // @ts-expect-error: writes go through the World
      view.clearWrites,
    ];
    expect(writes(a.calls)).toHaveLength(3);
  });

  test('an account that left the world cannot be written', () => {
    const w = make();
    const a = account(w);
    w.deleteAccount(a.profile.sid);
    expect(() => w.resetAccount(a)).toThrow(/not in this world/);
  });
});
