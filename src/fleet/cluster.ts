import cluster, { type Worker } from 'node:cluster';
import {
  type FleetLink,
  GATHER_WAIT_MS,
  type Gathered,
  type GatherKind,
  type LogEntry,
  type LogTransport,
} from '../admin/log-transport';
import { ApiError, messages } from '../errors';
import { localTally, type TallyOp, type TallyReply, type TallyState } from '../faults/tally';

/** Messages between the primary and its workers; `callrec` tells ours from anything else on the channel. */
type ToPrimary =
  | { callrec: 'genesis?' }
  | { callrec: 'hello'; from: number }
  | { callrec: 'append'; entry: LogEntry }
  | { callrec: 'refused'; version: number; id: string }
  | { callrec: 'checkpoint'; version: number; text: string }
  | { callrec: 'listening'; banner: string }
  | { callrec: 'tally'; n: number; op: TallyOp }
  | { callrec: 'counts?'; n: number; keys: string[] }
  | { callrec: 'gather'; n: number; kind: GatherKind; query: string }
  | { callrec: 'gathered'; n: number; answer: Gathered | null };
type ToWorker =
  | { callrec: 'genesis'; wallMs: number }
  | { callrec: 'entry'; version: number; entry: LogEntry }
  | { callrec: 'checkpoint'; version: number; text: string }
  | { callrec: 'caught-up' }
  | { callrec: 'stop' }
  | { callrec: 'tallied'; n: number; reply: TallyReply }
  | { callrec: 'counts'; n: number; states: TallyState[] }
  | { callrec: 'gather?'; n: number; kind: GatherKind; query: string }
  | { callrec: 'gathered-all'; n: number; answers: Gathered[] };

/** How long a worker has to finish its requests once asked to stop. */
const STOP_GRACE_MS = 5000;

/** What the primary writes, and how it ends. */
export interface PrimaryIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Wall time now: the fleet's clock anchor (with --clock-rate only). */
  now: () => number;
}

/**
 * `--workers N` on one host: the primary serves no request; it forks N workers that share the
 * port (each accepting from the one socket), keeps the write log in memory (its newest
 * checkpoint and the entries after it) and orders it: a worker's write goes to the primary,
 * which numbers it and sends it to every worker in that order. A worker that dies is started
 * again and replays the log (from the checkpoint) before it answers. Only with `--redis` is the
 * log elsewhere (each worker then reads Redis itself, and the primary only forks and restarts).
 * Resolves with the exit code once every worker has gone.
 */
