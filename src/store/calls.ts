import type { AccountProfile, WorldContext } from '../generators/account';
import {
  CALL_DIRECTIONS,
  CALL_STATUSES,
  type CallRecord,
  callSortFields,
  generateCall,
  seededCallIndex,
} from '../generators/call';
import { blockLayout, CALLS_PER_BLOCK } from '../generators/recording-layout';
import { type Column, rankStrings } from './order';
import { Table } from './table';

/** The columns a call list sorts by, besides `created`. */
export type CallColumn = 'from' | 'to' | 'direction' | 'status' | 'duration' | 'price';

/** Rank of each value in code-unit order, so that comparing ranks compares the strings. */
const enumRanks = (values: readonly string[]) => new Map([...values].sort().map((v, i) => [v, i] as const));
const DIRECTION_RANK = enumRanks(CALL_DIRECTIONS);
const STATUS_RANK = enumRanks(CALL_STATUSES);

/**
 * The calls of one account: made on read from the seed. What it keeps is what orders need:
 * typed columns of sort keys (built once, on the first sorted request, in one pass over the
 * calls' sort fields) and each order as a Uint32Array permutation, built on first use.
 * A million calls: columns about 14 MB, each order 4 MB.
 */
export class CallTable extends Table<CallRecord, CallColumn> {
  protected readonly values = {
    from: (c: CallRecord) => c.from,
    to: (c: CallRecord) => c.to,
    direction: (c: CallRecord) => c.direction,
    status: (c: CallRecord) => c.status,
    duration: (c: CallRecord) => c.duration,
    // Production sorts by `cast(price as int)`.
    price: (c: CallRecord) => c.priceInt,
  };

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    seeded: number,
  ) {
    super(seeded);
  }

  protected seededRecord(i: number): CallRecord {
    return generateCall(this.world, this.account, i);
  }

  protected seededIndex(sid: string): number | undefined {
    return seededCallIndex(this.world, this.account, sid, this.seeded);
  }

  protected createdSec(call: CallRecord): number {
    return call.startSec;
  }

  protected buildColumns(): Record<CallColumn, Column> {
    const n = this.seeded;
    const from = new Array<string>(n);
    const to = new Array<string>(n);
    const direction = new Uint8Array(n);
    const status = new Uint8Array(n);
    const duration = new Uint32Array(n);
    const price = new Uint32Array(n);
    let maxDuration = 0;
    let maxPrice = 0;
    for (let block = 0; block * CALLS_PER_BLOCK < n; block++) {
      // A block's recording layout decides which of its calls were answered; read it once.
      const layout = blockLayout(this.account, block);
      const end = Math.min(n, (block + 1) * CALLS_PER_BLOCK);
      for (let i = block * CALLS_PER_BLOCK; i < end; i++) {
        const f = callSortFields(this.account, i, layout);
        from[i] = f.from;
        to[i] = f.to;
        direction[i] = DIRECTION_RANK.get(f.direction) as number;
        status[i] = STATUS_RANK.get(f.status) as number;
        duration[i] = f.duration;
        price[i] = f.priceInt;
        if (f.duration > maxDuration) maxDuration = f.duration;
        if (f.priceInt > maxPrice) maxPrice = f.priceInt;
      }
    }
    return {
      from: rankStrings(from),
      to: rankStrings(to),
      direction: { keys: direction, maxKey: DIRECTION_RANK.size - 1 },
      status: { keys: status, maxKey: STATUS_RANK.size - 1 },
      duration: { keys: duration, maxKey: maxDuration },
      price: { keys: price, maxKey: maxPrice },
    };
  }
}
