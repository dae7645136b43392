import type { CallInput } from './admin/call-input';
import type { ClockView } from './admin/clock';
import type { JournalEntry } from './admin/journal-views';
import type { RecordingInput } from './admin/recording-input';
import type { CallbackEntry } from './callbacks/callback-desk';
import type { FaultSpec } from './faults/faults';
import type { Call } from './format/call';
import type { Recording } from './format/recording';
import { listPath } from './format/uris';
import type { DumpReport } from './input/restcomm-dump';
import type { WalkReport } from './journal/walk-report';

/** An account as the admin API shows it: with its token, so tests can authenticate. */
export interface AccountView {
  sid: string;
  token: string;
  /** An API key bound to the account: Twilio's `SK…:secret` login (`--dialect twilio`). */
  api_key: { sid: string; secret: string };
  friendly_name: string;
  calls: number;
  recordings: number;
}

/** A live sandbox as the admin API lists it: an account, and where it was forked from. */
export type SandboxView = AccountView & { from: string; source: 'account' | 'state'; run?: string };

/** How a sandbox is made: its name, its time to live, and the test run it belongs to. */
export interface SandboxRequest {
  name?: string;
  /** Ends the sandbox by itself after this many seconds of wall time. */
  ttlSeconds?: number;
  /** A test run's id: `deleteSandboxes({ run })` ends every sandbox the run made. */
  run?: string;
}

/** Filters of the request journal (`GET /__admin/requests`). */
export interface JournalQuery {
  account?: string;
  /** GET, HEAD, POST, … (any case). */
  method?: string;
  path?: string;
  status?: number;
  since?: string;
  limit?: number;
  /** Include the inspector's own requests (left out by default). */
  inspector?: boolean;
}

/** A fault as the admin API shows it: its spec, its id, and how often it matched and applied. */
export type FaultView = FaultSpec & { id: string; matched: number; applied: number };

/** The admin API, typed: what a test does to an emulator, from any process that can reach it. */
export interface EmulatorClient {
  /** Where the emulator listens, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The accounts now, with their tokens. */
  accounts(): Promise<AccountView[]>;
  /** Everything back to the seeded state, or one account when a sid is given. */
  reset(accountSid?: string): Promise<void>;
  /** A new seed (and fixtures, and reference instant): the world is built again. */
  seed(seed: string, fixtures?: { accounts: unknown[] } | 'start', clock?: string): Promise<void>;
  /** Back to the seed, clock and accounts the emulator started with (a reset keeps those of the last seed). */
  seedStart(): Promise<void>;
  /**
   * Production's own data in: the text of a mysqldump or an HSQLDB script of Restcomm's tables
   * (`POST /__admin/data`). Its accounts join the fixtures (or replace them), and a reset keeps
   * them; answers what the dump held (see DumpReport).
   */
  importData(dump: string, options?: { file?: string; replace?: boolean }): Promise<DumpReport>;
  /** Inserts calls (any field may be given, the rest is generated); returns them as the API shows them. */
  addCalls(accountSid: string, calls?: CallInput | CallInput[]): Promise<Call[]>;
  /** Inserts one call; returns it as the API shows it. */
  addCall(accountSid: string, call?: CallInput): Promise<Call>;
  addRecordings(accountSid: string, recordings?: RecordingInput | RecordingInput[]): Promise<Recording[]>;
  /** Inserts one recording; returns it as the API shows it. */
  addRecording(accountSid: string, recording?: RecordingInput): Promise<Recording>;
  /** The request journal, newest first. */
  requests(query?: JournalQuery): Promise<JournalEntry[]>;
  /** How many requests the journal holds that match, e.g. `{ status: 429 }`: counted by the emulator, none sent back. */
  countRequests(query?: JournalQuery): Promise<number>;
  /** Empties the journal, or one account's entries only. */
  clearRequests(accountSid?: string): Promise<void>;
  /** The live sandboxes, oldest first. */
  sandboxes(): Promise<SandboxView[]>;
  /** A fork of an account for one test (see docs/sandboxes.md): its own sid, token, clock and writes. */
  sandbox(from: string | SandboxState, options?: SandboxRequest): Promise<SandboxHandle>;
  /** Ends every sandbox a test run made; resolves with their sids. */
  deleteSandboxes(filter: { run: string }): Promise<string[]>;
  /** Each client's walks over the lists (pages, duplicates, missed), oldest first, the first 1,000; one account's when given. */
  walks(accountSid?: string): Promise<WalkReport[]>;
  /** The world's clock: it moves only when told (see docs/clock.md). */
  clock: {
    /** The clock now, ISO 8601. */
    now(): Promise<string>;
    /** Forward by an ISO 8601 duration (`'PT5M'`) or a number of seconds. */
    advance(by: string | number): Promise<ClockView>;
    /** Forward to an instant; never back. */
    set(to: string): Promise<ClockView>;
  };
  faults: {
    add(fault: FaultSpec): Promise<FaultView>;
    list(): Promise<FaultView[]>;
    remove(id: string): Promise<void>;
    /** Every fault, or only those scoped to one account. */
    clear(accountSid?: string): Promise<void>;
  };
}

