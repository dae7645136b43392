import type { AccountProfile, WorldContext } from '../generators/account';
import { generateRecording, type RecordingRecord, seededRecordingIndex } from '../generators/recording';
import { type Column, rankNumbers, rankStrings } from './order';
import { Table } from './table';

/** The columns a recording list sorts by, besides `created`. */
export type RecordingColumn = 'duration' | 'callSid';

/** The recordings of one account: made on read, with key columns, cached permutations and writes. */
export class RecordingTable extends Table<RecordingRecord, RecordingColumn> {
  protected readonly values = {
    duration: (r: RecordingRecord) => r.duration,
    callSid: (r: RecordingRecord) => r.callSid,
  };

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

  protected createdSec(rec: RecordingRecord): number {
    return rec.createdSec;
  }

  protected buildColumns(): Record<RecordingColumn, Column> {
    const duration = new Float64Array(this.seeded);
    const callSid = new Array<string>(this.seeded);
    for (let j = 0; j < this.seeded; j++) {
      const r = this.get(j);
      duration[j] = r.duration;
      callSid[j] = r.callSid;
    }
    return { duration: rankNumbers(duration), callSid: rankStrings(callSid) };
  }
}
