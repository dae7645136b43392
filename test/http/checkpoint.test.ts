import request from 'supertest';
import { CHECKPOINT_BYTES, CheckpointRule } from '../../src/admin/checkpoint-rule';
import type { LogEntry, LogTransport } from '../../src/admin/log-transport';
import type { EmulatorApp } from '../../src/app';
import type { World } from '../../src/store/world';
import { byCalls, makeEmulator } from '../support/app';

/**
 * A fleet's log in memory, as the `--workers` primary keeps it: entries after the newest
 * checkpoint, the checkpoint itself, and every member fed in order. Entries cross as JSON, a
 * turn of the event loop each, as messages between processes do.
 */
function memoryLog() {
  let entries: LogEntry[] = [];
  let base = 0;
  let kept: { version: number; text: string } | null = null;
  const members: ((version: number, entry: unknown) => void)[] = [];
  const wire = (e: LogEntry) => JSON.parse(JSON.stringify(e)) as unknown;
  const transport = (): LogTransport => ({
    where: 'memory',
    up: true,
    async open(deliver, start) {
      const ready = kept !== null && start !== undefined ? start(kept.version, kept.text) : Promise.resolve();
      // The first entry after the checkpoint comes while it is restored, the others after.
      for (const [k, e] of entries.entries()) {
        if (k === 0) deliver(base + 1, wire(e));
        else {
          await ready;
          await later(() => deliver(base + k + 1, wire(e)));
        }
      }
      members.push(deliver);
      await ready;
    },
    async append(entry) {
      entries.push(entry);
      const version = base + entries.length;
      for (const m of members) void later(() => m(version, wire(entry)));
    },
    refused(version, id) {
      if (entries[version - base - 1]?.id === id) entries[version - base - 1] = { kind: 'refused', id };
    },
    async checkpoint(version, text) {
      if (version <= base || version > base + entries.length) return;
      kept = { version, text };
      entries = entries.slice(version - base);
      base = version;
    },
    head: async () => base + entries.length,
    close: async () => undefined,
  });
  return { transport, held: () => entries.length, kept: () => kept?.version ?? 0 };
}

/** Runs `fn` on a later turn, as a message from another process comes. */
const later = (fn: () => void) => new Promise<void>((resolve) => setImmediate(() => resolve(fn())));

type Step = (app: EmulatorApp) => Promise<unknown>;

/** Admin writes of every kind that leaves state a checkpoint must carry: forks, their bases, faults, the clock. */
function steps(main: string, ids: string[]): Step[] {
  const post = (path: string, body?: unknown) => (app: EmulatorApp) => {
    const r = request(app).post(path);
    return (body === undefined ? r : r.send(body as object)).then((res) => {
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    });
  };
  const fork: Step = (app) =>
    post('/__admin/sandboxes', { from: main, ttl_s: 3600 })(app).then((b) => ids.push((b as { sid: string }).sid));
  const last = () => ids[ids.length - 1] as string;
  const onLast =
    (make: (sid: string) => Step): Step =>
    (app) =>
      make(last())(app);
  return [
    fork,
    onLast((sid) => post(`/__admin/accounts/${sid}/calls`, [{ status: 'busy' }, {}])),
    post('/__admin/faults', { path: '/nowhere', status: 503, times: 2 }),
    post('/__admin/clock', { advance: 90 }),
    onLast((sid) => post(`/__admin/sandboxes/${sid}/clock`, { advance: 30 })),
    fork,
    onLast((sid) => post(`/__admin/accounts/${sid}/restart`, {})),
    // Ended: three forks made, two live, when the checkpoint falls (after the tenth write).
    onLast((sid) => (app) => request(app).delete(`/__admin/sandboxes/${sid}`)),
    fork,
    post('/__admin/faults', { path: '/elsewhere', delay_ms: 5 }),
    post(`/__admin/accounts/${main}/calls`, [{ from: '+15550001111' }]),
    post('/__admin/accounts', { friendly_name: 'Made after the fork' }),
    onLast((sid) => post(`/__admin/accounts/${sid}/calls`, [{}, {}, {}])),
  ];
}