/** One account's state, as `GET /__admin/accounts/{sid}/state` exports it (see docs/admin-api.md). */
export interface SandboxState {
  format: 1;
  seed: string;
  clock: string;
  now?: string;
  account: Record<string, unknown>;
}

/** One test's sandbox: the account to point the code under test at, and what a test does to it. */
export interface SandboxHandle {
  sid: string;
  token: string;
  /** The calls list of the sandbox, for code that takes a list URL. */
  callsUrl: string;
  /** Its recordings list. */
  recordingsUrl: string;
  /** Its notifications list. */
  notificationsUrl: string;
  /** Its `Authorization` header (`Basic`, the token as user name), which both dialects accept. */
  authorization: string;
  /** The sandbox's own clock. */
  clock: EmulatorClient['clock'];
  addCalls(calls?: CallInput | CallInput[]): Promise<Call[]>;
  /** Inserts one call; returns it as the API shows it. */
  addCall(call?: CallInput): Promise<Call>;
  addRecordings(recordings?: RecordingInput | RecordingInput[]): Promise<Recording[]>;
  addRecording(recording?: RecordingInput): Promise<Recording>;
  /** Its requests in the journal, newest first. */
  requests(query?: Omit<JournalQuery, 'account'>): Promise<JournalEntry[]>;
  /** How many of its requests match, e.g. `{ status: 429 }` to assert exactly one 429 was served. */
  countRequests(query?: Omit<JournalQuery, 'account'>): Promise<number>;
  /** Empties its part of the journal (no other sandbox's). */
  clearRequests(): Promise<void>;
  walks(): Promise<WalkReport[]>;
  /** A fault that touches this sandbox's requests only. */
  fault(fault: Omit<FaultSpec, 'account'>): Promise<FaultView>;
  /** Deletes the faults scoped to this sandbox (no other's). */
  clearFaults(): Promise<void>;
  /** Back to what it was forked with, its clock too. */
  reset(): Promise<void>;
  /** Its state: what `sandbox(state)` forks again, here or in another emulator. */
  state(): Promise<SandboxState>;
  /** A digest of what the API shows of it, its sid and token left out: equal for sandboxes taken through the same steps. */
  hash(): Promise<string>;
  /** Ends the sandbox. */
  delete(): Promise<void>;
  /** The status callbacks of its created calls, in the order they were due (`call` narrows it to one call). */
  callbacks(query?: { call?: string }): Promise<CallbackEntry[]>;
  /**
   * The first of its callbacks that matches (`call`, `event`, or a predicate) once delivered (or
   * failed): now, or as soon as one is; rejects after `timeoutMs` (default 5000) of wall time.
   * A callback goes when the sandbox's clock passes it, so move the clock first.
   */
  waitForCallback(
    filter?: CallbackFilter | ((entry: CallbackEntry) => boolean),
    options?: { timeoutMs?: number },
  ): Promise<CallbackEntry>;
}

