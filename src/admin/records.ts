import { ApiError, messages, problems, ValidationError } from '../errors';
import { callJson } from '../format/call';
import { recordingJson } from '../format/recording';
import { fileBaseOf } from '../format/uris';
import { storedAtClock } from '../generators/call-life';
import { runSliced } from '../http/slices';
import { asList, asObject, checkKeys } from '../input/fields';
import type { Work } from '../store/order';
import type { Account } from '../store/world';
import { callFromInput } from './call-input';
import { type AdminContext, type AdminHandler, accountOf } from './context';
import { recordingFromInput } from './recording-input';
import { type AdminReply, type AdminRequest, created, ok } from './reply';

/** Records built between turns of the event loop: a 1 MB body holds some 340,000 `{}`. */
const BUILD_SLICE = 256;
/** Records echoed in one JSON body at most; a larger batch's echo is streamed a chunk at a time. */
const ECHO_IN_ONE = 1000;

/**
 * One record or an array of them, each built and checked (with the insert number it will take)
 * before any is added: a batch is all or nothing. Built in slices, between other requests.
 */
function* buildBatch<R extends { sid: string }>(
  raws: readonly unknown[],
  many: boolean,
  build: (raw: unknown, at: string, k: number) => R,
): Work<R[]> {
  const sids = new Set<string>();
  const records: R[] = [];
  for (let i = 0; i < raws.length; i++) {
    const at = many ? `body[${i}]` : 'body';
    const rec = build(raws[i], at, i);
    if (sids.has(rec.sid)) throw new ValidationError(`${at}.sid`, problems.taken(rec.sid));
    sids.add(rec.sid);
    records.push(rec);
    if (i % BUILD_SLICE === BUILD_SLICE - 1) yield;
  }
  return records;
}

/**
 * Reads, builds and inserts a batch. The records are built against the account as it was when
 * the batch began (their insert numbers, the calls they name): should a write to the account land
 * meanwhile, they are built again, and after three tries the batch is refused (409) unchanged.
 * Answers the records as the API shows them: a large batch streamed, never held whole.
 */
async function insertBatch<R extends { sid: string }>(
  ctx: AdminContext,
  req: AdminRequest,
  table: (a: Account) => { nextInsert: number; writes: number },
  build: (account: Account, raw: unknown, at: string, k: number) => R,
  insert: (account: Account, records: readonly R[]) => void,
  show: (account: Account, rec: R) => string,
): Promise<AdminReply> {
  const body = req.body();
  const many = Array.isArray(body);
  const raws: unknown[] = many ? body : [body];
  if (raws.length === 0) throw new ValidationError('body', problems.emptyArray);
  for (let attempt = 0; attempt < 3; attempt++) {
    const account = accountOf(ctx, req);
    const { nextInsert: first, writes } = table(account);
    const records = await runSliced(buildBatch(raws, many, (raw, at, k) => build(account, raw, at, first + k)));
    if (ctx.world.account(account.profile.sid) !== account || table(account).writes !== writes) continue;
    insert(account, records);
    if (!many) return created(JSON.parse(show(account, records[0] as R)) as unknown);
    if (records.length <= ECHO_IN_ONE) return created(records.map((rec) => JSON.parse(show(account, rec)) as unknown));
    return { status: 201, chunks: echoed(records, (rec) => show(account, rec)) };
  }
  throw new ApiError(409, messages.insertRaced);
}

/** The JSON array of the records as shown, a few hundred a chunk. */
function* echoed<R>(records: readonly R[], show: (rec: R) => string): Generator<string> {
  for (let k = 0; k < records.length; k += BUILD_SLICE) {
    let chunk = k === 0 ? '[' : ',';
    const stop = Math.min(records.length, k + BUILD_SLICE);
    for (let i = k; i < stop; i++) chunk += (i === k ? '' : ',') + show(records[i] as R);
    yield stop === records.length ? `${chunk}]` : chunk;
  }
}

/** `POST /__admin/accounts/{sid}/calls`: a call or an array of calls. */
export const insertCalls: AdminHandler = (ctx, req) =>
  insertBatch(
    ctx,
    req,
    (a) => a.calls,
    (account, raw, at, k) => callFromInput(account, raw, at, k),
    (account, records) => ctx.world.insertCalls(account, records),
    (account, call) => callJson(storedAtClock(call, ctx.world.nowMs), account.profile.sid),
  );

/** `POST /__admin/accounts/{sid}/recordings`: a recording or an array of them. */
export const insertRecordings: AdminHandler = (ctx, req) =>
  insertBatch(
    ctx,
    req,
    // A recording names a call: a write to the calls (a deletion) must rebuild the batch too.
    (a) => ({ nextInsert: a.recordings.nextInsert, writes: a.recordings.writes + a.calls.writes }),
    (account, raw, at, k) => recordingFromInput(account, raw, at, k),
    (account, records) => ctx.world.insertRecordings(account, records),
    (account, rec) => recordingJson(rec, account.profile.sid, fileBaseOf(ctx.publicUrl, ctx.dialect)),
  );

/** `DELETE /__admin/accounts/{sid}/calls/{CallSid}`: the call and its recordings. */
export const deleteCall: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const sid = req.params['callSid'] ?? '';
  const id = account.calls.find(sid);
  if (id === undefined) throw new ApiError(404, messages.noCall(account.profile.sid, sid));
  return ok({ deleted: sid, recordings_deleted: ctx.world.deleteCall(account, id) });
};

export const deleteRecording: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const sid = req.params['recordingSid'] ?? '';
  const id = account.recordings.find(sid);
  if (id === undefined) throw new ApiError(404, messages.noRecording(account.profile.sid, sid));
  ctx.world.deleteRecording(account, id);
  return ok({ deleted: sid });
};

/** Calls one recording-counts request may name: a page of the largest size with room to spare. */
export const COUNTED_CALLS = 10_000;

/**
 * `POST /__admin/accounts/{sid}/recording-counts` with `{"calls":["CA…",…]}`: how many live
 * recordings each call has (`null` for a sid the account has no call of), in one request for a
 * whole page: the inspector marks the calls of a list that have recordings. A query in a body,
 * as WireMock's `POST /__admin/requests/find`: a thousand sids do not fit in a URL.
 */
export const recordingCounts: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const body = asObject(req.body(), 'body');
  checkKeys(body, 'body', ['calls']);
  const sids = asList(body['calls'], 'body.calls');
  if (sids.length > COUNTED_CALLS)
    throw new ValidationError('body.calls', problems.tooMany(COUNTED_CALLS, sids.length));
  const found: number[] = [];
  const named = sids.map((sid, i) => {
    if (typeof sid !== 'string') throw new ValidationError(`body.calls[${i}]`, problems.string('a call sid', sid));
    const id = account.calls.find(sid);
    if (id !== undefined) found.push(id);
    return [sid, id] as const;
  });
  const counts = account.recordingsOfCalls(found);
  let k = 0;
  const answer: Record<string, number | null> = {};
  for (const [sid, id] of named) answer[sid] = id === undefined ? null : (counts[k++] as number[]).length;
  return ok({ counts: answer });
};
