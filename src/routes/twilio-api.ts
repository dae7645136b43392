import type { ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler } from 'express';
import { authedAccount, requireAccount, requireLogin } from '../auth';
import type { CallbackDesk } from '../callbacks/callback-desk';
import { ApiError, messages } from '../errors';
import { ENVELOPES } from '../format/envelopes';
import { twilioAccountJson, twilioAccountStatus } from '../format/twilio/account';
import { twilioCallJson } from '../format/twilio/call';
import { twilioEventJson } from '../format/twilio/event';
import { twilioSid } from '../format/twilio/fields';
import { twilioNotificationJson } from '../format/twilio/notification';
import { twilioCallRecordingJson, twilioRecordingJson } from '../format/twilio/recording';
import { twilioAccountsUri, twilioCallUri, twilioListUri, twilioRoutes } from '../format/uris';
import { statusOf } from '../generators/account-spec';
import type { ListName } from '../generators/list-names';
import { accountCreatedSec } from '../generators/timeline';
import { methodNotAllowed } from '../http/error-handler';
import { exchangeOf } from '../http/exchange';
import type { FilterDefs } from '../query/filters';
import { keysetWindow } from '../query/paging';
import {
  TWILIO_ACCOUNT_FILTERS,
  TWILIO_CALL_RECORDING_FILTERS,
  TWILIO_NOTIFICATION_FILTERS,
} from '../query/twilio-filters';
import { parseTwilioQuery, TWILIO_BAD_TOKEN } from '../query/twilio-query';
import { findTwilioRecord } from '../store/twilio-sids';
import type { Account, World } from '../store/world';
import { mountAudio } from './audio';
import { formText, readFormBody } from './create-call';
import type { ListSettings } from './list-settings';
import { between, sendBody } from './send-page';
import { serveTwilioList, TWILIO_LISTS, type TwilioList } from './twilio-lists';

const ALLOW = 'GET, HEAD';

/** Twilio's writes, taken on from the routes (admin/twilio-writes.ts: through the write log). */
export interface TwilioWrites {
  create(account: Account, form: Record<string, string>, path: string, res: ServerResponse): Promise<void>;
  update(
    account: Account,
    callSid: string,
    form: Record<string, string>,
    path: string,
    res: ServerResponse,
  ): Promise<void>;
  deleteCall(account: Account, callSid: string, path: string, res: ServerResponse): Promise<void>;
  deleteRecording(account: Account, recordingSid: string, path: string, res: ServerResponse): Promise<void>;
}

/**
 * A form's values as Twilio reads them: each name's first value, and every value of a name it
 * takes a list of, joined by spaces (`StatusCallbackEvent=ringing&StatusCallbackEvent=answered`).
 * @example twilioForm('To=%2B1&StatusCallbackEvent=ringing&StatusCallbackEvent=completed') // { To: '+1', StatusCallbackEvent: 'ringing completed' }
 */
export function twilioForm(text: string): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (!Object.hasOwn(form, name)) form[name] = value;
    else if (name === 'StatusCallbackEvent' || name === 'RecordingStatusCallbackEvent') form[name] += ` ${value}`;
  }
  return form;
}

/**
 * A short list paged as Twilio pages: `PageSize`, and the cursor as a place in `items` (a
 * call's recordings and notifications, an account's subaccounts: a few each). A cursor naming
 * none of them is a 400, code 21481.
 */
