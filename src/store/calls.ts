import type { AccountProfile } from '../generators/account';
import {
  CALL_DIRECTIONS,
  type CallRecord,
  type CallSortFields,
  type CallStage,
  callSortFields,
  generateCall,
  seededCallIndex,
} from '../generators/call';
import { STORED_STATUSES, shownDuration, shownStatus, storedAtClock, storedStatus } from '../generators/call-life';
import { blockLayout, CALLS_PER_BLOCK } from '../generators/recording-layout';
import { type Column, packAscii, rankStrings, SLICE, type Work } from './order';
import type { TableKind } from './table';

/** The columns a call list sorts by, besides `created`. */
export type CallColumn = 'from' | 'to' | 'direction' | 'status' | 'duration' | 'price';

/** Rank of each value in code-unit order, so that comparing ranks compares the strings. */
const enumRanks = (values: readonly string[]) => new Map([...values].sort().map((v, i) => [v, i] as const));
const DIRECTION_RANK = enumRanks(CALL_DIRECTIONS);
const STATUS_RANK = enumRanks(STORED_STATUSES);

/** How far into each call's stream a column's key is drawn. */
const STAGE_OF: Record<CallColumn, CallStage> = {
  direction: 'direction',
  status: 'status',
  duration: 'duration',
  from: 'parties',
  to: 'parties',
  price: 'price',
};

/** A column's key of a call, as one number; the string columns are packed instead. */
const NUMBER_OF: Partial<Record<CallColumn, (f: CallSortFields) => number>> = {
  direction: (f) => DIRECTION_RANK.get(f.direction) as number,
  // Production sorts the text it stores: `BUSY` before `busy` before `completed`.
  status: (f) => STATUS_RANK.get(storedStatus(f.direction, f.status)) as number,
  // A duration production never wrote is NULL, which MariaDB sorts before every number.
  duration: (f) => (f.duration === null ? 0 : f.duration + 1),
  // Production sorts by `cast(price as int)`.
  price: (f) => f.priceInt,
};

/** Words a packed From or To takes: 16 ASCII units, past the longest a seeded party has (13). */
const PARTY_WORDS = 4;

/** The sort fields of the seeded calls in order, each drawn only as far as `stage`, in slices. */
function* eachCall(
  account: AccountProfile,
  n: number,
  stage: CallStage,
  step: string,
  use: (f: CallSortFields, i: number) => void,
): Work<void> {
  for (let block = 0; block * CALLS_PER_BLOCK < n; block++) {
    // A block's recording layout decides which of its calls were answered; read it once.
    const layout = blockLayout(account, block);
    const end = Math.min(n, (block + 1) * CALLS_PER_BLOCK);
    for (let i = block * CALLS_PER_BLOCK; i < end; i++) use(callSortFields(account, i, layout, stage), i);
    if ((block * CALLS_PER_BLOCK) % SLICE === 0) yield { step, done: end, total: n };
  }
}

/**
 * One key column of `n` seeded calls, drawing only the stream prefix it needs (no whole calls,
 * no caller names). From and To are packed four characters a word; a value that does not pack
 * (none the seed makes) sends the column to exact ranking of the strings instead.
 */
function* callColumn(account: AccountProfile, n: number, column: CallColumn): Work<Column> {
  const stage = STAGE_OF[column];
  const step = `Reading each call's ${column}`;
  const number = NUMBER_OF[column];
  if (number !== undefined) {
    const keys = new Uint32Array(n);
    yield* eachCall(account, n, stage, step, (f, i) => {
      keys[i] = number(f);
    });
    return { n, words: [keys] };
  }
  const party = column === 'from' ? (f: CallSortFields) => f.from : (f: CallSortFields) => f.to;
  const words = Array.from({ length: PARTY_WORDS }, () => new Uint32Array(n));
  let packed = true;
  yield* eachCall(account, n, stage, step, (f, i) => {
    if (packed) packed = packAscii(party(f), words, i);
  });
  if (packed) return { n, words };
  const values = new Array<string>(n);
  yield* eachCall(account, n, stage, step, (f, i) => {
    values[i] = party(f);
  });
  return rankStrings(values);
}

/** The calls of an account: made on read from the seed, found by sid in O(1). */
export const CALL_KIND: TableKind<CallRecord, CallColumn> = {
  record: generateCall,
  index: seededCallIndex,
  values: {
    created: (c) => c.startSec,
    from: (c) => c.from,
    to: (c) => c.to,
    direction: (c) => c.direction,
    status: shownStatus,
    duration: (c) => shownDuration(c) ?? -1,
    // Production sorts by `cast(price as int)`.
    price: (c) => c.priceInt,
  },
  column: (_world, account, n, column) => callColumn(account, n, column),
  atClock: storedAtClock,
  movesWithClock: (c) => c.lifecycle !== undefined,
};
