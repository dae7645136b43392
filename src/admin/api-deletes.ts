import type { ServerResponse } from 'node:http';
import { ApiError, messages } from '../errors';
import { VERSION_HEADER } from '../http/exchange';
import type { Account } from '../store/world';
import type { AdminHandler } from './context';
import type { WriteLog } from './write-log';

/** The write log's key of the API's recording delete: not an admin path, so no client can send it to /__admin. */
export const DELETE_RECORDING_ROUTE = 'DELETE /Accounts/:sid/Recordings/:recordingSid';

/**
 * `DELETE …/Recordings/{RecordingSid}` as a write (`RecordingsEndpoint.deleteRecording`): the
 * recording gone, an empty 200, as production answers; a recording the account no longer has
 * is a 404. The API route has checked the login, its role and the account before.
 */
export const deleteApiRecording: AdminHandler = (ctx, req) => {
  const account = ctx.world.account(req.params['sid'] ?? '');
  if (account === undefined) throw new ApiError(404, messages.noAccount(req.params['sid'] ?? ''));
  const sid = req.params['recordingSid'] ?? '';
  const id = account.recordings.find(sid);
  if (id === undefined) throw new ApiError(404, messages.noRecording(account.profile.sid, sid));
  ctx.world.deleteRecording(account, id);
  return { status: 200, bytes: Buffer.alloc(0), type: 'application/json' };
};

/** Takes a recording delete the API route has checked: through the write log, whose reply is the answer. */
export function submitRecordingDelete(log: WriteLog) {
  return async (account: Account, recordingSid: string, res: ServerResponse): Promise<void> => {
    const params = { sid: account.profile.sid, recordingSid };
    const { version, reply } = await log.write(DELETE_RECORDING_ROUTE, params, '', undefined);
    if (!('bytes' in reply)) throw new Error('a recording delete answers bytes');
    res.setHeader(VERSION_HEADER, version);
    res.statusCode = reply.status;
    res.end();
  };
}
