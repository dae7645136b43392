import type { AccountProfile, WorldContext } from '../generators/account';
import { CALL_DIRECTIONS, CALL_STATUSES, callSortFields, generateCall, type CallRecord } from '../generators/call';
import type { CallSortAttribute, SortSpec } from '../query/sort';
import { compareStrings, indexOrder, permutationOrder, reverseIndexOrder, sortedPermutation, type Order } from './order';

/** Sort keys of every call, as columns: built once, on the first sorted request. */
interface CallColumns {
  from: string[];
  to: string[];
  /** Rank of the value in code-unit order, so comparing ranks compares the strings. */
  direction: Uint8Array;
  status: Uint8Array;
  duration: Uint32Array;
  priceInt: Uint32Array;
}

const DIRECTION_RANK = new Map([...CALL_DIRECTIONS].sort(compareStrings).map((v, i) => [v, i]));
const STATUS_RANK = new Map([...CALL_STATUSES].sort(compareStrings).map((v, i) => [v, i]));

/** The calls of one account: made on read from the seed, with cached sort orders. */
export class CallTable {
  private columns: CallColumns | null = null;
  private readonly orders = new Map<string, Uint32Array>();

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    readonly count: number,
  ) {}

  get(i: number): CallRecord {
    return generateCall(this.world, this.account, i);
  }

  /** The list order for a SortBy (null: the default, `date_created` descending). */
  order(sort: SortSpec<CallSortAttribute> | null): Order {
    if (sort === null || sort.attribute === 'DateCreated') {
      return sort?.direction === 'asc' ? reverseIndexOrder(this.count) : indexOrder(this.count);
    }
    const key = `${sort.attribute}:${sort.direction}`;
    let perm = this.orders.get(key);
    if (perm === undefined) {
      perm = sortedPermutation(this.count, this.comparator(sort));
      this.orders.set(key, perm);
    }
    return permutationOrder(perm);
  }

  private comparator(sort: SortSpec<CallSortAttribute>): (a: number, b: number) => number {
    const c = this.loadColumns();
    const sign = sort.direction === 'asc' ? 1 : -1;
    const numeric = (col: Uint8Array | Uint32Array) => (a: number, b: number) =>
      sign * ((col[a] as number) - (col[b] as number));
    const text = (col: string[]) => (a: number, b: number) => sign * compareStrings(col[a] as string, col[b] as string);
    switch (sort.attribute) {
      case 'From':
        return text(c.from);
      case 'To':
        return text(c.to);
      case 'Direction':
        return numeric(c.direction);
      case 'Status':
        return numeric(c.status);
      case 'Duration':
        return numeric(c.duration);
      case 'Price':
        return numeric(c.priceInt);
      case 'DateCreated':
        return (a, b) => sign * (b - a);
    }
  }

  private loadColumns(): CallColumns {
    if (this.columns !== null) return this.columns;
    const n = this.count;
    const c: CallColumns = {
      from: new Array<string>(n),
      to: new Array<string>(n),
      direction: new Uint8Array(n),
      status: new Uint8Array(n),
      duration: new Uint32Array(n),
      priceInt: new Uint32Array(n),
    };
    for (let i = 0; i < n; i++) {
      const f = callSortFields(this.account, i);
      c.from[i] = f.from;
      c.to[i] = f.to;
      c.direction[i] = DIRECTION_RANK.get(f.direction) as number;
      c.status[i] = STATUS_RANK.get(f.status) as number;
      c.duration[i] = f.duration;
      c.priceInt[i] = f.priceInt;
    }
    this.columns = c;
    return c;
  }
}
