import { callJson } from '../../src/format/call';
import { callSubresourceUri, callUri, callUriParts } from '../../src/format/uris';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { generateCall } from '../../src/generators/call';
import { CALL_MEMBER_ORDER } from '../support/app';

// callJson builds what depends on the account once, for the last account it wrote: a page of
// several accounts' calls (SubAccounts=true) switches between them item by item.

const world = makeWorldContext('callrec', Date.parse('2025-06-01T00:00:00Z'));
const accounts = [0, 1].map((k) =>
  makeAccountProfile('callrec', { friendlyName: `A${k}`, calls: 500, recordings: 0 }, k),
);

describe("a call's JSON", () => {
  test("prints each call's own account and URIs when consecutive calls belong to different accounts", () => {
    for (let k = 0; k < 200; k++) {
      const account = accounts[k % 2] as (typeof accounts)[number];
      const call = generateCall(world, account, k);
      const text = callJson(call, account.sid);
      const shown = JSON.parse(text) as Record<string, unknown>;
      expect(shown.account_sid).toBe(account.sid);
      expect(shown.uri).toBe(callUri(account.sid, call.sid));
      expect(shown.subresource_uris).toEqual({
        notifications: callSubresourceUri(account.sid, call.sid, 'Notifications'),
        recordings: callSubresourceUri(account.sid, call.sid, 'Recordings'),
      });
      // The text is what JSON.stringify writes of the same members, in production's order.
      expect(JSON.stringify(shown)).toBe(text);
      expect(CALL_MEMBER_ORDER.filter((m) => m in shown)).toEqual(Object.keys(shown));
    }
  });

  test.each(['.json', ''] as const)('the URI parts compose the URIs, suffix %j', (suffix) => {
    const parts = callUriParts('AC1', suffix);
    expect(`${parts.calls}ID1-CA2${parts.own}`).toBe(callUri('AC1', 'ID1-CA2', suffix));
    expect(`${parts.calls}ID1-CA2${parts.notifications}`).toBe(
      callSubresourceUri('AC1', 'ID1-CA2', 'Notifications', suffix),
    );
    expect(`${parts.calls}ID1-CA2${parts.recordings}`).toBe(callSubresourceUri('AC1', 'ID1-CA2', 'Recordings', suffix));
  });
});
