import { type Config, configFromOptions } from './config';
import { ValidationError } from './errors';
import type { FaultSpec } from './harness/faults';
import type { JournalEntry } from './harness/journal';
import { type RunningEmulator, serve } from './server';

/** Options of an in-process emulator: the CLI's options, with fixtures as a file or as data. */
export interface EmulatorOptions {
  /** Default 0: any free port. */
  port?: number;
  host?: string;
  seed?: string;
  /** A fixtures file, or the fixtures themselves: `{accounts: [{friendly_name, calls, recordings, token?, sid?}]}`. */
  fixtures?: string | { accounts: unknown[] };
  paging?: 'production' | 'documented';
  publicUrl?: string;
  /** ISO 8601 with a zone. */
  clock?: string;
  maxPageSize?: number;
  cacheMb?: number;
  journalSize?: number;
  strict?: boolean;
  adminToken?: string;
  /** Host names besides loopback ones that /__admin answers. */
  adminHosts?: string[];
  /** Default `silent` in-process (the CLI's default is `info`). */
  logLevel?: 'silent' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  cors?: boolean;
  maxConnections?: number;
  /** A provider states file. */
  states?: string;
}

export interface AccountView {
  sid: string;
  token: string;
  friendly_name: string;
  calls: number;
  recordings: number;
}

export interface JournalQuery {
  account?: string;
  path?: string;
  status?: number;
  since?: string;
  limit?: number;
}

/** A running emulator, for test runners. Admin operations go through its own admin API. */
export interface EmulatorHandle {
  url: string;
  /** The accounts now, with their tokens. */
  readonly accounts: AccountView[];
  /** Everything back to the seeded state, or one account when a sid is given. */
  reset(accountSid?: string): Promise<void>;
  /** A new seed (and fixtures, and reference instant): the world is built again. */
  seed(seed: string, fixtures?: { accounts: unknown[] }, clock?: string): Promise<void>;
  /** Inserts calls (any field may be given); returns them as the API shows them. */
  addCalls(
    accountSid: string,
    calls?: Record<string, unknown> | Record<string, unknown>[],
  ): Promise<Record<string, unknown>[]>;
  addRecordings(
    accountSid: string,
    recordings?: Record<string, unknown> | Record<string, unknown>[],
  ): Promise<Record<string, unknown>[]>;
  /** The request journal, newest first. */
  requests(query?: JournalQuery): Promise<JournalEntry[]>;
  faults: {
    add(fault: FaultSpec): Promise<Record<string, unknown> & { id: string }>;
    list(): Promise<Record<string, unknown>[]>;
    remove(id: string): Promise<void>;
    clear(): Promise<void>;
  };
  /** Stops listening; requests in flight get up to `graceMs` to finish. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts an emulator in this process, on a free port unless told otherwise, and resolves once it
 * listens. Options are validated as the CLI's are (the environment is not read); a bad one
 * rejects with its message.
 * @example const em = await startEmulator({ seed: 'ci' }); … await em.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  let em: RunningEmulator;
  let config: Readonly<Config>;
  try {
    config = configFromOptions({ ...options });
    em = await serve(config);
  } catch (err) {
    if (err instanceof ValidationError) throw new Error(`callrec-emulator: ${err.message}`);
    throw err;
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (config.adminToken !== null) headers['Authorization'] = `Bearer ${config.adminToken}`;
  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const res = await fetch(`${em.url}/__admin${path}`, init);
    const payload = (await res.json()) as { message?: string } | unknown[];
    if (!res.ok) {
      const message = Array.isArray(payload) ? '' : (payload.message ?? '');
      throw new Error(`callrec-emulator: ${method} /__admin${path}: ${res.status} ${message}`);
    }
    return payload;
  };
  const asList = (x: unknown) => (Array.isArray(x) ? x : [x]) as Record<string, unknown>[];
  return {
    url: em.url,
    get accounts() {
      return em.world.accounts().map((a) => ({
        sid: a.profile.sid,
        token: a.profile.token,
        friendly_name: a.profile.friendlyName,
        calls: a.calls.count,
        recordings: a.recordings.count,
      }));
    },
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
    addCalls: async (sid, calls = {}) => asList(await admin('POST', `/accounts/${sid}/calls`, asList(calls))),
    addRecordings: async (sid, recordings = {}) =>
      asList(await admin('POST', `/accounts/${sid}/recordings`, asList(recordings))),
    requests: async (query = {}) => {
      const q = new URLSearchParams(
        Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]),
      ).toString();
      return ((await admin('GET', `/requests${q === '' ? '' : `?${q}`}`)) as { requests: JournalEntry[] }).requests;
    },
    faults: {
      add: async (fault) => (await admin('POST', '/faults', fault)) as Record<string, unknown> & { id: string },
      list: async () => ((await admin('GET', '/faults')) as { faults: Record<string, unknown>[] }).faults,
      remove: async (id) => {
        await admin('DELETE', `/faults/${encodeURIComponent(id)}`);
      },
      clear: async () => {
        await admin('DELETE', '/faults');
      },
    },
    close: (graceMs) => em.close(graceMs),
  };
}