/** Which callback `waitForCallback` waits for. @example { call: 'ID…-CA…', event: 'completed' } */
export interface CallbackFilter {
  call?: string;
  event?: CallbackEntry['event'];
}

/**
 * A client of a running emulator's admin API: what a jest worker (or any process that did not
 * start the emulator) uses. A refused call rejects with the status and the emulator's message.
 * @example const em = connect(process.env.CALLREC_URL ?? 'http://127.0.0.1:8080'); await em.reset();
 */
export function connect(url: string, options: { adminToken?: string } = {}): EmulatorClient {
  const base = url.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.adminToken !== undefined) headers['Authorization'] = `Bearer ${options.adminToken}`;
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const res = await fetch(`${base}/__admin${path}`, init);
    const payload = (await res.json()) as unknown;
    if (!res.ok) {
      const message = (payload as { message?: string } | null)?.message ?? '';
      throw new Error(`callrec-emulator: ${method} /__admin${path}: ${res.status} ${message}`);
    }
    return payload as T;
  };
  const asList = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
  const one = async <T>(made: Promise<T[]>): Promise<T> => (await made)[0] as T;
  const journalQuery = (query: JournalQuery) =>
    new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string])).toString();
  const scoped = (accountSid: string | undefined) =>
    accountSid === undefined ? '' : `?account=${encodeURIComponent(accountSid)}`;
  const callbacksOf = async (account: string, call: string | undefined) => {
    const q = new URLSearchParams({ account, ...(call === undefined ? {} : { call }) });
    return (await admin<{ callbacks: CallbackEntry[] }>('GET', `/callbacks?${q}`)).callbacks;
  };
  const client: EmulatorClient = {
    url: base,
    accounts: async () => (await admin<{ accounts: AccountView[] }>('GET', '/accounts')).accounts,
    reset: async (accountSid) => {
      await admin('POST', accountSid === undefined ? '/reset' : `/accounts/${accountSid}/reset`);
    },
    seed: async (seed, fixtures, clock) => {
      await admin('POST', '/seed', {
        seed,
        ...(fixtures === undefined ? {} : { fixtures }),
        ...(clock === undefined ? {} : { clock }),
      });
    },
    seedStart: async () => {
      await admin('POST', '/seed', { start: true });
    },
    importData: async (dump, options = {}) =>
      (await admin<{ report: DumpReport }>('POST', '/data', { dump, ...options })).report,
    addCalls: async (sid, calls = {}) => admin<Call[]>('POST', `/accounts/${sid}/calls`, asList(calls)),
    addCall: async (sid, call = {}) => one(client.addCalls(sid, call)),
    addRecordings: async (sid, recordings = {}) =>
      admin<Recording[]>('POST', `/accounts/${sid}/recordings`, asList(recordings)),
    addRecording: async (sid, recording = {}) => one(client.addRecordings(sid, recording)),
    requests: async (query = {}) => {
      const q = journalQuery(query);
      return (await admin<{ requests: JournalEntry[] }>('GET', `/requests${q === '' ? '' : `?${q}`}`)).requests;
    },
    countRequests: async (query = {}) =>
      (await admin<{ matched: number }>('GET', `/requests?${journalQuery({ ...query, limit: 0 })}`)).matched,
    clearRequests: async (accountSid) => {
      await admin('DELETE', `/requests${scoped(accountSid)}`);
    },
    clock: {
      now: async () => (await admin<ClockView>('GET', '/clock')).now,
      advance: async (by) => admin<ClockView>('POST', '/clock', { advance: by }),
      set: async (to) => admin<ClockView>('POST', '/clock', { to }),
    },
    sandbox: async (from, options = {}) => {
      const made = await admin<{ sid: string; token: string }>('POST', '/sandboxes', {
        from,
        ...(options.name === undefined ? {} : { name: options.name }),
        ...(options.ttlSeconds === undefined ? {} : { ttl_s: options.ttlSeconds }),
        ...(options.run === undefined ? {} : { run: options.run }),
      });
      const own = `/sandboxes/${made.sid}`;
      const account = `/accounts/${made.sid}`;
      return {
        sid: made.sid,
        token: made.token,
        callsUrl: `${base}${listPath('calls', made.sid)}`,
        recordingsUrl: `${base}${listPath('recordings', made.sid)}`,
        notificationsUrl: `${base}${listPath('notifications', made.sid)}`,
        authorization: `Basic ${Buffer.from(`${made.token}:`).toString('base64')}`,
        clock: {
          now: async () => (await admin<ClockView>('GET', `${own}/clock`)).now,
          advance: async (by) => admin<ClockView>('POST', `${own}/clock`, { advance: by }),
          set: async (to) => admin<ClockView>('POST', `${own}/clock`, { to }),
        },
        addCalls: async (calls = {}) => client.addCalls(made.sid, calls),
        addCall: async (call = {}) => client.addCall(made.sid, call),
        addRecordings: async (recordings = {}) => client.addRecordings(made.sid, recordings),
        addRecording: async (recording = {}) => client.addRecording(made.sid, recording),
        requests: async (query = {}) => client.requests({ ...query, account: made.sid }),
        countRequests: async (query = {}) => client.countRequests({ ...query, account: made.sid }),
        clearRequests: async () => client.clearRequests(made.sid),
        walks: async () => client.walks(made.sid),
        fault: async (fault) => client.faults.add({ ...fault, account: made.sid }),
        clearFaults: async () => client.faults.clear(made.sid),
        reset: async () => client.reset(made.sid),
        state: async () => admin<SandboxState>('GET', `${account}/state`),
        hash: async () => (await admin<{ hash: string }>('GET', `${account}/state/hash`)).hash,
        delete: async () => {
          await admin('DELETE', own);
        },
        callbacks: async (query = {}) => callbacksOf(made.sid, query.call),
        waitForCallback: async (filter = {}, options = {}) => {
          const matches =
            typeof filter === 'function'
              ? filter
              : (e: CallbackEntry) =>
                  (filter.call === undefined || e.call_sid === filter.call) &&
                  (filter.event === undefined || e.event === filter.event);
          // Wall time bounds the wait, never the data: the journal is read until the callback is in it.
          const deadline = Date.now() + (options.timeoutMs ?? 5000);
          for (;;) {
            const found = (await callbacksOf(made.sid, typeof filter === 'function' ? undefined : filter.call)).find(
              (e) => e.state === 'done' && matches(e),
            );
            if (found !== undefined) return found;
            if (Date.now() >= deadline)
              throw new Error(
                `callrec-emulator: no matching callback of ${made.sid} within ${options.timeoutMs ?? 5000} ms`,
              );
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        },
      };
    },
    sandboxes: async () => (await admin<{ sandboxes: SandboxView[] }>('GET', '/sandboxes')).sandboxes,
    deleteSandboxes: async ({ run }) =>
      (await admin<{ sids: string[] }>('DELETE', `/sandboxes?run=${encodeURIComponent(run)}`)).sids,
    walks: async (accountSid) => {
      const query = new URLSearchParams({
        limit: '1000',
        ...(accountSid === undefined ? {} : { account: accountSid }),
      });
      return (await admin<{ walks: WalkReport[] }>('GET', `/walks?${query}`)).walks;
    },
    faults: {
      add: async (fault) => admin<FaultView>('POST', '/faults', fault),
      list: async () => (await admin<{ faults: FaultView[] }>('GET', '/faults')).faults,
      remove: async (id) => {
        await admin('DELETE', `/faults/${encodeURIComponent(id)}`);
      },
      clear: async (accountSid) => {
        await admin('DELETE', `/faults${scoped(accountSid)}`);
      },
    },
  };
  return client;
}
