import { twilioSid } from '../format/twilio/fields';
import type { ListName } from '../generators/list-names';
import type { Account } from './world';

/**
 * The full sids a Twilio sid may stand for in an account's list. A call's sid is Restcomm's
 * `ID…-CA…`, whose `CA…` half is Twilio's: a seeded call's is decoded from its hex digits, any
 * other's tried under each InstanceId its calls are stamped with (the world's, and the nodes of
 * its hazards). Every other list's sids are Twilio's as they stand.
 * @example fullSids(account, 'calls', 'CAaa59…') // ['ID728f…-CAaa59…', …]
 */
function fullSids(account: Account, list: ListName, sid: string): string[] {
  if (list !== 'calls' || sid.includes('-')) return [sid];
  const seeded = seededTwilioRecord(account.tables.calls, account, 'calls', sid);
  const stamps = [...account.context.instanceIds, ...account.nodes.map((n) => n.instanceId)];
  return [...(seeded === undefined ? [] : [seeded.sid]), ...stamps.map((id) => `${id}-${sid}`)];
}

/**
 * The id of the live record of an account's list that a Twilio sid names, or undefined.
 * @example findTwilioRecord(account, 'calls', 'CAaa597006409a09d6f0106fa494f05ed6') // 0
 */
export function findTwilioRecord(account: Account, list: ListName, sid: string): number | undefined {
  const table: { find(sid: string): number | undefined } = account.tables[list];
  for (const full of fullSids(account, list, sid)) {
    const id = table.find(full);
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * The seeded record a Twilio sid names, live or deleted: its place in the order is known either
 * way, which a cursor naming a deleted record needs.
 */
export function seededTwilioRecord<R extends { sid: string }>(
  table: { readonly seeded: number; get(id: number): R },
  account: Account,
  list: ListName,
  sid: string,
): R | undefined {
  if (!/^[A-Z]{2}[0-9a-f]{32}$/.test(sid)) return undefined;
  const i = account.profile.sids.seeded[list].decode(sid.slice(2));
  if (i === undefined || i >= table.seeded) return undefined;
  const record = table.get(i);
  return twilioSid(record.sid) === sid ? record : undefined;
}
