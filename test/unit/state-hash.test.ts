import { createHash } from 'node:crypto';
import { callFromInput } from '../../src/admin/call-input';
import { recordingFromInput } from '../../src/admin/recording-input';
import { exportState, stateHash } from '../../src/admin/state';
import { type Account, World } from '../../src/store/world';
import { VERSION } from '../../src/version';

describe('stateHash', () => {
  test('hashes, in slices, exactly the text of the export (inserts, deletions and several accounts)', () => {
    const w = new World({
      seed: 'h',
      clockMs: Date.UTC(2025, 5, 1),
      accounts: [
        { friendlyName: 'A', calls: 40, recordings: 20 },
        { friendlyName: 'B', calls: 0, recordings: 0 },
      ],
    });
    const a = w.accounts()[0] as Account;
    for (let k = 0; k < 1200; k++) w.insertCalls(a, [callFromInput(a, { duration: 5 }, 'body', a.calls.nextInsert)]);
    w.insertRecordings(a, [recordingFromInput(a, {}, 'body')]);
    w.deleteCall(a, 3);
    const text = JSON.stringify({
      emulator: VERSION,
      paging: 'production',
      public_url: 'http://x',
      state: exportState(w),
    });
    const expected = createHash('sha256').update(text).digest('hex');
    const work = stateHash(w, 'http://x', 'production');
    let slices = 0;
    let step = work.next();
    while (step.done !== true) {
      slices++;
      step = work.next();
    }
    expect(step.value).toBe(expected);
    expect(slices).toBeGreaterThan(1);
  });
});
