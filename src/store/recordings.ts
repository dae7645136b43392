import type { AccountProfile, WorldContext } from '../generators/account';
import { generateRecording, type RecordingRecord } from '../generators/recording';
import type { RecordingSortAttribute, SortSpec } from '../query/sort';
import {
  countingSortPermutation,
  indexOrder,
  newTableId,
  permutationOrder,
  rankNumbers,
  rankStrings,
  reverseIndexOrder,
  type Order,
  type Ranked,
} from './order';

/** The recordings of one account: made on read, with rank columns and cached permutations. */
export class RecordingTable {
  private columns: Record<'Duration' | 'CallSid', Ranked> | null = null;
  private readonly orders = new Map<string, Uint32Array>();
  /** Unique in the process, for caches keyed by table. */
  readonly id = newTableId();

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
      const column = this.loadColumns()[sort.attribute];
      perm = countingSortPermutation(column.ranks, column.maxRank, sort.direction);
      this.orders.set(key, perm);
    }
    return permutationOrder(perm);
  }

  private loadColumns(): Record<'Duration' | 'CallSid', Ranked> {
    if (this.columns !== null) return this.columns;
    const duration = new Float64Array(this.count);
    const callSid = new Array<string>(this.count);
    for (let j = 0; j < this.count; j++) {
      const r = this.get(j);
      duration[j] = r.duration;
      callSid[j] = r.callSid;
    }
    this.columns = { Duration: rankNumbers(duration), CallSid: rankStrings(callSid) };
    return this.columns;
  }
}
