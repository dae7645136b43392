import type { ServerResponse } from 'node:http';
import { CallbackDesk, callbackHostAllowed, type DueDelivery, javaUriParses } from '../callbacks/callback-desk';
import { ApiError, messages } from '../errors';
import { callJson, callXml } from '../format/call';
import { xmlRoot } from '../format/xml';
import { storedAtClock } from '../generators/call-life';
import type { CallRecord } from '../generators/call-record';
import { type CallRequest, createdCall } from '../generators/created-call';
import { arrivalsBetween, trafficCallbacksBetween } from '../generators/traffic-callbacks';
import { headerSafe, VERSION_HEADER } from '../http/exchange';
import type { Account } from '../store/world';
import type { AdminContext, AdminHandler } from './context';
import { firstAfter, recordEnded } from './recorded-calls';
import type { WriteLog } from './write-log';

/**
 * `POST Calls.json` as a write: the API route takes the request (auth, form body) and hands it
 * to the write log as this handler's entry, so every replica creates the same call in the same
 * turn. Production's checks, in its order (`CallsEndpoint.putCall`), then the call, then the
 * `initiated` callback, sent by the replica that took the request.
 */

/** The write log's key of a create: not an admin path, so no client can send it to /__admin. */
export const CREATE_CALL_ROUTE = 'POST /Accounts/:sid/Calls';

/** The parameters production reads of a create (`putCall`, `getUrl`, `getMethod`, `getTimeout`). */
export const CREATE_PARAMS = [
  'From',
  'To',
  'Url',
  'Method',
  'FallbackUrl',
  'FallbackMethod',
  'Username',
  'Password',
  'Timeout',
  'StatusCallback',
  'StatusCallbackMethod',
  'StatusCallbackEvent',
] as const;

/** The form as the route read it: each name's first value, as `MultivaluedMap.getFirst` gives. */
export type CreateForm = Readonly<Record<string, string>>;

/**
 * Reads a create's form as production does:
 * - From, To and Url must be present (`validate`: "From can not be null.", checked in that order;
 *   present and empty passes);
 * - `Timeout` must be an integer and `Url` a URI (production lets both exceptions out: a 500;
 *   here a 400 that says so);
 * - a To with `?` carries custom SIP headers after it: the number is what comes before;
 * - a StatusCallback Java's `URI` cannot parse is dropped without a word, so the call sends no
 *   callbacks; StatusCallbackMethod (POST by default) is read only with one;
 *   StatusCallbackEvent only adds to the four states every call subscribes, so it changes nothing;
 * - numbers are not normalized: production's default configuration has
 *   `normalize-numbers-for-outbound-calls` false.
 * The emulator adds one check: a StatusCallback to a host other than loopback and
 * `--callback-hosts` is refused (a 400), so a test can never post to a real host.
 */
export function readCreate(form: CreateForm, allowedHosts: readonly string[]): CallRequest {
  for (const name of ['From', 'To', 'Url'] as const) {
    if (form[name] === undefined) throw new ApiError(400, messages.createMissing(name));
  }
  const timeoutText = form['Timeout'];
  let timeoutSec = 60;
  if (timeoutText !== undefined) {
    // Integer.parseInt: an optional sign and digits, within an int.
    if (!/^[+-]?\d{1,10}$/.test(timeoutText) || Math.abs(Number(timeoutText)) > 2 ** 31 - 1)
      throw new ApiError(400, messages.createTimeout(timeoutText));
    timeoutSec = Math.max(1, Number(timeoutText));
  }
  const url = form['Url'] as string;
  if (!javaUriParses(url)) throw new ApiError(400, messages.createUrl(url));
  let to = (form['To'] as string).trim();
  if (to.includes('?')) to = to.slice(0, to.indexOf('?'));
  const from = (form['From'] as string).trim();
  const callbackText = form['StatusCallback']?.trim();
  let callback: CallRequest['callback'] = null;
  if (callbackText !== undefined && javaUriParses(callbackText)) {
    const target = URL.canParse(callbackText) ? new URL(callbackText) : null;
    if (target !== null && /^https?:$/.test(target.protocol) && !callbackHostAllowed(target.hostname, allowedHosts))
      throw new ApiError(400, messages.callbackHostRefused(target.hostname));
    callback = { url: callbackText, method: form['StatusCallbackMethod']?.trim() ?? 'POST' };
  }
  return { from, to, timeoutSec, callback };
}

/** The parameters of a create that production reads nowhere: said in a warning header. */
export function unreadParams(form: CreateForm): string[] {
  return Object.keys(form).filter((name) => !(CREATE_PARAMS as readonly string[]).includes(name));
}

