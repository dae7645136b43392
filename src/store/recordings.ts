import type { AccountProfile, WorldContext } from '../generators/account';
import { generateRecording, seededRecordingIndex, type RecordingRecord } from '../generators/recording';
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
import { INSERT_BASE, mergeOrder, Overlay } from './overlay';

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
export class RecordingTable {
  private columns: Record<'Duration' | 'CallSid', Ranked> | null = null;
  private readonly orders = new Map<string, Uint32Array>();
  /** Unique in the process, for caches keyed by table. */
  readonly id = newTableId();
  readonly overlay = new Overlay<RecordingRecord>();
  private readonly overlayOrders = new Map<string, Uint32Array>();

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    /** How many recordings the seed makes. */
    readonly seeded: number,
  ) {}

  get count(): number {
    return this.seeded - this.overlay.deleted.size + this.overlay.inserted.size;
  }

  get(id: number): RecordingRecord {
    return id >= INSERT_BASE ? (this.overlay.inserted.get(id) as RecordingRecord) : generateRecording(this.world, this.account, id);
  }

  /** The id of the live recording with this sid, or undefined. */
  find(sid: string): number | undefined {
    const j = seededRecordingIndex(this.account, sid, this.seeded);
    if (j !== undefined) return this.overlay.deleted.has(j) ? undefined : j;
    for (const [id, rec] of this.overlay.inserted) if (rec.sid === sid) return id;
    return undefined;
  }

  insert(rec: RecordingRecord): number {
    const id = INSERT_BASE + this.overlay.nextInsert++;
    rec.index = id;
    this.overlay.inserted.set(id, rec);
    this.overlayOrders.clear();
    return id;
  }

  remove(id: number): void {
    if (id >= INSERT_BASE) this.overlay.inserted.delete(id);
    else this.overlay.deleted.add(id);
    this.overlayOrders.clear();
  }

  clearWrites(): void {
    this.overlay.clear();
    this.overlayOrders.clear();
  }

  /** The list order for a SortBy (null: the default, `date_created` descending). */
  order(sort: SortSpec<RecordingSortAttribute> | null): Order {
    const seededOrder = this.seededOrder(sort);
    if (this.overlay.empty) return seededOrder;
    const key = sort === null ? 'default' : `${sort.attribute}:${sort.direction}`;
    let perm = this.overlayOrders.get(key);
    if (perm === undefined) {
      const compare = compareRecordings(sort);
      perm = mergeOrder(seededOrder, this.overlay.deleted, this.overlay.inserted.keys(), (a, b) => compare(this.get(a), this.get(b)));
      this.overlayOrders.set(key, perm);
    }
    return permutationOrder(perm);
  }

  private seededOrder(sort: SortSpec<RecordingSortAttribute> | null): Order {
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
