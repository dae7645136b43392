import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PageDone, PageJob, PageThreadData } from './page-worker';

/**
 * Threads that write pages of seeded calls while the main thread serves: a walk of a big
 * account's pages (a load test, an export) asks for pages never built before, each fifty calls
 * to draw and write, and one thread did all of it while the machine's other core stood idle.
 *
 * The main thread hands a page's call indexes to a thread with a free slot, and meanwhile
 * serves other requests (and writes other pages itself when every slot is taken: the threads
 * and the main thread share the work). A thread writes the calls, joined, into its slot of
 * shared memory; the main thread copies them into the page's body between the envelope's head
 * and tail. Only seeded calls go: they are pure functions of (seed, instant, data, index), so a
 * thread makes the very same record. The first job for each account profile is checked against
 * the main thread's own first call; a thread that ever disagrees or fails is not used again.
 */

/**
 * A slot: room for a page of a thousand calls (a call is about 1.1 KB), the largest page built
 * whole (larger ones stream). Memory is touched only as far as pages fill it.
 */
const SLOT_BYTES = 1280 * 1024;
/**
 * Pages a thread holds at once: while it writes one, the next ones wait in its queue. Fewer
 * than a walk's connections left the main thread writing most pages itself (the figures are in
 * BENCHMARKS.md, "Page threads").
 */
const SLOTS_PER_THREAD = 32;
/** Pages waiting for a slot at most; past them a page is written in the main thread. */
const MAX_BACKLOG = 4096;
/** Calls a page sent to a thread holds at most: a seeded call is under 1.3 KB. */
const MAX_ITEMS = Math.floor(SLOT_BYTES / 1300);
/**
 * Threads: one fewer than the cores (the main thread has one), at most two. On one core there
 * are none, as nothing would run beside the main thread.
 */
const THREADS = Math.min(2, availableParallelism() - 1);

const WORKER_FILE = join(__dirname, 'page-worker.js');

interface Thread {
  worker: Worker;
  slots: Buffer;
  free: number[];
  ready: boolean;
}

/** A page's calls written by a thread: valid until `release`, which hands the slot back. */
export interface ThreadPage {
  bytes: Buffer;
  release(): void;
}

/** What a page's calls are, as a thread needs them (see `PageJob`). */
export interface PageSource {
  seed: string;
  clockMs: number;
  dataOf: string;
  accountSid: string;
  ids: Uint32Array;
  /** The first call's sid as this thread makes it: asked only for a profile's first job. */
  firstSid(): string;
}

/** A page given to the threads: sent to one once it has a free slot. */
interface Run {
  seq: number;
  source: PageSource;
  /** The answer: the page's bytes in its slot and how to give the slot back, or null. */
  settle(page: ThreadPage | null, done: PageDone | null): void;
}

class PageThreads {
  private threads: Thread[] | null | undefined;
  private readonly waiting = new Map<number, (done: PageDone | null) => void>();
  /**
   * Pages waiting for a free slot, oldest first. A load test of more connections than slots
   * must not spill pages back onto the main thread: it then writes them slower than a thread,
   * and answers the thread's pages late (BENCHMARKS.md, "Page threads").
   */
  private readonly backlog: Run[] = [];
  private seq = 0;
  /** Profiles whose first job was checked (true) or is being checked (false). */
  private readonly checked = new Map<string, boolean>();
  /** Pages written by threads: for tests and metrics. */
  written = 0;
  /** Pages offered since the event loop last turned. */
  private askedThisTurn = 0;
  private readonly newTurn = () => {
    this.askedThisTurn = 0;
  };