export function runPrimary(workers: number, orders: boolean, io: PrimaryIo): Promise<number> {
  /** The entries after `base`: those up to it are in the checkpoint, which a new worker starts from. */
  const log: LogEntry[] = [];
  let base = 0;
  let checkpoint: { version: number; text: string } | null = null;
  const live = new Set<Worker>();
  // The fleet's fault counters: kept here, where every worker's match is one message away.
  const tally = localTally();
  /** Gathers under way: who asked, whose answers are still awaited, and those in. */
  const gathers = new Map<number, { asker: Worker; n: number; waiting: Set<Worker>; answers: Gathered[] }>();
  let gatherSerial = 0;
  const finishGather = (g: number) => {
    const pending = gathers.get(g);
    if (pending === undefined) return;
    gathers.delete(g);
    send(pending.asker, { callrec: 'gathered-all', n: pending.n, answers: pending.answers });
  };
  const listening = new Set<number>();
  const genesisWallMs = io.now();
  let stopping = false;
  let code = 0;
  let bannerShown = false;

  // A worker killed mid-write can still look connected: its channel then fails a moment later
  // (EPIPE). Without a callback node would raise that as an 'error' event and end the primary,
  // and every other worker with it; the 'exit' that follows already starts a replacement.
  const send = (w: Worker, message: ToWorker) => {
    if (w.isConnected()) w.send(message, undefined, {}, ignoreGone);
  };
  /** A message to a worker that has gone is dropped (its replacement replays the log); anything else is said. */
  const ignoreGone = (err: Error | null) => {
    const errCode = (err as NodeJS.ErrnoException | null)?.code;
    if (err !== null && errCode !== 'EPIPE' && errCode !== 'ECONNRESET' && errCode !== 'ERR_IPC_CHANNEL_CLOSED')
      io.err(`callrec-emulator: a message to a worker failed: ${err.message}\n`);
  };

  const fork = (index: number) => {
    const w = cluster.fork();
    w.on('error', ignoreGone);
    w.on('message', (m: ToPrimary) => {
      if (typeof m !== 'object' || m === null || !('callrec' in m)) return;
      if (m.callrec === 'genesis?') {
        send(w, { callrec: 'genesis', wallMs: genesisWallMs });
      } else if (m.callrec === 'hello') {
        // The checkpoint, the backlog after it, then live entries: one channel keeps them in order.
        if (checkpoint !== null && m.from < checkpoint.version) send(w, { callrec: 'checkpoint', ...checkpoint });
        for (let v = Math.max(m.from, base) + 1; v <= base + log.length; v++)
          send(w, { callrec: 'entry', version: v, entry: log[v - base - 1] as LogEntry });
        send(w, { callrec: 'caught-up' });
        live.add(w);
      } else if (m.callrec === 'refused' && orders) {
        // Every worker refused it alike: replays need only its place, not its (maybe 1 MB) body.
        const at = log[m.version - base - 1];
        if (at !== undefined && at.id === m.id) log[m.version - base - 1] = { kind: 'refused', id: m.id };
      } else if (m.callrec === 'checkpoint' && orders) {
        // The world at that version, made by the worker that took its write: what came before goes.
        if (m.version > base && m.version <= base + log.length) {
          checkpoint = { version: m.version, text: m.text };
          log.splice(0, m.version - base);
          base = m.version;
        }
      } else if (m.callrec === 'append' && orders) {
        log.push(m.entry);
        const version = base + log.length;
        for (const x of live) send(x, { callrec: 'entry', version, entry: m.entry });
      } else if (m.callrec === 'tally') {
        send(w, { callrec: 'tallied', n: m.n, reply: tally.step(m.op) as TallyReply });
      } else if (m.callrec === 'counts?') {
        send(w, { callrec: 'counts', n: m.n, states: tally.read(m.keys) as TallyState[] });
      } else if (m.callrec === 'gather') {
        const g = ++gatherSerial;
        gathers.set(g, { asker: w, n: m.n, waiting: new Set(live), answers: [] });
        for (const x of live) send(x, { callrec: 'gather?', n: g, kind: m.kind, query: m.query });
        setTimeout(() => finishGather(g), GATHER_WAIT_MS).unref();
      } else if (m.callrec === 'gathered') {
        const pending = gathers.get(m.n);
        if (pending === undefined) return;
        pending.waiting.delete(w);
        if (m.answer !== null) pending.answers.push(m.answer);
        if (pending.waiting.size === 0) finishGather(m.n);
      } else if (m.callrec === 'listening') {
        listening.add(index);
        if (!bannerShown && listening.size === workers) {
          bannerShown = true;
          io.out(
            `${m.banner}Workers: ${workers} processes share the port (node:cluster); ${orders ? `this primary (pid ${process.pid}) orders the write log` : 'each reads the write log from Redis'}\n`,
          );
        }
      }
    });
    w.on('exit', (exitCode, signal) => {
      live.delete(w);
      // A gather waits no longer for a worker that has gone.
      for (const [g, pending] of gathers) {
        if (pending.waiting.delete(w) && pending.waiting.size === 0) finishGather(g);
      }
      const started = listening.has(index);
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) done(code);
        return;
      }
      if (!started && !bannerShown) {
        // A worker that never listened (a bad file, a port in use) would fail again: stop them all.
        code = exitCode === 0 ? 1 : exitCode;
        stop(undefined);
        return;
      }
      io.err(
        `callrec-emulator: worker ${index} (pid ${w.process.pid}) exited (${signal ?? `code ${exitCode}`}); starting another, which replays the write log before it answers\n`,
      );
      fork(index);
    });
  };

  let done: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => {
    done = resolve;
  });
  const stop = (signal?: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (signal !== undefined) io.out(`callrec-emulator: ${signal}, stopping ${workers} workers\n`);
    const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    if (all.length === 0) done(code);
    // Asked, not disconnected: a worker closes its server while it can still tell the primary,
    // which a cluster worker's close needs. One that does not go within the grace is killed.
    for (const w of all) send(w, { callrec: 'stop' });
    setTimeout(() => {
      for (const w of all) if (!w.isDead()) w.process.kill('SIGKILL');
    }, STOP_GRACE_MS).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // The workers accept from the shared socket themselves. Handed out by the primary (node's round
  // robin), a connection on its way to a worker that was killed stayed open in the primary,
  // unanswered and never reset, until the client gave up (10 to 100 s). Accepted by a worker that
  // dies, it is reset by the kernel; not yet accepted, another worker takes it.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 1; i <= workers; i++) fork(i);
  return finished;
}

const WHERE = 'the primary process (--workers)';

/**
 * A worker's side of the primary's log: appends go to the primary, entries come back in its
 * order, and the first ones (the backlog) before the worker answers a request.
 */