/**
 * Takes a create the API route has read: a parameter production reads nowhere is ignored, as
 * there, and said in `X-Emulator-Warning` (a 400 with --strict); the rest goes through the write
 * log, and its reply is the answer.
 * @example app.post(path, ...createCallHandler(settings, submitCreate(log, false)))
 */
export function submitCreate(log: WriteLog, strict: boolean) {
  return async (account: Account, form: CreateForm, format: string, res: ServerResponse): Promise<void> => {
    const warnings = unreadParams(form).map((name) => headerSafe(messages.createUnread(name)));
    const [first] = warnings;
    if (strict && first !== undefined) throw new ApiError(400, first);
    const { version, reply } = await log.write(CREATE_CALL_ROUTE, { sid: account.profile.sid, format }, '', {
      value: form,
    });
    if (!('bytes' in reply)) throw new Error('a create answers bytes');
    for (const w of warnings) res.appendHeader('X-Emulator-Warning', w);
    res.setHeader(VERSION_HEADER, version);
    res.statusCode = reply.status;
    res.setHeader('Content-Type', reply.type);
    res.end(reply.bytes);
  };
}

/** The accounts on the world's clock: every one but sandboxes, whose clocks are their own. */
export function worldClockAccounts(ctx: AdminContext): Account[] {
  return ctx.world.accounts().filter((a) => ctx.world.forkOf(a.profile.sid) === undefined);
}

/** The created calls of `accounts` with a StatusCallback, in creation order, with their accounts' faults. */
export function subscribedCalls(accounts: readonly Account[]) {
  return accounts.flatMap((account) =>
    account.calls
      .insertedRecords()
      .filter((call) => call.callback !== undefined)
      .map((call) => ({ accountSid: account.profile.sid, call, faults: account.spec.callbackFaults })),
  );
}

/**
 * The world's clock moved from `fromMs` to `toMs` (a move, or the running clock): the callbacks
 * of the accounts on it due since the last hand-out. A clock that went back (a reset, an import)
 * starts again from where it is now.
 */
export function deliverWorldPassed(ctx: AdminContext, fromMs: number, toMs: number): Promise<void> | undefined {
  const mark = ctx.callbacks.worldMark;
  const since = mark === null || mark > fromMs ? fromMs : mark;
  ctx.callbacks.worldMark = toMs;
  const settle = deliverPassed(ctx, worldClockAccounts(ctx), since, toMs);
  // --callbacks-in-background: the move answers at once, a stand-in's app gets them as they go.
  return ctx.callbacksInBackground ? undefined : settle;
}

/**
 * With --clock-rate, in a single process: brings the clock up to wall time and sends what it
 * passed. A fleet's replicas each follow the clock, so there callbacks go on moves only (one
 * replica takes a move: its sender).
 */
export function pumpCallbacks(ctx: AdminContext): void {
  if (ctx.world.clockRate === null || ctx.log.transport.where !== 'this process') return;
  const before = ctx.callbacks.worldMark ?? ctx.world.nowMs;
  ctx.world.tick();
  const now = ctx.world.nowMs;
  ctx.callbacks.worldMark = now;
  // Not moved, or moved back (a reset, an import): nothing passed.
  if (now <= before) return;
  const accounts = worldClockAccounts(ctx);
  const recorded = recordEnded(ctx, accounts, before, now);
  const due = passedBetween(accounts, before, now);
  if (due.length > 0) void ctx.callbacks.deliver(due);
  if (recorded.length > 0) void ctx.callbacks.deliver(recorded);
}

/**
 * Sends the callbacks of `accounts`' calls due in (fromMs, toMs], in order; called only by the
 * replica that took the write that moved the clock (another applying it sends nothing). The promise
 * (none when nothing is due) settles once each has an outcome: the move's answer waits for it,
 * the write log does not (a receiver that writes to the emulator as it answers would otherwise
 * wait on itself).
 */
export function deliverPassed(
  ctx: AdminContext,
  accounts: readonly Account[],
  fromMs: number,
  toMs: number,
): Promise<void> | undefined {
  if (toMs <= fromMs) return undefined;
  const due = passedBetween(accounts, fromMs, toMs);
  return due.length === 0 ? undefined : ctx.callbacks.deliver(due, !ctx.callbacksInBackground);
}

/** An account's created calls' callbacks (but `initiated`), faults applied, by instant: built again only after a write to its calls. */
interface DueIndex {
  writes: number;
  faults: unknown;
  due: DueDelivery[];
}
const dueIndexes = new WeakMap<Account['calls'], DueIndex>();

/**
 * The created calls' callbacks of `account` due in (fromMs, toMs], as `CallbackDesk.dueBetween`
 * gives them, from an index kept by instant: the running clock asks four times a second, and
 * scanning every created call each time cost an idle emulator with 120,000 of them half a second
 * of CPU every ten seconds.
 */
