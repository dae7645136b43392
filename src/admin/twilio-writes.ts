import type { ServerResponse } from 'node:http';
import { callbackHostAllowed, javaUriParses } from '../callbacks/callback-desk';
import { ApiError, messages, problems } from '../errors';
import { twilioCallJson } from '../format/twilio/call';
import { callAtClock, storedAtClock } from '../generators/call-life';
import type { CallRecord, RecordingSubscription } from '../generators/call-record';
import {
  CALLBACK_EVENTS,
  type CallbackEvent,
  type CallRequest,
  dueCallbacks,
  faultedCallbacks,
} from '../generators/created-call';
import { VERSION_HEADER } from '../http/exchange';
import { TWILIO_BAD_PARAMETER } from '../query/twilio-filters';
import { findTwilioRecord } from '../store/twilio-sids';
import type { Account } from '../store/world';
import { type AdminHandler, accountOf } from './context';
import { type CreateForm, insertCreated } from './created-calls';
import { recordEnded } from './recorded-calls';
import type { WriteLog } from './write-log';

/** The write log's keys of Twilio's writes: not admin paths, so no client can send them to /__admin. */
export const TWILIO_ROUTES = {
  create: 'POST /2010-04-01/Accounts/:sid/Calls',
  update: 'POST /2010-04-01/Accounts/:sid/Calls/:callSid',
  deleteCall: 'DELETE /2010-04-01/Accounts/:sid/Calls/:callSid',
  deleteRecording: 'DELETE /2010-04-01/Accounts/:sid/Recordings/:recordingSid',
} as const;

/** Twilio's codes for a create's missing parameters. */
const CODES = { to: 21201, from: 21213, url: 21205 } as const;

const bad = (message: string, code: number = TWILIO_BAD_PARAMETER) => new ApiError(400, message, {}, code);

/**
 * Reads a create as Twilio does: `To` and `From` given, and one of `Url`, `Twiml` or
 * `ApplicationSid` (the call's instructions, which the emulator does not run); `Timeout` 1 to
 * 600 (default 60); a `StatusCallback` with its method and `StatusCallbackEvent` (space-separated
 * as the route joins repeated values; `completed` alone when absent). A callback to a host other
 * than loopback and `--callback-hosts` is refused, as in every dialect.
 */
export function readTwilioCreate(form: CreateForm, allowedHosts: readonly string[]): CallRequest {
  const to = form['To']?.trim() ?? '';
  const from = form['From']?.trim() ?? '';
  if (to === '') throw bad(messages.twilioCreateTo, CODES.to);
  if (from === '') throw bad(messages.twilioCreateFrom, CODES.from);
  if (['Url', 'Twiml', 'ApplicationSid'].every((n) => (form[n] ?? '') === ''))
    throw bad(messages.twilioCreateUrl, CODES.url);
  const record = form['Record'];
  if (record !== undefined && record !== 'true' && record !== 'false')
    throw bad(messages.twilioBoolean('Record', record));
  let timeoutSec = 60;
  const timeout = form['Timeout'];
  if (timeout !== undefined) {
    if (!/^\d{1,3}$/.test(timeout) || Number(timeout) < 1 || Number(timeout) > 600) {
      throw bad(messages.twilioEnum('Timeout', ['an integer from 1 to 600'], timeout));
    }
    timeoutSec = Number(timeout);
  }
  const status = readCallback(form, 'StatusCallback', CALLBACK_EVENTS, ['completed'], allowedHosts);
  const callback =
    status === null ? null : { ...status, events: CALLBACK_EVENTS.filter((e) => status.events.includes(e)) };
  if (record !== 'true') return { from, to, timeoutSec, callback };
  return { from, to, timeoutSec, callback, record: { callback: readRecordingCallback(form, allowedHosts) } };
}

/** The recording events a create may ask to be called back on (`in-progress` is not sent yet). */
const RECORDING_EVENTS = ['completed', 'absent'] as const;

