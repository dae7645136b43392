import { readFileSync } from 'node:fs';
import request from 'supertest';
import type { LogTransport } from '../../src/admin/log-transport';
import type { UiAsset } from '../../src/admin/ui-asset';
import type { EmulatorApp } from '../../src/app';
import { createApp } from '../../src/app';
import type { RenderCacheOptions } from '../../src/cache/render-cache';
import { DEFAULT_CLOCK, DEFAULT_FIXTURES, DEFAULT_SEED, DEFAULT_STATES } from '../../src/config';
import { parseInstant } from '../../src/format/dates';
import { API_VERSION, LIST_PATHS, MOUNT } from '../../src/format/uris';
import type { AccountSpec } from '../../src/generators/account-spec';
import type { ListName } from '../../src/generators/list-names';
import { loadUi, readStates } from '../../src/load';
import type { PagingProfile } from '../../src/query/paging';
import { parseFixtures } from '../../src/store/fixtures';
import { World } from '../../src/store/world';
import { validating } from './openapi';

export const PUBLIC_URL = 'http://127.0.0.1:8080';

export const defaultAccounts: AccountSpec[] = parseFixtures(readFileSync(DEFAULT_FIXTURES, 'utf8'), DEFAULT_FIXTURES);

export interface TestEmulator {
  app: EmulatorApp;
  world: World;
}

/** The inspector's files, read once for the whole suite. */
const UI = loadUi();

export function makeEmulator(
  options: {
    seed?: string;
    accounts?: AccountSpec[];
    paging?: PagingProfile;
    dialect?: 'spec' | 'restcomm' | 'twilio';
    maxPageSize?: number | null;
    cache?: RenderCacheOptions;
    journalSize?: number;
    strict?: boolean;
    serverZone?: string;
    adminToken?: string;
    adminHosts?: string[];
    cors?: boolean;
    /** The inspector's files: the real ones unless given. */
    ui?: Map<string, UiAsset>;
    /** How long X-Callrec-Version waits (default 5000 ms). */
    versionWaitMs?: number;
    callbackHosts?: string[];
    callbackTimeoutMs?: number;
    callbacksInBackground?: boolean;
    /** Where the write log is kept (default: this process alone), its entries' name, and its checkpoint span. */
    log?: LogTransport;
    replica?: string;
    checkpointEvery?: number;
    /** A test that changes the wire on purpose (a made-up envelope) is not held to openapi.json. */
    unchecked?: true;
  } = {},
): TestEmulator {
  const world = new World({
    seed: options.seed ?? DEFAULT_SEED,
    clockMs: parseInstant(DEFAULT_CLOCK) as number,
    accounts: options.accounts ?? defaultAccounts,
  });
  const app = createApp({
    world,
    paging: options.paging ?? 'production',
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
    maxPageSize: options.maxPageSize ?? null,
    publicUrl: PUBLIC_URL,
    ...(options.cache === undefined ? {} : { cache: options.cache }),
    ...(options.journalSize === undefined ? {} : { journalSize: options.journalSize }),
    strict: options.strict ?? false,
    ...(options.serverZone === undefined ? {} : { serverZone: options.serverZone }),
    cors: options.cors ?? false,
    states: readStates(DEFAULT_STATES),
    ui: options.ui ?? UI,
    adminToken: options.adminToken ?? null,
    adminHosts: options.adminHosts ?? [],
    ...(options.versionWaitMs === undefined ? {} : { versionWaitMs: options.versionWaitMs }),
    ...(options.callbackHosts === undefined ? {} : { callbackHosts: options.callbackHosts }),
    ...(options.callbackTimeoutMs === undefined ? {} : { callbackTimeoutMs: options.callbackTimeoutMs }),
    ...(options.callbacksInBackground === undefined ? {} : { callbacksInBackground: options.callbacksInBackground }),
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.replica === undefined ? {} : { replica: options.replica }),
    ...(options.checkpointEvery === undefined ? {} : { checkpointEvery: options.checkpointEvery }),
    onInternalError: () => undefined,
  });
  // Every response is checked against openapi.json; injected faults answer what they are told.
  return { app: validating(app, () => options.unchecked === true || app.faults.size > 0), world };
}

/** The default world's accounts by role, looked up by their fixture counts. */
export function byCalls(world: World, calls: number) {
  const a = world.accounts().find((x) => x.calls.count === calls);
  if (a === undefined) throw new Error(`no account with ${calls} calls`);
  return { sid: a.profile.sid, token: a.profile.token, store: a };
}

/**
 * A route pattern as the documents write it: `:accountSid` as `{AccountSid}` (sids and refs
 * capitalised, as the API's own names), `:sid`, `:id` and `:file` as they are.
 * @example asDocPath('/x/:accountSid/Calls/:callSid') // '/x/{AccountSid}/Calls/{CallSid}'
 */
export function asDocPath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) =>
    /.(Sid|Ref)$/.test(name) ? `{${name[0]?.toUpperCase()}${name.slice(1)}}` : `{${name}}`,
  );
}

/** The envelope's keys in production's order, before the items' key. */
/**
 * A call's members in production's order (`CallDetailRecordConverter`), written out here rather
 * than taken from the code under test; a record has a subset, in this order.
 */
export const CALL_MEMBER_ORDER = [
  'sid',
  'InstanceId',
  'date_created',
  'date_updated',
  'parent_call_sid',
  'account_sid',
  'to',
  'from',
  'phone_number_sid',
  'status',
  'start_time',
  'end_time',
  'duration',
  'price_unit',
  'direction',
  'answered_by',
  'api_version',
  'forwarded_from',
  'caller_name',
  'uri',
  'ring_duration',
  'subresource_uris',
];

export const ENVELOPE_KEYS = [
  'page',
  'num_pages',
  'page_size',
  'total',
  'start',
  'end',
  'uri',
  'first_page_uri',
  'previous_page_uri',
  'next_page_uri',
  'last_page_uri',
];

/** The path a client requests for a list of the registry. @example listPath('calls', 'AC1') // '/call/2012-04-24/Accounts/AC1/Calls.json' */
export function listPath(name: ListName, sid: string): string {
  return `${MOUNT}/${API_VERSION}/Accounts/${sid}/${LIST_PATHS[name].segment}.json`;
}

export function callsPath(sid: string): string {
  return listPath('calls', sid);
}

export function recordingsPath(sid: string): string {
  return listPath('recordings', sid);
}

/** GET with the token as the Basic user name and an empty password, as `curl -u TOKEN:` sends. */
export function authGet(app: EmulatorApp, path: string, token: string) {
  return request(app).get(path).auth(token, '');
}

/** All items of a list, walking pages of `pageSize` with the given extra query. */
export async function allItems(
  app: EmulatorApp,
  path: string,
  token: string,
  key: ListName,
  extra = '',
  pageSize = 1000,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page = 0; ; page++) {
    const res = await authGet(app, `${path}?Page=${page}&PageSize=${pageSize}${extra}`, token);
    if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
    items.push(...(res.body[key] as Record<string, unknown>[]));
    if (res.body.next_page_uri === 'null') return items;
  }
}
