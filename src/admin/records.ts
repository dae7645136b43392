import { ApiError, messages, problems, ValidationError } from '../errors';
import { callJson } from '../format/call';
import { recordingJson } from '../format/recording';
import { fileBaseOf } from '../format/uris';
import { callAtClock } from '../generators/call';
import { callFromInput } from './call-input';
import { type AdminHandler, type AdminRequest, accountOf, created, ok } from './context';
import { recordingFromInput } from './recording-input';

/**
 * One record or an array of them, each built and checked (with the insert number it will take)
 * before any is added: a batch is all or nothing. Shown back as the API shows them.
 */
function readBatch<R extends { sid: string }>(req: AdminRequest, build: (raw: unknown, at: string, k: number) => R) {
  const body = req.body();
  const many = Array.isArray(body);
  const raws: unknown[] = many ? body : [body];
  if (raws.length === 0) throw new ValidationError('body', problems.emptyArray);
  const sids = new Set<string>();
  const records = raws.map((raw, i) => {
    const at = many ? `body[${i}]` : 'body';
    const rec = build(raw, at, i);
    if (sids.has(rec.sid)) throw new ValidationError(`${at}.sid`, problems.taken(rec.sid));
    sids.add(rec.sid);
    return rec;
  });
  const show = (json: (rec: R) => string) => {
    const shown = records.map((rec) => JSON.parse(json(rec)) as unknown);
    return created(many ? shown : shown[0]);
  };
  return { records, show };
}

/** `POST /__admin/accounts/{sid}/calls`: a call or an array of calls. */
export const insertCalls: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const first = account.calls.nextInsert;
  const batch = readBatch(req, (raw, at, k) => callFromInput(account, raw, at, first + k));
  ctx.world.insertCalls(account, batch.records);
  return batch.show((call) => callJson(callAtClock(call, ctx.world.nowMs), account.profile.sid));
};

/** `POST /__admin/accounts/{sid}/recordings`: a recording or an array of them. */
export const insertRecordings: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const first = account.recordings.nextInsert;
  const batch = readBatch(req, (raw, at, k) => recordingFromInput(account, raw, at, first + k));
  ctx.world.insertRecordings(account, batch.records);
  return batch.show((rec) => recordingJson(rec, account.profile.sid, fileBaseOf(ctx.publicUrl, ctx.dialect)));
};

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