  /**
   * The page's calls written by a thread, or null at once when none should take it now (no
   * compiled worker, none ready, too many pages waiting, a profile's first job under check, a
   * page asked for alone): the caller then writes the page itself. The promise gives null when
   * the thread could not.
   */
  offer(count: number, sourceOf: () => PageSource | null): Promise<ThreadPage | null> | null {
    const threads = this.pool();
    if (threads === null || count === 0 || count > MAX_ITEMS) return null;
    // A page asked for alone (nothing waiting on a thread, no other page this turn of the event
    // loop) is written here: the trip to a thread and back would only add to its wait (0.2 ms
    // measured). Pages that come together, as a walk's many connections send them, go to threads.
    const alone = this.waiting.size === 0 && this.askedThisTurn === 0;
    if (this.askedThisTurn++ === 0) setImmediate(this.newTurn);
    if (alone || !threads.some((t) => t.ready) || this.backlog.length >= MAX_BACKLOG) return null;
    const source = sourceOf();
    if (source === null) return null;
    const key = `${source.seed}\u001f${source.clockMs}\u001f${source.dataOf}`;
    const check = this.checked.get(key);
    if (check === false) return null;
    const expected = check === undefined ? source.firstSid() : null;
    if (expected !== null) this.checked.set(key, false);
    return new Promise((resolve) => {
      const run: Run = {
        seq: ++this.seq,
        source,
        settle: (page, done) => {
          if (expected !== null) {
            // Unanswered, the check is asked again by the profile's next page.
            if (done === null || done.bytes < 0) this.checked.delete(key);
            else if (done.firstSid === expected) this.checked.set(key, true);
            else this.fail(`a thread made ${done.firstSid} where this one made ${expected}`);
          }
          if (page !== null) this.written++;
          resolve(page);
        },
      };
      const thread = this.freest(threads);
      if (thread === undefined) this.backlog.push(run);
      else this.dispatch(thread, run);
    });
  }

  /** The ready thread with the most free slots, if any has one. */
  private freest(threads: readonly Thread[]): Thread | undefined {
    let thread: Thread | undefined;
    for (const t of threads) {
      if (t.ready && t.free.length > 0 && (thread === undefined || t.free.length > thread.free.length)) thread = t;
    }
    return thread;
  }

  /** Sends a page to a thread with a free slot; the slot, once given back, takes the next page waiting. */
  private dispatch(thread: Thread, run: Run): void {
    const slot = thread.free.pop() as number;
    const give = () => {
      thread.free.push(slot);
      const next = this.backlog.shift();
      if (next !== undefined && this.threads !== null) this.dispatch(thread, next);
    };
    this.waiting.set(run.seq, (done) => {
      if (done === null || done.bytes < 0 || this.threads === null) {
        give();
        run.settle(null, done);
        return;
      }
      const at = slot * SLOT_BYTES;
      run.settle({ bytes: thread.slots.subarray(at, at + done.bytes), release: give }, done);
    });
    const { seed, clockMs, dataOf, accountSid, ids } = run.source;
    const job: PageJob = { seq: run.seq, slot, seed, clockMs, dataOf, accountSid, ids };
    thread.worker.postMessage(job);
  }

  private pool(): Thread[] | null {
    if (this.threads !== undefined) return this.threads;
    // Under ts-jest there is no compiled worker beside this file: every page is written here.
    if (THREADS < 1 || !existsSync(WORKER_FILE)) {
      this.threads = null;
      return null;
    }
    this.threads = Array.from({ length: THREADS }, () => this.spawn());
    return this.threads;
  }

  private spawn(): Thread {
    const shared = new SharedArrayBuffer(SLOT_BYTES * SLOTS_PER_THREAD);
    const data: PageThreadData = { slots: shared, slotBytes: SLOT_BYTES };
    const worker = new Worker(WORKER_FILE, { workerData: data });
    const thread: Thread = {
      worker,
      slots: Buffer.from(shared),
      free: Array.from({ length: SLOTS_PER_THREAD }, (_, k) => k),
      ready: false,
    };
    worker.on('message', (message: PageDone | 'ready') => {
      if (message === 'ready') {
        thread.ready = true;
        return;
      }
      const settle = this.waiting.get(message.seq);
      this.waiting.delete(message.seq);
      settle?.(message);
    });
    worker.on('error', (err) => this.fail(err.message));
    worker.on('exit', (code) => {
      if (this.threads !== null) this.fail(`a page thread stopped (exit code ${code})`);
    });
    // An idle thread must not keep a finished process alive; after the listeners, as adding a
    // 'message' listener refs the thread again.
    worker.unref();
    return thread;
  }

  /** No thread is used again; pages waiting on one are written by the main thread. */
  private fail(why: string): void {
    if (this.threads === null) return;
    const threads = this.threads ?? [];
    this.threads = null;
    process.stderr.write(`callrec-emulator: ${why}; pages are written in the main thread from now on\n`);
    for (const settle of this.waiting.values()) settle(null);
    this.waiting.clear();
    for (const run of this.backlog.splice(0)) run.settle(null, null);
    for (const t of threads) void t.worker.terminate();
  }
}

/** The process's page threads, made when a page first asks for them. */
export const pageThreads = new PageThreads();
