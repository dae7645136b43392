import type { AccountProfile, WorldContext } from '../generators/account';
import {
  CALL_DIRECTIONS,
  CALL_STATUSES,
  callSortFields,
  generateCall,
  seededCallIndex,
  type CallRecord,
} from '../generators/call';
import { blockLayout, CALLS_PER_BLOCK } from '../generators/recording-layout';
import type { CallSortAttribute, SortSpec } from '../query/sort';
import { Table } from './table';
import {
  countingSortPermutation,
  indexOrder,
  permutationOrder,
  rankStrings,
  reverseIndexOrder,
  type KeyColumn,
  type Order,
} from './order';

type SortedAttribute = Exclude<CallSortAttribute, 'DateCreated'>;

/** One sort key per call, as small integers whose order is the attribute's order. */
interface Column {
  keys: KeyColumn;
  maxKey: number;
}

/** Rank of each value in code-unit order, so that comparing ranks compares the strings. */
const enumRanks = (values: readonly string[]) => new Map([...values].sort().map((v, i) => [v, i] as const));
const DIRECTION_RANK = enumRanks(CALL_DIRECTIONS);
const STATUS_RANK = enumRanks(CALL_STATUSES);

/** How a SortBy attribute compares two calls: production's ORDER BY, plus sid for a total order. */
function compareCalls(sort: SortSpec<CallSortAttribute> | null): (a: CallRecord, b: CallRecord) => number {
  const bySid = (a: CallRecord, b: CallRecord) => (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0);
  const newest = (a: CallRecord, b: CallRecord) => b.startSec - a.startSec || bySid(a, b);
  if (sort === null) return newest;
  const sign = sort.direction === 'asc' ? 1 : -1;
  const by = <T extends string | number>(key: (c: CallRecord) => T) => (a: CallRecord, b: CallRecord) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -sign : x > y ? sign : 0) || newest(a, b);
  };
  switch (sort.attribute) {
    case 'DateCreated':
      return (a, b) => sign * (a.startSec - b.startSec) || bySid(a, b);
    case 'From':
      return by((c) => c.from);
    case 'To':
      return by((c) => c.to);
    case 'Direction':
      return by((c) => c.direction);
    case 'Status':
      return by((c) => c.status);
    case 'Duration':
      return by((c) => c.duration);
    case 'Price':
      return by((c) => c.priceInt);
  }
}

/**
 * The calls of one account: made on read from the seed. What it keeps is what orders need:
 * typed columns of sort keys (built once, on the first sorted request, in one pass over the
 * calls' sort fields) and each order as a Uint32Array permutation, built on first use.
 * A million calls: columns about 14 MB, each order 4 MB.
 */
export class CallTable extends Table<CallRecord, CallSortAttribute> {
  private columns: Record<SortedAttribute, Column> | null = null;
  private readonly orders = new Map<string, Uint32Array>();

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

  protected comparator(sort: SortSpec<CallSortAttribute> | null): (a: CallRecord, b: CallRecord) => number {
    return compareCalls(sort);
  }

  /** The order of the seeded calls alone. */
  protected seededOrder(sort: SortSpec<CallSortAttribute> | null): Order {
    if (sort === null || sort.attribute === 'DateCreated') {
      // Creation time falls as the index grows: these orders need no sorting at all.
      return sort?.direction === 'asc' ? reverseIndexOrder(this.seeded) : indexOrder(this.seeded);
    }
    const key = `${sort.attribute}:${sort.direction}`;
    let perm = this.orders.get(key);
    if (perm === undefined) {
      const column = this.loadColumns()[sort.attribute];
      perm = countingSortPermutation(column.keys, column.maxKey, sort.direction);
      this.orders.set(key, perm);
    }
    return permutationOrder(perm);
  }

  private loadColumns(): Record<SortedAttribute, Column> {
    if (this.columns !== null) return this.columns;
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
    const fromRanks = rankStrings(from);
    const toRanks = rankStrings(to);
    this.columns = {
      From: { keys: fromRanks.ranks, maxKey: fromRanks.maxRank },
      To: { keys: toRanks.ranks, maxKey: toRanks.maxRank },
      Direction: { keys: direction, maxKey: DIRECTION_RANK.size - 1 },
      Status: { keys: status, maxKey: STATUS_RANK.size - 1 },
      Duration: { keys: duration, maxKey: maxDuration },
      Price: { keys: price, maxKey: maxPrice },
    };
    return this.columns;
  }
}
