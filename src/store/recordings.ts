import type { AccountProfile, WorldContext } from '../generators/account';
import { generateRecording, type RecordingRecord } from '../generators/recording';
import type { RecordingSortAttribute, SortSpec } from '../query/sort';
import { compareStrings, indexOrder, permutationOrder, reverseIndexOrder, sortedPermutation, type Order } from './order';

/** The recordings of one account: made on read from the seed, with cached sort orders. */
export class RecordingTable {
  private columns: { duration: Float64Array; callSid: string[] } | null = null;
  private readonly orders = new Map<string, Uint32Array>();

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    readonly count: number,
  ) {}

  get(j: number): RecordingRecord {
    return generateRecording(this.world, this.account, j);
  }

  /** The list order for a SortBy (null: the default, `date_created` descending). */
  order(sort: SortSpec<RecordingSortAttribute> | null): Order {
    if (sort === null || sort.attribute === 'DateCreated') {
      return sort?.direction === 'asc' ? reverseIndexOrder(this.count) : indexOrder(this.count);
    }
    const key = `${sort.attribute}:${sort.direction}`;
    let perm = this.orders.get(key);
    if (perm === undefined) {
      const c = this.loadColumns();
      const sign = sort.direction === 'asc' ? 1 : -1;
      perm = sortedPermutation(
        this.count,
        sort.attribute === 'Duration'
          ? (a, b) => sign * ((c.duration[a] as number) - (c.duration[b] as number))
          : (a, b) => sign * compareStrings(c.callSid[a] as string, c.callSid[b] as string),
      );
      this.orders.set(key, perm);
    }
    return permutationOrder(perm);
  }

  private loadColumns(): { duration: Float64Array; callSid: string[] } {
    if (this.columns !== null) return this.columns;
    const duration = new Float64Array(this.count);
    const callSid = new Array<string>(this.count);
    for (let j = 0; j < this.count; j++) {
      const r = this.get(j);
      duration[j] = r.duration;
      callSid[j] = r.callSid;
    }
    this.columns = { duration, callSid };
    return this.columns;
  }
}