/** `RecordingStatusCallback` and its method and events: `completed` by default, `absent` for a call that ended unanswered. */
function readRecordingCallback(form: CreateForm, allowedHosts: readonly string[]): RecordingSubscription | null {
  // `in-progress`, sent by Twilio as the recording starts, is refused with a 400 that says so.
  if ((form['RecordingStatusCallbackEvent'] ?? '').split(/[\s,]+/).includes('in-progress'))
    throw bad(messages.twilioRecordingInProgress);
  const sub = readCallback(form, 'RecordingStatusCallback', RECORDING_EVENTS, ['completed'], allowedHosts);
  return sub === null ? null : { ...sub, events: RECORDING_EVENTS.filter((e) => sub.events.includes(e)) };
}

/**
 * A callback of a create's (`name`: `StatusCallback` or `RecordingStatusCallback`): its URL, an
 * absolute http(s) one to loopback or `--callback-hosts` (refused otherwise, as in every dialect);
 * `{name}Method`, POST by default; `{name}Event`, space-separated as the route joins repeated
 * values, each one of `events`, `defaults` when absent. Null without a URL.
 */
function readCallback<E extends string>(
  form: CreateForm,
  name: string,
  events: readonly E[],
  defaults: readonly E[],
  allowedHosts: readonly string[],
): { url: string; method: string; events: readonly E[] } | null {
  const url = form[name]?.trim() ?? '';
  if (url === '') return null;
  const target = URL.canParse(url) && javaUriParses(url) ? new URL(url) : null;
  if (target === null || !/^https?:$/.test(target.protocol)) throw bad(`${name} ${problems.httpUrl(url)}`);
  if (!callbackHostAllowed(target.hostname, allowedHosts)) throw bad(messages.callbackHostRefused(target.hostname));
  const method = (form[`${name}Method`] ?? 'POST').toUpperCase();
  if (method !== 'GET' && method !== 'POST') throw bad(messages.twilioEnum(`${name}Method`, ['GET', 'POST'], method));
  const named = (form[`${name}Event`] ?? '').split(/[\s,]+/).filter((e) => e !== '');
  for (const e of named) {
    if (!(events as readonly string[]).includes(e)) throw bad(messages.twilioEnum(`${name}Event`, events, e));
  }
  return { url, method, events: named.length === 0 ? defaults : (named as E[]) };
}

/** The account's call a path's `:callSid` (Twilio's form) names, or Twilio's 404. */
function callIdOf(account: Account, sid: string, path: string): number {
  const id = findTwilioRecord(account, 'calls', sid);
  if (id === undefined) throw new ApiError(404, messages.twilioNotFound(path));
  return id;
}

/** The callbacks of `states` a call sends at once (its faults applied), as a create's `initiated`. */
function sendNow(
  ctx: Parameters<AdminHandler>[0],
  account: Account,
  call: CallRecord,
  states: readonly CallbackEvent[],
  atMs: number,
): void {
  const due = faultedCallbacks(dueCallbacks(call), call.sid, account.spec.callbackFaults)
    .filter((d) => states.includes(d.event) && d.atMs === atMs)
    .map((d) => ({ accountSid: account.profile.sid, call, ...d }));
  if (due.length > 0) void ctx.callbacks.deliver(due);
}

/** A call's answer: 201 for a create, 200 for an update, the call as it stands now. */
function callReply(account: Account, call: CallRecord, status: 200 | 201) {
  const shown = storedAtClock(call, account.context.nowMs);
  return { status, bytes: Buffer.from(twilioCallJson(shown, account.profile.sid), 'utf8'), type: 'application/json' };
}

/**
 * `POST Calls.json` of Twilio's, as a write: the call created at the account's clock, living the
 * life every created call lives, answered 201 with the call `queued`. Its `initiated` callback,
 * when asked for, is sent as the create answers.
 */
export const createTwilioCall: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const call = insertCreated(
    ctx,
    account,
    readTwilioCreate(req.body() as CreateForm, ctx.callbackHosts),
    req.takenHere,
  );
  return callReply(account, call, 201);
};

/**
 * `POST Calls/{Sid}.json`: `Status=canceled` ends a queued or ringing call (an answered one goes
 * on, as Twilio ignores it), `Status=completed` hangs up any live call; a new `Url`, `Twiml` or
 * method redirects its instructions, which the emulator does not run: the call goes on as it was.
 * A call that has ended cannot be updated (21220). The ended call's `completed` callback is sent
 * as the update answers.
 */
