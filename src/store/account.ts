import type { AccountProfile, AccountSpec, WorldContext } from '../generators/account';
import { blockLayout, CALLS_PER_BLOCK, RECORDINGS_PER_BLOCK } from '../generators/recording-layout';
import { CallTable } from './calls';
import { INSERT_BASE } from './overlay';
import { RecordingTable } from './recordings';

/** One account: its identity, the spec it was built from, and its two lists. */
export class AccountStore {
  readonly calls: CallTable;
  readonly recordings: RecordingTable;

  constructor(
    readonly context: WorldContext,
    readonly profile: AccountProfile,
    /** What the account is reset to. */
    readonly spec: AccountSpec,
  ) {
    this.calls = new CallTable(context, profile, spec.calls);
    this.recordings = new RecordingTable(context, profile, spec.recordings);
  }

  /** Back to the seeded records: writes dropped, sort orders of the seeded records kept. */
  clearWrites(): void {
    this.calls.clearWrites();
    this.recordings.clearWrites();
  }

  get hasWrites(): boolean {
    return !this.calls.overlay.empty || !this.recordings.overlay.empty;
  }

  /** Ids of the live recordings of a call: the seeded ones its block's layout puts on it, and inserted ones. */
  recordingsOfCall(callId: number): number[] {
    const sid = this.calls.get(callId).sid;
    const ids: number[] = [];
    if (callId < INSERT_BASE) {
      const block = Math.floor(callId / CALLS_PER_BLOCK);
      blockLayout(this.profile, block).forEach((offset, p) => {
        const j = block * RECORDINGS_PER_BLOCK + p;
        if (offset === callId % CALLS_PER_BLOCK && j < this.recordings.seeded && !this.recordings.overlay.deleted.has(j)) ids.push(j);
      });
    }
    for (const [id, rec] of this.recordings.overlay.inserted) if (rec.callSid === sid) ids.push(id);
    return ids;
  }

  /** Deletes a call and its recordings; returns how many recordings went with it. */
  deleteCall(callId: number): number {
    const recordings = this.recordingsOfCall(callId);
    for (const id of recordings) this.recordings.remove(id);
    this.calls.remove(callId);
    return recordings.length;
  }
}