function createdDueBetween(account: Account, fromMs: number, toMs: number): DueDelivery[] {
  const table = account.calls;
  const faults = account.spec.callbackFaults;
  let index = dueIndexes.get(table);
  if (index === undefined || index.writes !== table.overlayWrites || index.faults !== faults) {
    const all = CallbackDesk.dueBetween(subscribedCalls([account]), Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
    index = { writes: table.overlayWrites, faults, due: all };
    dueIndexes.set(table, index);
  }
  const { due } = index;
  let at = firstAfter(due, fromMs, (d) => d.atMs);
  const out: DueDelivery[] = [];
  for (; at < due.length && (due[at] as DueDelivery).atMs <= toMs; at++) out.push(due[at] as DueDelivery);
  return out;
}

/** Every callback of `accounts` due in (fromMs, toMs]: created calls', then inbound traffic's, merged by instant. */
function passedBetween(accounts: readonly Account[], fromMs: number, toMs: number): DueDelivery[] {
  // Accounts in their order, each by instant; the stable sort below merges them as one list would.
  const due = accounts.flatMap((account) => createdDueBetween(account, fromMs, toMs));
  for (const account of accounts) {
    const { traffic, inboundCallbacks } = account.spec;
    if (traffic === undefined || inboundCallbacks === undefined) continue;
    for (const d of trafficCallbacksBetween(
      account.context,
      account.profile,
      traffic,
      inboundCallbacks,
      fromMs,
      toMs,
    )) {
      due.push({
        accountSid: account.profile.sid,
        call: d.call,
        event: d.state,
        atMs: d.atMs,
        stampMs: d.atMs,
        inbound: d.target,
      });
    }
  }
  // Stable: created calls' order and each call's states' order stay within an instant.
  return due.sort((a, b) => a.atMs - b.atMs);
}

/** The most calls of live traffic whose callbacks one move may pass (a year at 10 an hour). */
export const MAX_TRAFFIC_CALLBACK_CALLS = 100_000;

/**
 * Refuses (a 409, before anything moves) a move that would pass the callbacks of more calls of
 * live traffic than one move may send: ten years of traffic is a legitimate move without
 * callbacks, and tens of millions of posts with them.
 */
export function checkPassed(accounts: readonly Account[], fromMs: number, toMs: number): void {
  let calls = 0;
  for (const account of accounts) {
    const { traffic, inboundCallbacks } = account.spec;
    if (traffic === undefined || inboundCallbacks === undefined) continue;
    const { first, end } = arrivalsBetween(account.context, account.profile, traffic, fromMs, toMs);
    calls += end - first;
  }
  if (calls > MAX_TRAFFIC_CALLBACK_CALLS)
    throw new ApiError(409, messages.tooManyCallbacks(calls, MAX_TRAFFIC_CALLBACK_CALLS));
}

/**
 * A create's call, made at the account's clock as the account's next insert and inserted; its
 * `initiated` callback sent by the replica that took the write (not awaited: the answer does not
 * wait for the receiver). Both dialects' creates.
 */
export function insertCreated(
  ctx: AdminContext,
  account: Account,
  request: CallRequest,
  takenHere: boolean,
): CallRecord {
  const { context, profile, calls, spec } = account;
  const call = createdCall(context, profile, calls.nextInsert, context.nowMs, request, spec.outcomes);
  ctx.world.insertCalls(account, [call]);
  if (takenHere && call.callback !== undefined) {
    void ctx.callbacks.deliver(CallbackDesk.atCreation(profile.sid, call, spec.callbackFaults));
  }
  return call;
}

/**
 * The write: the call created at the account's clock, answered as production answers a create
 * (200 and the record as it stands: `queued`), in JSON or, Restcomm dialect without `.json`, its
 * XML element alone (`xstream.toXML(cdr)`: no `<RestcommResponse>` around it).
 * The `initiated` callback is sent after the answer, as production's Call actor sends it while
 * the endpoint is still answering; a clock move waits for it before its own.
 */
export const createCall: AdminHandler = (ctx, req) => {
  const account = ctx.world.account(req.params['sid'] ?? '');
  if (account === undefined) throw new ApiError(404, messages.noAccount(req.params['sid'] ?? ''));
  const form = req.body() as CreateForm;
  const nowMs = account.context.nowMs;
  const call = insertCreated(ctx, account, readCreate(form, ctx.callbackHosts), req.takenHere);
  const shown = storedAtClock(call, nowMs);
  const xml = req.params['format'] === 'xml';
  return {
    status: 200,
    bytes: Buffer.from(
      xml ? xmlRoot(callXml(shown, account.profile.sid)) : callJson(shown, account.profile.sid),
      'utf8',
    ),
    type: xml ? 'application/xml' : 'application/json',
  };
};
