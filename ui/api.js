// @ts-check
/**
 * The inspector asks only what any client may: the provider's API (with an account's token) and
 * the admin API. Everything here goes to this emulator, never elsewhere.
 */

/** @typedef {{ commit_lag_s: number, instances: { instance_id: string, skew_ms: number }[] }} Hazards */
/** @typedef {{ sid: string, token: string, friendly_name: string, calls: number, recordings: number, now: string, traffic: { calls_per_hour: number } | null, hazards: Hazards | null, restarts: { instance_id: string | null, at: string }[] }} Account */
/** @typedef {Account & { from: string, source: string }} Sandbox */

/**
 * The admin API; a refusal throws with the emulator's message.
 * @param {string} method
 * @param {string} path under /__admin, e.g. '/accounts'
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function admin(method, path, body) {
  /** @type {RequestInit} */
  const init = { method, headers: { 'Content-Type': 'application/json' } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`/__admin${path}`, init);
  const text = await res.text();
  const payload = text === '' ? null : JSON.parse(text);
  // The status goes with the error: a view may offer what a 409 asks (a forced import).
  if (!res.ok)
    throw Object.assign(new Error(`${method} /__admin${path}: ${res.status} ${payload?.message ?? ''}`), {
      status: res.status,
    });
  return payload;
}

/**
 * A path production prints (no `/call` prefix, often no `.json`) as one that can be requested:
 * `/2012-04-24/Accounts/AC1/Calls?Page=1` → `/call/2012-04-24/Accounts/AC1/Calls.json?Page=1`.
 * @param {string} printed
 */
export function requestable(printed) {
  const at = printed.indexOf('?');
  let path = at < 0 ? printed : printed.slice(0, at);
  const query = at < 0 ? '' : printed.slice(at);
  if (path.startsWith('/2012-04-24/')) path = `/call${path}`;
  if (!path.endsWith('.json')) path = `${path}.json`;
  return path + query;
}

/**
 * The clock's time before the inspector last moved it (null until it does): the calls created
 * after it came with that move (live traffic), and the calls list highlights them.
 * @type {{ since: string | null }}
 */
export const lastMove = { since: null };

/** The event a view sends when a write set the world's clock (a state import), for the header. */
export const CLOCK_CHANGED = 'emulator-clock-changed';

/**
 * Sent on every API request the inspector makes: the emulator then keeps it out of the walks
 * report and the faults, and lists it in the journal only when asked (a person looking is not
 * the client under test).
 */
export const INSPECTOR = { 'X-Emulator-Inspector': '1' };

/**
 * The `Authorization` header of an account: its token as the user name.
 * @param {string} token
 */
export const basic = (token) => `Basic ${btoa(`${token}:`)}`;

/**
 * A GET of the provider's API, as a client sends it; the answer whatever its status.
 * @param {string} path requestable path with query
 * @param {string} token
 * @returns {Promise<{ status: number, body: any, headers: Headers }>}
 */
export async function get(path, token) {
  const res = await fetch(path, { headers: { Authorization: basic(token), ...INSPECTOR } });
  const text = await res.text();
  let body = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = { message: text };
  }
  return { status: res.status, body, headers: res.headers };
}

/**
 * The same request as a curl line, to paste into a terminal.
 * @param {string} path
 * @param {string} token
 */
export const curlOf = (path, token) => `curl -u ${token}: '${location.origin}${path}'`;

/** @returns {Promise<Account[]>} */
export async function accounts() {
  return (await admin('GET', '/accounts?detail=true')).accounts;
}

/** @returns {Promise<Sandbox[]>} */
export async function sandboxes() {
  return (await admin('GET', '/sandboxes')).sandboxes;
}

/**
 * The account a sid names, with its token; the first account when none is named.
 * @param {string | undefined} sid
 */
export async function accountOf(sid) {
  const all = await accounts();
  return { all, account: all.find((a) => a.sid === sid) ?? all[0] };
}
