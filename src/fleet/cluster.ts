import cluster, { type Worker } from 'node:cluster';
import type { LogEntry, LogTransport } from '../admin/write-log';

/** Messages between the primary and its workers; `callrec` tells ours from anything else on the channel. */
type ToPrimary =
  | { callrec: 'genesis?' }
  | { callrec: 'hello'; from: number }
  | { callrec: 'append'; entry: LogEntry }
  | { callrec: 'listening'; banner: string };
type ToWorker =
  | { callrec: 'genesis'; wallMs: number }
  | { callrec: 'entry'; version: number; entry: LogEntry }
  | { callrec: 'caught-up' }
  | { callrec: 'stop' };

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
 * port (node:cluster hands connections round robin), keeps the write log in memory and orders
 * it: a worker's write goes to the primary, which numbers it and sends it to every worker in
 * that order. A worker that dies is started again and replays the log before it answers. Only
 * with `--redis` is the log elsewhere (each worker then reads Redis itself, and the primary only
 * forks and restarts). Resolves with the exit code once every worker has gone.
 */
export function runPrimary(workers: number, orders: boolean, io: PrimaryIo): Promise<number> {
  const log: LogEntry[] = [];
  const live = new Set<Worker>();
  const listening = new Set<number>();
  const genesisWallMs = io.now();
  let stopping = false;
  let code = 0;
  let bannerShown = false;

  const send = (w: Worker, message: ToWorker) => {
    if (w.isConnected()) w.send(message);
  };

  const fork = (index: number) => {
    const w = cluster.fork();
    w.on('message', (m: ToPrimary) => {
      if (typeof m !== 'object' || m === null || !('callrec' in m)) return;
      if (m.callrec === 'genesis?') {
        send(w, { callrec: 'genesis', wallMs: genesisWallMs });
      } else if (m.callrec === 'hello') {
        // The backlog, then live entries: one channel keeps them in order.
        for (let v = m.from + 1; v <= log.length; v++)
          send(w, { callrec: 'entry', version: v, entry: log[v - 1] as LogEntry });
        send(w, { callrec: 'caught-up' });
        live.add(w);
      } else if (m.callrec === 'append' && orders) {
        log.push(m.entry);
        const version = log.length;
        for (const x of live) send(x, { callrec: 'entry', version, entry: m.entry });
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
  for (let i = 1; i <= workers; i++) fork(i);
  return finished;
}

/** Whether this process is a worker of `--workers`. */
export const isWorker = () => cluster.isWorker;

/**
 * A worker's side of the primary's log: appends go to the primary, entries come back in its
 * order, and the first ones (the backlog) before the worker answers a request.
 */
export async function workerTransport(): Promise<LogTransport> {
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
  return {
    where: 'the primary process (--workers)',
    genesisWallMs,
    get up() {
      return process.connected;
    },
    open(deliver) {
      return new Promise<void>((resolve, reject) => {
        process.on('message', (m: ToWorker) => {
          if (m?.callrec === 'entry') {
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
