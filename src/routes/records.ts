import type { ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler } from 'express';
import { authedAccount } from '../auth';
import { ApiError, messages } from '../errors';
import { ENVELOPES } from '../format/envelopes';
import { LIST_WIRES, type ListWire } from '../format/list-wire';
import { type ApiRoutes, callNotificationsListUri } from '../format/uris';
import { xmlDocument, xmlWrapped } from '../format/xml';
import { methodNotAllowed } from '../http/error-handler';
import { exchangeOf } from '../http/exchange';
import { parseListQuery } from '../query/list-query';
import { pageWindow } from '../query/paging';
import type { Account, World } from '../store/world';
import { itemText, negotiate } from './list-page';
import type { ListSettings } from './list-settings';
import { between, sendBody, type WireFormat } from './send-page';

const ALLOW = 'GET, HEAD';

/** Takes a recording delete on from the API route: the write log's side (admin/api-deletes.ts). */
export type RecordingDelete = (account: Account, recordingSid: string, res: ServerResponse) => Promise<void>;

/**
 * The id of the record a path names in the authenticated account. A sid of another account's
 * record is a 403, as production's `secure()` checks the record's own account; an unknown sid
 * is a 404, and so is one this account had and deleted, though the parent or a sibling of a
 * sandbox still has it: in production that record is gone.
 */
function recordOf(
  world: World,
  account: Account,
  sid: string,
  table: (a: Account) => { find(sid: string): number | undefined; known(sid: string): boolean },
  missing: (accountSid: string, sid: string) => string,
): number {
  const id = table(account).find(sid);
  if (id !== undefined) return id;
  if (table(account).known(sid)) throw new ApiError(404, missing(account.profile.sid, sid));
  const owner = world.accounts().find((a) => a !== account && table(a).find(sid) !== undefined);
  if (owner !== undefined) throw new ApiError(403, messages.forbiddenRecord(sid));
  throw new ApiError(404, missing(account.profile.sid, sid));
}

/** A single record's whole answer: the list's item alone, or its element under the root in XML. */
function recordText<R>(wire: ListWire<R>, format: WireFormat, record: R, accountSid: string, fileBase: string): string {
  return format === 'xml'
    ? xmlDocument(wire.xmlItem(record, accountSid, fileBase))
    : wire.item(record, accountSid, fileBase);
}

/**
 * Single records and a call's sub-lists, with the lists' auth and negotiation:
 * - a call, and a recording, in the list's item shape;
 * - a call's recordings as a bare JSON array, as production answers it (no envelope), oldest first
 *   (in XML, a `<Recordings>` list);
 * - a notification, in the list's item shape;
 * - a call's notifications: a paged envelope of the notifications about it (one at most). Production
 *   has no such endpoint; the spec prints its path in `subresource_uris`, and this answers it.
 */
export function mountRecords(
  app: Express,
  world: World,
  auth: RequestHandler[],
  settings: ListSettings,
  routes: ApiRoutes,
  deleteRecording?: RecordingDelete,
): void {
  const callOf = (req: Request, account: Account) =>
    recordOf(world, account, String(req.params['callSid']), (a) => a.calls, messages.noCall);
  app.get(routes.callRecordings, ...auth, (req, res) => {
    const format = negotiate(req, settings.dialect);
    const account = authedAccount(res);
    const ids = account.recordingsOfCall(callOf(req, account));
    const recs = ids
      .map((id) => account.recordings.get(id))
      .sort((a, b) => a.createdSec - b.createdSec || (a.sid < b.sid ? -1 : 1));
    const items = recs.map((r) => itemText(LIST_WIRES.recordings, format, r, account.profile.sid, settings.fileBase));
    const { head, tail } =
      format === 'xml'
        ? xmlWrapped(LIST_WIRES.recordings.xml.element, [], recs.length === 0)
        : { head: '[', tail: ']' };
    sendBody(res, format, head + items.join(between(format)) + tail);
  });
  app.all(routes.callRecordings, methodNotAllowed(ALLOW));

  app.get(routes.callNotifications, ...auth, (req, res) => {
    const format = negotiate(req, settings.dialect);
    const account = authedAccount(res);
    const callId = callOf(req, account);
    const call = account.calls.get(callId);
    const ids = account.notificationsOfCall(callId);
    const query = parseListQuery(exchangeOf(req).query, { sort: {}, filters: {} }, settings.maxPageSize ?? undefined);
    const window = pageWindow(settings.paging, ids.length, query.page, query.pageSize);
    if ('beyond' in window) throw new ApiError(400, messages.pageBeyondLast(query.page, window.beyond));
    const items = ids
      .slice(window.offset, window.offset + window.count)
      .map((id) => account.tables.notifications.get(id));
    const { head, tail } = ENVELOPES[settings.dialect.name]({
      key: 'notifications',
      window,
      uri: callNotificationsListUri(account.profile.sid, call.sid),
      sidAt: (k) => (items[k] as { sid: string }).sid,
      ...(format === 'xml' ? { xml: LIST_WIRES.notifications.xml } : {}),
    });
    const body = items.map((n) =>
      itemText(LIST_WIRES.notifications, format, n, account.profile.sid, settings.fileBase),
    );
    sendBody(res, format, head + body.join(between(format)) + tail);
  });
  app.all(routes.callNotifications, methodNotAllowed(ALLOW));

  app.get(routes.call, ...auth, (req, res) => {
    const format = negotiate(req, settings.dialect);
    const account = authedAccount(res);
    const call = account.calls.get(callOf(req, account));
    sendBody(res, format, recordText(LIST_WIRES.calls, format, call, account.profile.sid, settings.fileBase));
  });
  app.all(routes.call, methodNotAllowed(ALLOW));

  app.get(routes.notification, ...auth, (req, res) => {
    const format = negotiate(req, settings.dialect);
    const account = authedAccount(res);
    const table = (a: Account) => a.tables.notifications;
    const id = recordOf(world, account, String(req.params['notificationSid']), table, messages.noNotification);
    const n = account.tables.notifications.get(id);
    sendBody(res, format, recordText(LIST_WIRES.notifications, format, n, account.profile.sid, settings.fileBase));
  });
  app.all(routes.notification, methodNotAllowed(ALLOW));

  app.get(routes.recording, ...auth, (req, res) => {
    const format = negotiate(req, settings.dialect);
    const account = authedAccount(res);
    const id = recordOf(world, account, String(req.params['recordingSid']), (a) => a.recordings, messages.noRecording);
    const rec = account.recordings.get(id);
    sendBody(res, format, recordText(LIST_WIRES.recordings, format, rec, account.profile.sid, settings.fileBase));
  });
  // Production deletes a recording through the API (RecordingsEndpoint.deleteRecording).
  if (deleteRecording !== undefined) {
    app.delete(routes.recording, ...auth, async (req, res) => {
      const account = authedAccount(res);
      const sid = String(req.params['recordingSid']);
      recordOf(world, account, sid, (a) => a.recordings, messages.noRecording);
      await deleteRecording(account, sid, res);
    });
  }
  app.all(routes.recording, methodNotAllowed(deleteRecording === undefined ? ALLOW : `${ALLOW}, DELETE`));
}