function sendArrayPage<R>(
  req: Request,
  res: Parameters<RequestHandler>[1],
  list: { key: string; sidPrefix: string; path: string; filters?: FilterDefs<R> },
  all: readonly { sid: string; json: string; record: R }[],
): void {
  const { key, sidPrefix, path } = list;
  const query = parseTwilioQuery(exchangeOf(req).query, list.filters ?? {}, sidPrefix);
  const filter = query.filter;
  const items = filter === null ? all : all.filter((i) => filter.test(i.record));
  let offset = 0;
  let end = Math.min(items.length, query.pageSize);
  if (query.cursor !== null) {
    const { sid, before } = query.cursor;
    const at = items.findIndex((i) => i.sid === sid);
    if (at < 0)
      throw new ApiError(400, messages.twilioPageToken(query.pageToken ?? '', sidPrefix), {}, TWILIO_BAD_TOKEN);
    offset = before ? Math.max(0, at - query.pageSize) : at + 1;
    end = before ? at : Math.min(items.length, offset + query.pageSize);
  }
  const count = end - offset;
  const window = keysetWindow(query.page, query.pageSize, items.length, offset, count);
  const page = items.slice(offset, end);
  const { head, tail } = ENVELOPES.twilio({
    key: key as ListName,
    window,
    uri: path,
    sidAt: (k) => (page[k] as { sid: string }).sid,
    params: query.params,
    ...(query.pageToken === undefined ? {} : { pageToken: query.pageToken }),
  });
  sendBody(res, 'json', head + page.map((i) => i.json).join(between('json')) + tail);
}

/**
 * Twilio's Voice API (`--dialect twilio`) under `/2010-04-01`: the calls and recordings lists
 * with their filters and cursors, a call, a recording and its audio, a call's recordings and
 * notifications, the account and its subaccounts. Logins are `AccountSid:AuthToken`; a
 * parent's read its subaccounts, a subaccount's never reach its parent.
 */