/** What two members must agree on: everything the state shows, and what only later writes read. */
async function view({ app, world }: { app: EmulatorApp; world: World }, sandboxes: readonly string[]) {
  const get = async (path: string) => (await request(app).get(path)).text;
  return {
    state: await get('/__admin/state'),
    faults: await get('/__admin/faults'),
    sandboxes: await get('/__admin/sandboxes'),
    book: world.forkBook(),
    accounts: await Promise.all(sandboxes.map((s) => get(`/__admin/accounts/${s}/state`))),
  };
}

describe('checkpoints of the write log', () => {
  test.each([
    [3, 0, true],
    [1, 5, false],
    [2, CHECKPOINT_BYTES / 2 - 1, false],
    [2, CHECKPOINT_BYTES / 2, true],
    [1, CHECKPOINT_BYTES, true],
  ])('the rule: after %i entries of %i bytes each (span 3) it falls: %s', (n, bytes, falls) => {
    const rule = new CheckpointRule(3);
    const fell = Array.from({ length: n }, () => rule.count(bytes));
    expect(fell[n - 1]).toBe(falls || n === 3);
    expect(fell.slice(0, -1)).not.toContain(true);
  });

  test('a member started from a checkpoint agrees with one that applied every write, now and after the same later writes', async () => {
    const log = memoryLog();
    const first = makeEmulator({ log: log.transport(), replica: 'a', checkpointEvery: 5 });
    await first.app.log.ready;
    const main = byCalls(first.world, 448).sid;
    const ids: string[] = [];
    for (const step of steps(main, ids)) await step(first.app);
    // Made after the write that fell on a span's end, a few turns later.
    await new Promise((r) => setTimeout(r, 100));
    expect(log.kept()).toBe(10);
    expect(log.held()).toBe(3);

    const second = makeEmulator({ log: log.transport(), replica: 'b', checkpointEvery: 5 });
    await second.app.log.ready;
    expect(second.app.log.version).toBe(13);
    expect((await request(second.app).get('/__admin/health')).body.log.checkpoint).toEqual({
      started_from: 10,
      made: 0,
    });
    const live = () => first.world.sandboxes().map((s) => s.sid);
    expect(await view(second, live())).toEqual(await view(first, live()));

    // The same later writes, through either member: a sandbox's reset goes back to its fork,
    // the next fork has the same sid, a fault's ids go on, expiry finds the same sandbox.
    const later: Step[] = [
      (app) => request(app).post(`/__admin/accounts/${ids[0]}/reset`),
      (app) => request(app).post(`/__admin/accounts/${ids[2]}/reset`),
      (app) => request(app).post('/__admin/sandboxes').send({ from: main }),
      (app) => request(app).post('/__admin/faults').send({ status: 500, path: '/later' }),
      (app) => request(app).delete('/__admin/faults/fault-1'),
    ];
    for (const [k, step] of later.entries()) {
      const res = (await step(k % 2 === 0 ? second.app : first.app)) as { status: number };
      expect(res.status).toBeLessThan(300);
    }
    first.app.log.expire(ids[2] as string, first.world.forkOf(ids[2] as string)?.serial as number);
    await second.app.log.waitFor(19, 2000);
    await first.app.log.waitFor(19, 2000);
    expect(first.world.account(ids[2] as string)).toBeUndefined();
    expect(await view(second, live())).toEqual(await view(first, live()));
  });

  test('the log holds at most one span past its checkpoint, refused writes weigh nothing', async () => {
    const log = memoryLog();
    const { app } = makeEmulator({ log: log.transport(), checkpointEvery: 20 });
    await app.log.ready;
    for (let i = 0; i < 120; i++) {
      const res = await request(app)
        .post('/__admin/clock')
        .send(i % 3 === 0 ? { advance: -1 } : { advance: 1 });
      expect(res.status).toBe(i % 3 === 0 ? 400 : 200);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(log.kept()).toBe(120);
    expect(log.held()).toBe(0);
  });
});
