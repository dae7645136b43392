import type { WalkPage } from '../query/walk';
import { Admission } from './admission';
import { ByteLru } from './byte-lru';
import { Doorkeeper, textHash } from './doorkeeper';
import { type RenderedRun, renderedRun } from './rendered-run';

/** Record ids stay below 2^27 (seeded below 2^26, inserted from 2^26), so table·2^27 + id is exact. */
const INDEX_SPAN = 2 ** 27;

/**
 * Orders longer than this are not kept as runs: building one renders every item of the order on
 * the request that asks for it a second time, which at a thousand items is about 3 ms (the most
 * one built page renders), and the runs that pay are those of the small accounts a test seeds.
 */
export const RUN_MAX_ITEMS = 1000;
/** Orders asked for once in this version, remembered up to this many (then forgotten, all). */
const RUN_ASKS_HELD = 10_000;
/** An order that cannot be a run in this version (it holds an inserted record, or outgrows the budget). */
const NEVER = Number.NEGATIVE_INFINITY;

/** A whole response, ready to write again: the headers as node's flat [name, value, …] list. */
export interface CachedResponse {
  headers: string[];
  body: Buffer;
  /** The warnings among the headers, for the journal. */
  warnings: readonly string[];
  /** The page as a walk sees it, for the journal (a cached answer is a page served too). */
  walk?: WalkPage | null;
  /** The key's hash, set as it is kept: each hit counts a sight of it (see `Admission`). */
  sight?: number;
}

export interface RenderCacheOptions {
  /** Budget for rendered items, in bytes. */
  itemBytes?: number;
  /** Budget for whole responses, in bytes. */
  responseBytes?: number;
  /** Budget for rendered runs (an order's items joined), in bytes. */
  runBytes?: number;
}

/**
 * Rendered bytes, so that what is asked for again is not rendered again:
 * - items: each record's JSON text, keyed by (list, account, index), shared by every page, order and
 *   page size that shows the record, for orders of at most RUN_MAX_ITEMS (what a test seeds; a
 *   longer order's pages are mostly walked, each item shown once);
 * - responses: whole list responses, keyed by what determines them (method, URL, credentials,
 *   and Accept where it matters), written again straight from the socket handler.
 *
 * Both are bounded LRUs, and each keeps what is asked for a second time: most of what a walk
 * renders is asked for once. Everything is dropped when the world's version changes (any admin
 * write), so a cached byte is always a byte a fresh render would give. The front door syncs it
 * once per request, before anything is read from it.
 */
export class RenderCache {
  /** Keyed by `itemKey(table, index)`. */
  readonly items: ByteLru<number, string>;
  readonly responses: ByteLru<string, CachedResponse>;
  /** Keyed by the order's key (table, writes, sort, filter). */
  readonly runs: ByteLru<string, RenderedRun>;
  /**
   * How often each order was asked for in this version: a run is built on its second ask in the
   * same version, never across one, so that a clock moved before every request (--clock-rate)
   * does not render a whole order for each.
   */
  private readonly runAsks = new Map<string, number>();
  /**
   * Each cache keeps what is asked for a second time (see `Doorkeeper`); the response cache, once
   * full, only what is asked for more often than what it would push out (see `Admission`). Items
   * have no such contest: a walk's one-offs that slip past the filter take little room, and
   * counting every item's sights cost more than it saved (measured on a walk of 10M calls).
   */
  private readonly itemDoor = new Doorkeeper(22);
  private readonly responseAdmission = new Admission(20, 16);
  private version = -1;

  constructor(options: RenderCacheOptions = {}) {
    this.items = new ByteLru(options.itemBytes ?? 32 * 1024 * 1024);
    this.responses = new ByteLru(options.responseBytes ?? 64 * 1024 * 1024);
    this.runs = new ByteLru(options.runBytes ?? 32 * 1024 * 1024);
  }

  /** Drops everything if the state has changed since the cache was filled. */
  sync(version: number): void {
    if (version !== this.version) {
      this.items.clear();
      this.responses.clear();
      this.runs.clear();
      this.runAsks.clear();
      // The doorkeepers remember on: what was asked for before a write is kept on its next
      // render (likely asked for again), and a clock running fast (--clock-rate), which writes
      // before most requests, need not empty them each time.
      this.version = version;
    }
  }

  /**
   * The rendered item, rendering and keeping it on a miss. Kept as text: a page copies its items
   * into one buffer of the body's size (an ASCII item as Latin-1, a byte a character), which
   * costs less than encoding each item into a buffer of its own (a pool slice a kilobyte, then
   * a copy), and a walk renders most items once. Its length stands for its bytes: the
   * items are ASCII but for the rare name or inserted value. `table` numbers a (list, account)
   * pair; the key is a plain number, which a Map hashes faster than a composed string.
   */
  item(table: number, index: number, render: () => string): string {
    const key = table * INDEX_SPAN + index;
    let text = this.items.get(key);
    if (text === undefined) {
      text = render();
      if (this.itemDoor.admits(Math.imul(table, 0x9e3779b1) ^ index)) this.items.set(key, text, text.length);
    }
    return text;
  }

  /**
   * The run of an order of `length` items, building it on the order's second ask in this
   * version; null before that, for an order over RUN_MAX_ITEMS, or when `textAt` says a position
   * cannot be kept (null: an inserted record, see `item`).
   */
  run(key: string, length: number, between: string, textAt: (position: number) => string | null): RenderedRun | null {
    if (length > RUN_MAX_ITEMS || this.runs.maxBytes === 0) return null;
    const held = this.runs.get(key);
    if (held !== undefined) return held;
    const asks = (this.runAsks.get(key) ?? 0) + 1;
    if (asks < 2) {
      if (this.runAsks.size >= RUN_ASKS_HELD) this.runAsks.clear();
      this.runAsks.set(key, asks);
      return null;
    }
    const texts = new Array<string>(length);
    for (let p = 0; p < length; p++) {
      const text = textAt(p);
      if (text === null) {
        this.runAsks.set(key, NEVER);
        return null;
      }
      texts[p] = text;
    }
    const run = renderedRun(texts, between);
    const bytes = run.bytes.length + run.ends.byteLength + 2 * key.length + 64;
    // One larger than the whole budget is used once and not built again in this version.
    if (bytes > this.runs.maxBytes) this.runAsks.set(key, NEVER);
    else this.runAsks.delete(key);
    this.runs.set(key, run, bytes);
    return run;
  }

  /**
   * Whether the response to a request under `key` is to be kept (see `Admission`). Asked as the
   * request arrives, so that one kept by nobody costs nothing to gather.
   */
  admits(key: string): boolean {
    return this.responseAdmission.admits(textHash(key), this.responses, textHash);
  }

  /** Counts a sight of a kept response, served again. */
  sighted(response: CachedResponse): void {
    this.responseAdmission.hit(response.sight ?? 0);
  }

  /** Keeps a whole response under `key` (one `admits` let in). */
  keep(key: string, response: CachedResponse, bytes: number): void {
    response.sight = textHash(key);
    this.responses.set(key, response, bytes);
  }
}
