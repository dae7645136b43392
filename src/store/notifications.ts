import type { AccountProfile, WorldContext } from '../generators/account';
import { collationKey } from '../generators/collation';
import { generateNotification, type NotificationRecord, seededNotificationIndex } from '../generators/notification';
import { type Column, rankStrings, SLICE, type Work } from './order';
import type { TableKind } from './table-contracts';

/** The columns a notification list sorts by, besides `created`: production's Log, ErrorCode, CallSid, MessageText. */
export type NotificationColumn = 'log' | 'errorCode' | 'callSid' | 'messageText';

/**
 * One key column of `n` seeded notifications, in slices: the numbers as themselves, the texts
 * by rank (an account holds one notification per eight calls at most, so the texts fit).
 */
function* notificationColumn(
  world: WorldContext,
  account: AccountProfile,
  n: number,
  column: NotificationColumn,
): Work<Column> {
  const numbers = column === 'log' || column === 'errorCode' ? new Uint32Array(n) : null;
  const texts: string[] = [];
  for (let j = 0; j < n; j++) {
    const r = generateNotification(world, account, j);
    if (numbers !== null) numbers[j] = column === 'log' ? r.log : r.errorCode;
    else texts.push(column === 'callSid' ? r.callSid : r.messageText);
    if (j % SLICE === 0) yield { step: `Reading each notification's ${column}`, done: j, total: n };
  }
  return numbers !== null ? { n, words: [numbers] } : rankStrings(texts);
}

/** The notifications of an account: made on read, each through its call; found by sid in O(1). */
export const NOTIFICATION_KIND: TableKind<NotificationRecord, NotificationColumn> = {
  record: generateNotification,
  index: (_world, account, sid, count) => seededNotificationIndex(account, sid, count),
  values: {
    created: (r) => r.createdSec,
    log: (r) => r.log,
    errorCode: (r) => r.errorCode,
    callSid: (r) => collationKey(r.callSid),
    messageText: (r) => collationKey(r.messageText),
  },
  column: notificationColumn,
};
