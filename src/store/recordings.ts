import { generateRecording, type RecordingRecord, seededRecordingIndex } from '../generators/recording';
import { rankNumbers, rankStrings } from './order';
import type { TableKind } from './table';

/** The columns a recording list sorts by, besides `created`. */
export type RecordingColumn = 'duration' | 'callSid';

/** The recordings of an account: made on read, each through its call; found by sid in O(1). */
export const RECORDING_KIND: TableKind<RecordingRecord, RecordingColumn> = {
  record: generateRecording,
  index: (_world, account, sid, count) => seededRecordingIndex(account, sid, count),
  values: {
    created: (r) => r.createdSec,
    duration: (r) => r.duration,
    callSid: (r) => r.callSid,
  },
  columns: (world, account, n) => {
    const duration = new Float64Array(n);
    const callSid = new Array<string>(n);
    for (let j = 0; j < n; j++) {
      const r = generateRecording(world, account, j);
      duration[j] = r.duration;
      callSid[j] = r.callSid;
    }
    return { duration: rankNumbers(duration), callSid: rankStrings(callSid) };
  },
};