export async function workerTransport(replica: string): Promise<LogTransport> {
  let head = 0;
  const ask = (message: ToPrimary) =>
    new Promise<void>((resolve, reject) => {
      if (process.send === undefined || !process.connected) return reject(new Error('the primary process is gone'));
      process.send(message, undefined, {}, (err: Error | null) => (err === null ? resolve() : reject(err)));
    });
  const genesisWallMs = await new Promise<number>((resolve, reject) => {
    const on = (m: ToWorker) => {
      if (m?.callrec !== 'genesis') return;
      process.off('message', on);
      resolve(m.wallMs);
    };
    process.on('message', on);
    ask({ callrec: 'genesis?' }).catch(reject);
  });
  // Questions to the primary, each answered by the message that carries its number.
  let asked = 0;
  const waiting = new Map<number, (m: ToWorker) => void>();
  const question = <R>(make: (n: number) => ToPrimary, read: (m: ToWorker) => R) =>
    new Promise<R>((resolve, reject) => {
      const n = ++asked;
      waiting.set(n, (m) => resolve(read(m)));
      ask(make(n)).catch((err: unknown) => {
        waiting.delete(n);
        reject(new ApiError(503, messages.logUnavailable(WHERE, err instanceof Error ? err.message : String(err))));
      });
    });
  let answer: (kind: GatherKind, query: string) => Promise<unknown> = () => Promise.resolve(null);
  process.on('message', (m: ToWorker) => {
    if (m?.callrec === 'tallied' || m?.callrec === 'counts' || m?.callrec === 'gathered-all') {
      const resolve = waiting.get(m.n);
      waiting.delete(m.n);
      resolve?.(m);
    } else if (m?.callrec === 'gather?') {
      // A worker that cannot answer (it is failing) is left out rather than stalling the gather.
      void answer(m.kind, m.query)
        .then((a): Gathered | null => ({ replica, answer: a }))
        .catch(() => null)
        .then((a) => ask({ callrec: 'gathered', n: m.n, answer: a }))
        .catch(() => undefined);
    }
  });
  const fleet: FleetLink = {
    tally: {
      step: (op) =>
        question(
          (n) => ({ callrec: 'tally', n, op }),
          (m) => (m as Extract<ToWorker, { callrec: 'tallied' }>).reply,
        ),
      read: (keys) =>
        question(
          (n) => ({ callrec: 'counts?', n, keys: [...keys] }),
          (m) => (m as Extract<ToWorker, { callrec: 'counts' }>).states,
        ),
    },
    gather: (kind, query) =>
      question(
        (n) => ({ callrec: 'gather', n, kind, query }),
        (m) => (m as Extract<ToWorker, { callrec: 'gathered-all' }>).answers,
      ),
    answer: (fn) => {
      answer = fn;
    },
  };
  return {
    where: WHERE,
    fleet,
    genesisWallMs,
    get up() {
      return process.connected;
    },
    open(deliver, start) {
      return new Promise<void>((resolve, reject) => {
        process.on('message', (m: ToWorker) => {
          if (m?.callrec === 'checkpoint') {
            head = Math.max(head, m.version);
            // The write log holds the entries that follow until the checkpoint is restored.
            start?.(m.version, m.text).catch(reject);
          } else if (m?.callrec === 'entry') {
            head = Math.max(head, m.version);
            deliver(m.version, m.entry);
          } else if (m?.callrec === 'caught-up') {
            resolve();
          }
        });
        ask({ callrec: 'hello', from: 0 }).catch(reject);
      });
    },
    append: (entry) => ask({ callrec: 'append', entry }),
    checkpoint: (version, text) => ask({ callrec: 'checkpoint', version, text }),
    refused: (version, id) => {
      ask({ callrec: 'refused', version, id }).catch(() => undefined);
    },
    head: () => Promise.resolve(head),
    close: () => Promise.resolve(),
  };
}

/**
 * A worker's life after it listens: it tells the primary (with the start-up text, which the
 * primary prints once) and stops when asked (the primary's `stop`, or a signal: Ctrl-C reaches
 * every process of the group), closing its server while the primary can still hear of it. A
 * worker whose primary has gone without asking (killed) exits at once.
 */
export function serveAsWorker(banner: string, close: () => Promise<void>): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void close().then(() => {
      if (process.connected) process.disconnect();
    });
  };
  process.on('message', (m: ToWorker) => {
    if (m?.callrec === 'stop') stop();
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('disconnect', () => {
    if (!stopping) process.exit(0);
  });
  process.send?.({ callrec: 'listening', banner } satisfies ToPrimary);
}
