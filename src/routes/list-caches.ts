import { ByteSink } from '../format/byte-sink';
import { Shared } from '../http/slices';
import type { Order } from '../store/order';
import type { TableState } from '../store/table-contracts';

/** Merged orders kept at most: a client pages through one at a time. */
const MAX_MERGED = 16;

/**
 * What the list routes keep between requests, one per app (`createApp` makes it), so that
 * nothing of one app outlives it or is seen by another in the same process: the orders being
 * built (shared by the requests waiting for them), the merged orders of lists over sub-accounts
 * (each keyed by its tables' write counts, so a write or a reset makes a new key, and an old one
 * is never served), and the buffer a page is written into as bytes.
 */
export class ListCaches {
  /** Orders being built, shared by the requests that wait for them. */
  readonly orders = new Shared<TableState<unknown>>();
  /** Merges being made, shared by the requests that wait for them. */
  readonly merges = new Shared<Order>();
  /** Where a page written as bytes is built (one at a time: a page is built without a pause). */
  readonly sink = new ByteSink(256 * 1024);
  /** Merged orders, most recent last. */
  private readonly merged = new Map<string, Order>();

  /** The merged order kept for `key`, now the most recent; undefined when none is. */
  mergedOrder(key: string): Order | undefined {
    const order = this.merged.get(key);
    if (order !== undefined) {
      this.merged.delete(key);
      this.merged.set(key, order);
    }
    return order;
  }

  /** Keeps a merged order, dropping the least recent past MAX_MERGED. */
  keepMerged(key: string, order: Order): void {
    if (this.merged.size >= MAX_MERGED) this.merged.delete(this.merged.keys().next().value as string);
    this.merged.set(key, order);
  }

  /** How many merged orders are kept (for tests). */
  get mergedCount(): number {
    return this.merged.size;
  }
}
