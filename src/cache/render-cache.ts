import type { WalkPage } from '../query/walk';
import { ByteLru } from './byte-lru';
import { Doorkeeper, textHash } from './doorkeeper';

/** Record ids stay below 2^27 (seeded below 2^26, inserted from 2^26), so table·2^27 + id is exact. */
const INDEX_SPAN = 2 ** 27;

/** A whole response, ready to write again: the headers as node's flat [name, value, …] list. */
export interface CachedResponse {
  headers: string[];
  body: Buffer;
  /** The warnings among the headers, for the journal. */
  warnings: readonly string[];
  /** The page as a walk sees it, for the journal (a cached answer is a page served too). */
  walk?: WalkPage | null;
}

export interface RenderCacheOptions {
  /** Budget for rendered items, in bytes. */
  itemBytes?: number;
  /** Budget for whole responses, in bytes. */
  responseBytes?: number;
}

/**
 * Rendered bytes, so that what is asked for again is not rendered again:
 * - items: each record's JSON text, keyed by (list, account, index), shared by every page, order and
 *   page size that shows the record;
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
  /** Each cache keeps what is asked for a second time (see `Doorkeeper`). */
  private readonly itemDoor = new Doorkeeper(22);
  private readonly responseDoor = new Doorkeeper(20);
  private version = -1;

  constructor(options: RenderCacheOptions = {}) {
    this.items = new ByteLru(options.itemBytes ?? 32 * 1024 * 1024);
    this.responses = new ByteLru(options.responseBytes ?? 64 * 1024 * 1024);
  }

  /** Drops everything if the state has changed since the cache was filled. */
  sync(version: number): void {
    if (version !== this.version) {
      this.items.clear();
      this.responses.clear();
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

  /** Keeps a whole response under `key`, from the second time it is written (see `Doorkeeper`). */
  keep(key: string, response: CachedResponse, bytes: number): void {
    if (this.responseDoor.admits(textHash(key))) this.responses.set(key, response, bytes);
  }
}