export const updateTwilioCall: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const sid = req.params['callSid'] ?? '';
  const form = req.body() as CreateForm;
  const wanted = form['Status'];
  if (wanted !== undefined && wanted !== 'canceled' && wanted !== 'completed')
    throw bad(messages.twilioUpdateStatus(wanted));
  const id = callIdOf(account, sid, req.params['path'] ?? sid);
  const nowMs = account.context.nowMs;
  const view = callAtClock(storedAtClock(account.calls.get(id), nowMs), nowMs);
  if (view.live === undefined) throw bad(messages.twilioNotInProgress, 21220);
  const { live, ...stored } = view;
  const answered = live.status === 'in-progress';
  if (wanted === undefined || (wanted === 'canceled' && answered)) return callReply(account, stored, 200);
  const nowSec = Math.floor(nowMs / 1000);
  const ended: CallRecord = answered
    ? { ...stored, status: 'completed', endMs: nowMs, duration: Math.max(0, nowSec - stored.startSec - stored.ringSec) }
    : {
        ...stored,
        status: 'canceled',
        endMs: nowMs,
        ringSec: nowSec - stored.startSec,
        duration: nowSec - stored.startSec,
      };
  ctx.world.deleteCall(account, id);
  ctx.world.insertCalls(account, [ended]);
  // A recorded call's recording is made as it ends, here as on a clock move.
  const recorded = recordEnded(ctx, [account], nowMs - 1, nowMs);
  if (req.takenHere && ended.callback !== undefined) sendNow(ctx, account, ended, ['completed'], nowMs);
  if (req.takenHere && recorded.length > 0) void ctx.callbacks.deliver(recorded);
  return callReply(account, ended, 200);
};

/** `DELETE Calls/{Sid}.json`: the call and its recordings gone; 204, as Twilio answers. */
export const deleteTwilioCall: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const sid = req.params['callSid'] ?? '';
  ctx.world.deleteCall(account, callIdOf(account, sid, req.params['path'] ?? sid));
  return { status: 204, bytes: Buffer.alloc(0), type: 'application/json' };
};

/** `DELETE Recordings/{Sid}.json`: the recording gone; 204. */
export const deleteTwilioRecording: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const sid = req.params['recordingSid'] ?? '';
  const id = findTwilioRecord(account, 'recordings', sid);
  if (id === undefined) throw new ApiError(404, messages.twilioNotFound(req.params['path'] ?? sid));
  ctx.world.deleteRecording(account, id);
  return { status: 204, bytes: Buffer.alloc(0), type: 'application/json' };
};

/**
 * Twilio's writes as the API routes hand them on, each through the write log, whose reply is the
 * answer (routes/twilio-api.ts takes the request: login, account, form).
 * @example twilioWrites(log).create(account, form, req.path, res)
 */
export function twilioWrites(log: WriteLog) {
  const submit = async (
    route: string,
    params: Record<string, string>,
    form: CreateForm | undefined,
    res: ServerResponse,
  ): Promise<void> => {
    const { version, reply } = await log.write(route, params, '', form === undefined ? undefined : { value: form });
    if (!('bytes' in reply)) throw new Error("Twilio's writes answer bytes");
    res.setHeader(VERSION_HEADER, version);
    res.statusCode = reply.status;
    if (reply.status === 204) {
      res.end();
      return;
    }
    res.setHeader('Content-Type', reply.type);
    res.setHeader('Content-Length', reply.bytes.length);
    res.end(reply.bytes);
  };
  const sid = (account: Account) => account.profile.sid;
  return {
    create: (account: Account, form: CreateForm, path: string, res: ServerResponse) =>
      submit(TWILIO_ROUTES.create, { sid: sid(account), path }, form, res),
    update: (account: Account, callSid: string, form: CreateForm, path: string, res: ServerResponse) =>
      submit(TWILIO_ROUTES.update, { sid: sid(account), callSid, path }, form, res),
    deleteCall: (account: Account, callSid: string, path: string, res: ServerResponse) =>
      submit(TWILIO_ROUTES.deleteCall, { sid: sid(account), callSid, path }, undefined, res),
    deleteRecording: (account: Account, recordingSid: string, path: string, res: ServerResponse) =>
      submit(TWILIO_ROUTES.deleteRecording, { sid: sid(account), recordingSid, path }, undefined, res),
  };
}