export function mountTwilio(
  app: Express,
  world: World,
  settings: ListSettings,
  callbacks: CallbackDesk,
  writes: TwilioWrites,
): void {
  const auth = requireAccount(world, settings.dialect);
  const r = twilioRoutes();
  const notFound = (req: Request) => new ApiError(404, messages.twilioNotFound(req.path));
  const idOf = (req: Request, account: Account, list: ListName, param: string) => {
    const id = findTwilioRecord(account, list, String(req.params[param]));
    if (id === undefined) throw notFound(req);
    return id;
  };

  const mountList = <R extends { sid: string }, F>(
    path: string,
    list: TwilioList<R, F>,
    segment: string,
    allow: string,
  ) => {
    app.get(path, ...auth, (req, res) => {
      const account = authedAccount(res);
      return serveTwilioList(list, settings, req, res, account, twilioListUri(account.profile.sid, segment));
    });
    app.all(path, methodNotAllowed(allow));
  };
  // A create answers 201 and the call, queued (before the list's 405).
  app.post(r.calls, ...auth, readFormBody(), (req, res) =>
    writes.create(authedAccount(res), twilioForm(formText(req)), req.path, res),
  );
  mountList(r.calls, TWILIO_LISTS.calls, 'Calls', `${ALLOW}, POST`);
  mountList(r.recordings, TWILIO_LISTS.recordings, 'Recordings', ALLOW);

  app.get(r.call, ...auth, (req, res) => {
    const account = authedAccount(res);
    const call = account.calls.get(idOf(req, account, 'calls', 'callSid'));
    sendBody(res, 'json', twilioCallJson(call, account.profile.sid));
  });
  // An update (Status, a new Url) answers 200 and the call; a delete 204.
  app.post(r.call, ...auth, readFormBody(), (req, res) =>
    writes.update(authedAccount(res), String(req.params['callSid']), twilioForm(formText(req)), req.path, res),
  );
  app.delete(r.call, ...auth, (req, res) =>
    writes.deleteCall(authedAccount(res), String(req.params['callSid']), req.path, res),
  );
  app.all(r.call, methodNotAllowed(`${ALLOW}, POST, DELETE`));

  app.get(r.callRecordings, ...auth, (req, res) => {
    const account = authedAccount(res);
    const callId = idOf(req, account, 'calls', 'callSid');
    const sid = account.profile.sid;
    const callSid = twilioSid(account.calls.get(callId).sid);
    // Newest first, as the account's list.
    const recs = account
      .recordingsOfCall(callId)
      .map((id) => account.recordings.get(id))
      .sort((a, b) => b.createdSec - a.createdSec || (a.sid < b.sid ? -1 : 1));
    const items = recs.map((rec) => ({ sid: rec.sid, json: twilioCallRecordingJson(rec, sid), record: rec }));
    const path = twilioCallUri(sid, callSid, 'Recordings');
    sendArrayPage(
      req,
      res,
      { key: 'recordings', sidPrefix: 'RE', path, filters: TWILIO_CALL_RECORDING_FILTERS },
      items,
    );
  });
  app.all(r.callRecordings, methodNotAllowed(ALLOW));

  app.get(r.callNotifications, ...auth, (req, res) => {
    const account = authedAccount(res);
    const callId = idOf(req, account, 'calls', 'callSid');
    const sid = account.profile.sid;
    const callSid = twilioSid(account.calls.get(callId).sid);
    const items = account.notificationsOfCall(callId).map((id) => {
      const n = account.tables.notifications.get(id);
      return { sid: n.sid, json: twilioNotificationJson(n, sid), record: n };
    });
    const path = twilioCallUri(sid, callSid, 'Notifications');
    sendArrayPage(
      req,
      res,
      { key: 'notifications', sidPrefix: 'NO', path, filters: TWILIO_NOTIFICATION_FILTERS },
      items,
    );
  });
  app.all(r.callNotifications, methodNotAllowed(ALLOW));

  // The callbacks made for the call, oldest first, from the callbacks journal.
  app.get(r.callEvents, ...auth, (req, res) => {
    const account = authedAccount(res);
    const call = account.calls.get(idOf(req, account, 'calls', 'callSid'));
    const sid = account.profile.sid;
    const items = callbacks.entries({ account: sid, call: call.sid }).map((e) => ({
      // Events have no sid: a cursor names one by its place in the journal.
      sid: `EV${e.seq.toString(16).padStart(32, '0')}`,
      json: twilioEventJson(e),
      record: e,
    }));
    sendArrayPage(
      req,
      res,
      { key: 'events', sidPrefix: 'EV', path: twilioCallUri(sid, twilioSid(call.sid), 'Events') },
      items,
    );
  });
  app.all(r.callEvents, methodNotAllowed(ALLOW));

  app.get(r.recording, ...auth, (req, res) => {
    const account = authedAccount(res);
    const rec = account.recordings.get(idOf(req, account, 'recordings', 'recordingSid'));
    sendBody(res, 'json', twilioRecordingJson(rec, account.profile.sid, settings.fileBase));
  });
  app.delete(r.recording, ...auth, (req, res) =>
    writes.deleteRecording(authedAccount(res), String(req.params['recordingSid']), req.path, res),
  );
  app.all(r.recording, methodNotAllowed(`${ALLOW}, DELETE`));
  // Before the audio's routes, whose sid would take `.mp3` in.
  app.get(r.recordingMp3, () => {
    throw new ApiError(406, messages.twilioMp3);
  });
  // After the `.json` route: a sid with no suffix is the audio, as Twilio's media_url names it.
  mountAudio(app, world, [r.recordingWav, r.recordingMedia]);

  const accountJson = (a: Account) =>
    twilioAccountJson({
      sid: a.profile.sid,
      token: a.profile.token,
      friendlyName: a.profile.friendlyName,
      createdSec: accountCreatedSec(a.context, a.profile, a.spec.calls),
      ownerSid: a.spec.parent ?? a.profile.sid,
      status: statusOf(a.spec),
    });
  app.get(r.account, ...auth, (_req, res) => sendBody(res, 'json', accountJson(authedAccount(res))));
  app.all(r.account, methodNotAllowed(ALLOW));
  // The login's own account and every subaccount under it, as Twilio lists them.
  app.get(r.accounts, ...requireLogin(world, settings.dialect), (req, res) => {
    const login = authedAccount(res);
    const family = [login, ...world.descendants(login.profile.sid)];
    const items = family.map((a) => ({
      sid: a.profile.sid,
      json: accountJson(a),
      record: { friendlyName: a.profile.friendlyName, status: twilioAccountStatus(statusOf(a.spec)) },
    }));
    const list = { key: 'accounts', sidPrefix: 'AC', path: twilioAccountsUri(), filters: TWILIO_ACCOUNT_FILTERS };
    sendArrayPage(req, res, list, items);
  });
  app.all(r.accounts, methodNotAllowed(ALLOW));
}
