import type { AccountProfile, WorldContext } from '../generators/account';
import { generateRecording, seededRecordingIndex, type RecordingRecord } from '../generators/recording';
import type { RecordingSortAttribute, SortSpec } from '../query/sort';
import {
  countingSortPermutation,
  indexOrder,
  permutationOrder,
  rankNumbers,
  rankStrings,
  reverseIndexOrder,
  type Order,
  type Ranked,
} from './order';
import { Table } from './table';

/** How a SortBy attribute compares two recordings, as `compareCalls` does for calls. */
function compareRecordings(sort: SortSpec<RecordingSortAttribute> | null): (a: RecordingRecord, b: RecordingRecord) => number {
  const bySid = (a: RecordingRecord, b: RecordingRecord) => (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0);
  const newest = (a: RecordingRecord, b: RecordingRecord) => b.createdSec - a.createdSec || bySid(a, b);
  if (sort === null) return newest;
  const sign = sort.direction === 'asc' ? 1 : -1;
  if (sort.attribute === 'DateCreated') return (a, b) => sign * (a.createdSec - b.createdSec) || bySid(a, b);
  const key = sort.attribute === 'Duration' ? (r: RecordingRecord) => r.duration : (r: RecordingRecord) => r.callSid;
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -sign : x > y ? sign : 0) || newest(a, b);
  };
}

/** The recordings of one account: made on read, with rank columns, cached permutations and writes. */
export class RecordingTable extends Table<RecordingRecord, RecordingSortAttribute> {
  private columns: Record<'Duration' | 'CallSid', Ranked> | null = null;
  private readonly orders = new Map<string, Uint32Array>();

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    seeded: number,
  ) {
    super(seeded);
  }

  protected seededRecord(j: number): RecordingRecord {
    return generateRecording(this.world, this.account, j);
  }

  protected seededIndex(sid: string): number | undefined {
    return seededRecordingIndex(this.account, sid, this.seeded);
  }

  protected comparator(sort: SortSpec<RecordingSortAttribute> | null): (a: RecordingRecord, b: RecordingRecord) => number {
    return compareRecordings(sort);
  }

  protected seededOrder(sort: SortSpec<RecordingSortAttribute> | null): Order {
    if (sort === null || sort.attribute === 'DateCreated') {
      return sort?.direction === 'asc' ? reverseIndexOrder(this.seeded) : indexOrder(this.seeded);
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
    const duration = new Float64Array(this.seeded);
    const callSid = new Array<string>(this.seeded);
    for (let j = 0; j < this.seeded; j++) {
      const r = this.get(j);
      duration[j] = r.duration;
      callSid[j] = r.callSid;
    }
    this.columns = { Duration: rankNumbers(duration), CallSid: rankStrings(callSid) };
    return this.columns;
  }
}
