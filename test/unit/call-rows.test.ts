import { ByteSink } from '../../src/format/byte-sink';
import { callJson, callXml, writeCallJson } from '../../src/format/call';
import { callRowJson, callRowXml } from '../../src/format/rows';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { generateCall } from '../../src/generators/call';
import {
  callAtClock,
  shownAnsweredBy,
  shownDuration,
  shownEndMs,
  shownRingDuration,
  shownStartSec,
  shownStatus,
  shownUpdatedSec,
} from '../../src/generators/call-life';
import type { CallRecord } from '../../src/generators/call-record';
import type { CallRow } from '../../src/generators/rows';
import { callOfRow } from '../../src/generators/verbatim';

/*
 * One set of converters: a generated call, written as the row production would hold for it,
 * reads back through production's converters on rows (format/rows.ts) to the very bytes the
 * generated call's fast writer gives. The spec's `price_unit`, which production's schema has no
 * column for, is the one thing the generated call adds.
 */

const world = makeWorldContext('callrec', Date.parse('2025-06-01T00:00:00Z'));
const account = makeAccountProfile('callrec', { friendlyName: 'Rows', calls: 3000, recordings: 0 }, 0);

/** The row production's CallDetailRecordsDao would hold for a call as it stands. */
function rowOf(call: CallRecord, accountSid: string): CallRow {
  const end = shownEndMs(call);
  const price = `${call.priceInt}.00`;
  return {
    sid: call.sid,
    parent_call_sid: null,
    date_created: call.startSec * 1000,
    date_updated: shownUpdatedSec(call) * 1000,
    account_sid: accountSid,
    sender: call.from,
    recipient: call.to,
    phone_number_sid: call.phoneNumberSid,
    status: shownStatus(call),
    start_time: shownStartSec(call) * 1000,
    end_time: end ?? null,
    duration: shownDuration(call) ?? null,
    price,
    direction: call.direction,
    answered_by: shownAnsweredBy(call) ?? null,
    api_version: '2012-04-24',
    forwarded_from: null,
    caller_name: call.callerName,
    uri: `/2012-04-24/Accounts/${accountSid}/Calls/${call.sid}`,
    call_path: null,
    ring_duration: shownRingDuration(call) ?? null,
    instanceid: call.instanceId,
    conference_sid: null,
    muted: null,
    start_conference_on_enter: null,
    end_conference_on_exit: null,
    on_hold: null,
    ms_id: null,
  };
}

describe("a generated call reads back through production's converters on its row", () => {
  // Final calls of every outcome, and the same calls part-way through their lives.
  const calls = Array.from({ length: 3000 }, (_, i) => generateCall(world, account, i));
  const views = [
    ...calls,
    ...calls
      .slice(0, 400)
      .flatMap((c) => [callAtClock(c, c.startSec * 1000 + 500), callAtClock(c, c.startSec * 1000 + 9000)]),
  ];

  test('JSON: the same bytes, by the text writer and the byte writer', () => {
    const sink = new ByteSink(4096);
    for (const call of views) {
      const text = callJson(call, account.sid);
      expect(callRowJson(rowOf(call, account.sid), 'USD')).toBe(text);
      sink.at = 0;
      writeCallJson(call, account.sid, sink);
      expect(sink.view().toString('utf8')).toBe(text);
    }
    expect(new Set(views.map((c) => shownStatus(c))).size).toBeGreaterThan(8);
  });

  test("XML: the same members, production's Price as the DAO reads the row's text", () => {
    for (const call of views.slice(0, 1500)) {
      expect(callRowXml(rowOf(call, account.sid), 'USD')).toEqual(callXml(call, account.sid));
    }
  });

  test('a row loaded as a record is written from the row, by either writer', () => {
    const sink = new ByteSink(4096);
    for (const call of calls.slice(0, 300)) {
      const row = rowOf(call, account.sid);
      const record = callOfRow(row);
      expect(callJson(record, account.sid)).toBe(callRowJson(row));
      sink.at = 0;
      writeCallJson(record, account.sid, sink);
      expect(sink.view().toString('utf8')).toBe(callRowJson(row));
    }
  });
});
