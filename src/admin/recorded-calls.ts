import type { DueDelivery } from '../callbacks/callback-desk';
import { twilioRecordingCallbackParams } from '../format/twilio/callback';
import { twilioMediaUrl } from '../format/uris';
import type { CallRecord } from '../generators/call-record';
import { createdRecording } from '../generators/created-call';
import type { Account } from '../store/world';
import type { AdminContext } from './context';

/** An account's recorded created calls by end, built again only after a write to its calls. */
const recordedIndexes = new WeakMap<Account['calls'], { writes: number; calls: CallRecord[] }>();

/**
 * The account's created calls with `Record=true`, by end: the running clock asks four times a
 * second, and scanning every created call each time is what the callbacks' own index avoids.
 */
function recordedCalls(account: Account): readonly CallRecord[] {
  const table = account.calls;
  let index = recordedIndexes.get(table);
  if (index === undefined || index.writes !== table.overlayWrites) {
    const calls = table
      .insertedRecords()
      .filter((c) => c.record !== undefined && c.lifecycle !== undefined)
      .sort((a, b) => a.endMs - b.endMs);
    index = { writes: table.overlayWrites, calls };
    recordedIndexes.set(table, index);
  }
  return index.calls;
}

/**
 * The first position whose instant (`at`) is past `ms`, in a list sorted by it.
 * @example firstAfter([{ atMs: 1 }, { atMs: 5 }], 1, (d) => d.atMs) // 1
 */
export function firstAfter<T>(items: readonly T[], ms: number, at: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(items[mid] as T) <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Twilio's `Record=true`: the recordings of the accounts' recorded created calls that ended in
 * (fromMs, toMs], inserted as the clock passes their end (every replica applies the move, so
 * every replica inserts the same), and the recording status callbacks they make due, for the
 * replica that took the write to send: `completed` with a recording, `absent` for a call that
 * ended unanswered, each where its subscription asked for it.
 */
export function recordEnded(
  ctx: AdminContext,
  accounts: readonly Account[],
  fromMs: number,
  toMs: number,
): DueDelivery[] {
  const due: DueDelivery[] = [];
  for (const account of accounts) {
    const calls = recordedCalls(account);
    for (let at = firstAfter(calls, fromMs, (c) => c.endMs); at < calls.length; at++) {
      const call = calls[at] as CallRecord;
      if (call.endMs > toMs) break;
      if (call.record === undefined) continue;
      const rec = createdRecording(call);
      if (rec !== null && account.recordings.find(rec.sid) === undefined) ctx.world.insertRecordings(account, [rec]);
      const sub = call.record.callback;
      const event = rec === null ? 'absent' : 'completed';
      if (sub === null || !sub.events.includes(event)) continue;
      const sid = account.profile.sid;
      const media = rec === null ? null : twilioMediaUrl(ctx.publicUrl, sid, rec.sid);
      due.push({
        accountSid: sid,
        call,
        event,
        atMs: call.endMs,
        stampMs: call.endMs,
        recording: { target: sub, params: twilioRecordingCallbackParams(sid, call, rec, media) },
      });
    }
  }
  return due.sort((a, b) => a.atMs - b.atMs);
}

/**
 * Sends what `recordEnded` made due, after the calls' own callbacks of the same move (each call's
 * callbacks go one after another); the answer waits for both, as for `settle`.
 */
export function sendRecorded(
  ctx: AdminContext,
  due: readonly DueDelivery[],
  settle: Promise<void> | undefined,
): Promise<void> | undefined {
  if (due.length === 0) return settle;
  const sent = ctx.callbacks.deliver(due, !ctx.callbacksInBackground);
  if (ctx.callbacksInBackground) return settle;
  return settle === undefined ? sent : Promise.all([settle, sent]).then(() => undefined);
}
