/**
 * Every path and URI the emulator serves or prints, in one place.
 *
 * Production is inconsistent, and we copy it: the calls list's `uri` has neither the `/call`
 * prefix nor `.json`, the recordings list's `uri` has both, and item `uri`s have `.json` but no
 * `/call` (docs/quirks.md).
 */

import { type ListName, perList } from '../generators/list-names';

/** The one interface version; any other version segment is a 404. */
export const API_VERSION = '2012-04-24';
/** The prefix under which the service is mounted. */
export const MOUNT = '/call';

/** Where Restcomm Connect itself is deployed: its servlet context, `/restcomm`. */
export const RESTCOMM_MOUNT = '/restcomm';

/** Where a Restcomm deployment serves its admin console, which `--restcomm-console` serves too. */
export const CONSOLE_MOUNT = '/restcomm-management';

/**
 * Express route patterns of the API under one mount prefix. The list routes take an optional
 * `.json` (see routes/).
 * @example apiRoutes('/call').calls // '/call/2012-04-24/Accounts/:accountSid/Calls{.json}'
 */
export function apiRoutes(mount: string) {
  const base = `${mount}/${API_VERSION}/Accounts`;
  const lists = perList((name) => `${base}/:accountSid/${LIST_PATHS[name].segment}{.json}`);
  return {
    accounts: `${base}{.json}`,
    account: `${base}/:accountRef{.json}`,
    ...lists,
    call: `${base}/:accountSid/Calls/:callSid{.json}`,
    callRecordings: `${base}/:accountSid/Calls/:callSid/Recordings{.json}`,
    callNotifications: `${base}/:accountSid/Calls/:callSid/Notifications{.json}`,
    recording: `${base}/:accountSid/Recordings/:recordingSid{.json}`,
    notification: `${base}/:accountSid/Notifications/:notificationSid{.json}`,
    recordingAudio: `${base}/:accountSid/Recordings/:recordingSid.wav`,
    recordingMp4: `${base}/:accountSid/Recordings/:recordingSid.mp4`,
  } as const;
}
export type ApiRoutes = ReturnType<typeof apiRoutes>;

/**
 * The list routes' paths (`apiRoutes(mount)[list]`) under the given mounts as one pattern, for
 * the list lane: the mount, the account sid (letters and digits only: anything an express route
 * would decode first is left to express) and the list's segment, `.json` or not.
 * @example listPathPattern(['/call']).exec('/call/2012-04-24/Accounts/AC1/Calls.json') // ['…', '/call', 'AC1', 'Calls', '.json']
 */
export function listPathPattern(mounts: readonly string[]): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const segments = Object.values(LIST_PATHS).map((p) => p.segment);
  return new RegExp(
    `^(${mounts.map(literal).join('|')})/${API_VERSION}/Accounts/([A-Za-z0-9]+)/(${segments.join('|')})(\\.json)?$`,
  );
}

/**
 * How each list is named in paths, and how it prints its own `uri`. Production is inconsistent,
 * and we copy it: `servlet`, from the API version alone (no mount, no `.json`), as the calls
 * list does in every dialect; `request`, from the path the request came on, as the recordings
 * list does (see `Dialect.requestListUri`).
 */
export const LIST_PATHS: { readonly [K in ListName]: { segment: string; uri: 'servlet' | 'request' } } = {
  calls: { segment: 'Calls', uri: 'servlet' },
  recordings: { segment: 'Recordings', uri: 'request' },
  notifications: { segment: 'Notifications', uri: 'request' },
};

/** The service's own routes, under `/call`, and the index. */
export const routes = { index: '/', ...apiRoutes(MOUNT) } as const;

export type DialectName = 'spec' | 'restcomm' | 'twilio';

/**
 * What differs between the service as specified and a plain Restcomm Connect deployment, for
 * clients written for the latter (`--dialect restcomm`).
 */
export interface Dialect {
  name: DialectName;
  /** Prefixes the API answers under; `''` is the servlet path the calls list prints its links on. */
  mounts: readonly string[];
  /** Where `file_uri` points: production formats `/restcomm/…` into it, whatever the request. */
  fileMount: string;
  /** The `uri` a list of the `request` style prints, given its path segment and the mount the request came under. */
  requestListUri(accountSid: string, segment: string, mount: string): string;
  /** Whether `AccountSid:AuthToken` (or the account's email) logs in, and the account resource answers. */
  restcommAccounts: boolean;
}

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  spec: {
    name: 'spec',
    mounts: [MOUNT],
    fileMount: MOUNT,
    // The documented form, from before production stripped `.json` from the request path.
    requestListUri: (accountSid, segment) => `${MOUNT}${accountPath(accountSid)}/${segment}.json`,
    restcommAccounts: false,
  },
  restcomm: {
    name: 'restcomm',
    // Restcomm prints the calls list's links on its servlet path and the recordings list's on the
    // request path: serving all three makes every printed uri requestable as it stands.
    mounts: [RESTCOMM_MOUNT, MOUNT, ''],
    fileMount: RESTCOMM_MOUNT,
    // The request path after AcceptFilter has stripped `.json` (the SDK fixtures since 2018).
    requestListUri: (accountSid, segment, mount) => `${mount}${accountPath(accountSid)}/${segment}`,
    restcommAccounts: true,
  },
  twilio: {
    name: 'twilio',
    // Twilio's paths are its own (`twilioRoutes`): no Restcomm mount.
    mounts: [],
    fileMount: '',
    requestListUri: (accountSid, segment) => twilioListUri(accountSid, segment),
    restcommAccounts: true,
  },
};

/** Twilio's API version, the first segment of every path of its dialect. */
export const TWILIO_VERSION = '2010-04-01';

/**
 * Express route patterns of Twilio's API (`--dialect twilio`): JSON by `.json`, and a
 * recording's audio by `.wav`, `.mp3` or no suffix.
 * @example twilioRoutes().calls // '/2010-04-01/Accounts/:accountSid/Calls.json'
 */
export function twilioRoutes() {
  const base = `/${TWILIO_VERSION}/Accounts`;
  const call = `${base}/:accountSid/Calls/:callSid`;
  const recording = `${base}/:accountSid/Recordings/:recordingSid`;
  return {
    accounts: `${base}.json`,
    account: `${base}/:accountSid.json`,
    calls: `${base}/:accountSid/Calls.json`,
    call: `${call}.json`,
    callRecordings: `${call}/Recordings.json`,
    callNotifications: `${call}/Notifications.json`,
    callEvents: `${call}/Events.json`,
    recordings: `${base}/:accountSid/Recordings.json`,
    recording: `${recording}.json`,
    recordingWav: `${recording}.wav`,
    recordingMp3: `${recording}.mp3`,
    recordingMedia: recording,
  } as const;
}

/** The accounts list. @example twilioAccountsUri() // '/2010-04-01/Accounts.json' */
export function twilioAccountsUri(): string {
  return `/${TWILIO_VERSION}/Accounts.json`;
}

/** @example twilioAccountUri('AC1') // '/2010-04-01/Accounts/AC1.json' */
export function twilioAccountUri(accountSid: string): string {
  return `/${TWILIO_VERSION}/Accounts/${accountSid}.json`;
}

/** A list's path under an account, or under a call of it. @example twilioListUri('AC1', 'Calls') // '/2010-04-01/Accounts/AC1/Calls.json' */
export function twilioListUri(accountSid: string, segment: string): string {
  return `/${TWILIO_VERSION}/Accounts/${accountSid}/${segment}.json`;
}

/** @example twilioCallUri('AC1', 'CA2') // '/2010-04-01/Accounts/AC1/Calls/CA2.json' */
export function twilioCallUri(accountSid: string, callSid: string, sub = ''): string {
  return twilioListUri(accountSid, `Calls/${callSid}${sub === '' ? '' : `/${sub}`}`);
}

/** @example twilioRecordingUri('AC1', 'RE2', 'Transcriptions') // '/2010-04-01/Accounts/AC1/Recordings/RE2/Transcriptions.json' */
export function twilioRecordingUri(accountSid: string, recordingSid: string, sub = ''): string {
  return twilioListUri(accountSid, `Recordings/${recordingSid}${sub === '' ? '' : `/${sub}`}`);
}

/** A notification under its call, as Twilio prints it. @example twilioNotificationUri('AC1', 'CA2', 'NO3') // '/2010-04-01/Accounts/AC1/Calls/CA2/Notifications/NO3.json' */
export function twilioNotificationUri(accountSid: string, callSid: string, notificationSid: string): string {
  return twilioCallUri(accountSid, callSid, `Notifications/${notificationSid}`);
}

/**
 * A recording's audio, absolute, without a suffix, as Twilio's `media_url` (its default format
 * is WAV; `.mp3` and `.wav` name one).
 * @example twilioMediaUrl('http://127.0.0.1:8080', 'AC1', 'RE2') // 'http://127.0.0.1:8080/2010-04-01/Accounts/AC1/Recordings/RE2'
 */
export function twilioMediaUrl(publicUrl: string, accountSid: string, recordingSid: string): string {
  return `${publicUrl}/${TWILIO_VERSION}/Accounts/${accountSid}/Recordings/${recordingSid}`;
}

/** Twilio's page of documentation for an error code, its errors' `more_info`. @example twilioErrorInfo(20404) // 'https://www.twilio.com/docs/errors/20404' */
export function twilioErrorInfo(code: number): string {
  return `https://www.twilio.com/docs/errors/${code}`;
}

/** The prefix-less form of the service's paths, as production prints them in `uri` values. */
export const PRINTED_PATH = new RegExp(`^/${API_VERSION}/Accounts/`);

/** A printed path made requestable: the `/call` prefix, and `.json` when it has no suffix. @example requestablePath('/2012-04-24/Accounts/AC1/Calls') // '/call/2012-04-24/Accounts/AC1/Calls.json' */
export function requestablePath(printed: string): string {
  return `${MOUNT}${printed}${/\.(json|wav)$/.test(printed) ? '' : '.json'}`;
}

/** @example callNotificationsListUri('AC1', 'ID1-CA2') // '/2012-04-24/Accounts/AC1/Calls/ID1-CA2/Notifications' */
export function callNotificationsListUri(accountSid: string, callSid: string): string {
  return `${accountPath(accountSid)}/Calls/${callSid}/Notifications`;
}

/** The admin API's route patterns, under WireMock's `/__admin`. */
export const ADMIN = '/__admin';
export const adminRoutes = {
  health: `${ADMIN}/health`,
  clock: `${ADMIN}/clock`,
  reset: `${ADMIN}/reset`,
  seed: `${ADMIN}/seed`,
  data: `${ADMIN}/data`,
  accounts: `${ADMIN}/accounts`,
  account: `${ADMIN}/accounts/:sid`,
  accountReset: `${ADMIN}/accounts/:sid/reset`,
  accountRestart: `${ADMIN}/accounts/:sid/restart`,
  calls: `${ADMIN}/accounts/:sid/calls`,
  call: `${ADMIN}/accounts/:sid/calls/:callSid`,
  recordingCounts: `${ADMIN}/accounts/:sid/recording-counts`,
  recordings: `${ADMIN}/accounts/:sid/recordings`,
  recording: `${ADMIN}/accounts/:sid/recordings/:recordingSid`,
  accountState: `${ADMIN}/accounts/:sid/state`,
  accountStateHash: `${ADMIN}/accounts/:sid/state/hash`,
  state: `${ADMIN}/state`,
  stateHash: `${ADMIN}/state/hash`,
  requests: `${ADMIN}/requests`,
  request: `${ADMIN}/requests/:id`,
  walks: `${ADMIN}/walks`,
  builds: `${ADMIN}/builds`,
  callbacks: `${ADMIN}/callbacks`,
  sandboxes: `${ADMIN}/sandboxes`,
  sandbox: `${ADMIN}/sandboxes/:sid`,
  sandboxClock: `${ADMIN}/sandboxes/:sid/clock`,
  faults: `${ADMIN}/faults`,
  fault: `${ADMIN}/faults/:id`,
  providerStates: `${ADMIN}/provider-states`,
  openapi: `${ADMIN}/openapi.json`,
  ui: `${ADMIN}/ui`,
  uiFile: `${ADMIN}/ui/:file`,
} as const;

/** @example accountPath('AC1') // '/2012-04-24/Accounts/AC1' */
function accountPath(accountSid: string): string {
  return `/${API_VERSION}/Accounts/${accountSid}`;
}

/**
 * The `uri` a list prints, in its style (see LIST_PATHS), for a request under `mount`.
 * @example listUri('calls', 'AC1', DIALECTS.restcomm, '/restcomm') // '/2012-04-24/Accounts/AC1/Calls'
 * @example listUri('recordings', 'AC1', DIALECTS.spec, '/call') // '/call/2012-04-24/Accounts/AC1/Recordings.json'
 */
export function listUri(name: ListName, accountSid: string, dialect: Dialect, mount: string): string {
  const { segment, uri } = LIST_PATHS[name];
  return uri === 'servlet'
    ? `${accountPath(accountSid)}/${segment}`
    : dialect.requestListUri(accountSid, segment, mount);
}

/** @example callsListUri('AC1') // '/2012-04-24/Accounts/AC1/Calls' */
export function callsListUri(accountSid: string): string {
  return listUri('calls', accountSid, DIALECTS.spec, MOUNT);
}

/** The path a client requests for the calls list. @example callsListPath('AC1') // '/call/2012-04-24/Accounts/AC1/Calls.json' */
export function callsListPath(accountSid: string): string {
  return listPath('calls', accountSid);
}

/** The path a client requests for a list. @example listPath('recordings', 'AC1') // '/call/2012-04-24/Accounts/AC1/Recordings.json' */
export function listPath(name: ListName, accountSid: string): string {
  return `${MOUNT}${accountPath(accountSid)}/${LIST_PATHS[name].segment}.json`;
}

/**
 * What ends a record's printed path: `.json` in JSON; nothing in XML, where production prints the
 * path as stored.
 */
export type UriSuffix = '.json' | '';

/**
 * What a call's URIs print around its sid, so that a writer of many calls of one account can
 * build the account's part once: `calls + sid + own` is `callUri`, and `calls + sid +
 * notifications` (or `recordings`) is `callSubresourceUri`.
 * @example callUriParts('AC1', '.json') // { calls: '/2012-04-24/Accounts/AC1/Calls/', own: '.json', notifications: '/Notifications.json', recordings: '/Recordings.json' }
 */
export function callUriParts(
  accountSid: string,
  suffix: UriSuffix,
): Readonly<Record<'calls' | 'own' | 'notifications' | 'recordings', string>> {
  return {
    calls: `${accountPath(accountSid)}/Calls/`,
    own: suffix,
    notifications: `/${'Notifications' satisfies CallSubresource}${suffix}`,
    recordings: `/${'Recordings' satisfies CallSubresource}${suffix}`,
  };
}

/** @example callUri('AC1', 'ID1-CA2') // '/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json' */
export function callUri(accountSid: string, callSid: string, suffix: UriSuffix = '.json'): string {
  const parts = callUriParts(accountSid, suffix);
  return `${parts.calls}${callSid}${parts.own}`;
}

/** @example callSubresourceUri('AC1', 'ID1-CA2', 'Recordings') // '/2012-04-24/Accounts/AC1/Calls/ID1-CA2/Recordings.json' */
export function callSubresourceUri(
  accountSid: string,
  callSid: string,
  sub: CallSubresource,
  suffix: UriSuffix = '.json',
): string {
  const parts = callUriParts(accountSid, suffix);
  return `${parts.calls}${callSid}${sub === 'Notifications' ? parts.notifications : parts.recordings}`;
}

/** The lists under a call that its `subresource_uris` name. */
export type CallSubresource = 'Notifications' | 'Recordings';

/** @example recordingUri('AC1', 'RE1') // '/2012-04-24/Accounts/AC1/Recordings/RE1.json' */
export function recordingUri(accountSid: string, recordingSid: string, suffix: UriSuffix = '.json'): string {
  return `${accountPath(accountSid)}/Recordings/${recordingSid}${suffix}`;
}

/** @example notificationUri('AC1', 'NO1') // '/2012-04-24/Accounts/AC1/Notifications/NO1.json' */
export function notificationUri(accountSid: string, notificationSid: string, suffix: UriSuffix = '.json'): string {
  return `${accountPath(accountSid)}/Notifications/${notificationSid}${suffix}`;
}

/**
 * A notification's `more_info`: production's error dictionary (`/restcomm/errors`, resolved
 * against its base URL) and the code's page, under the same base as `file_uri`.
 * @example errorInfoUri('http://127.0.0.1:8080/restcomm', 11100) // 'http://127.0.0.1:8080/restcomm/errors/11100.html'
 */
export function errorInfoUri(fileBase: string, code: number): string {
  return `${fileBase}/errors/${code}.html`;
}

/**
 * Absolute, as production resolves it against its own base URL. `fileBase` is the public URL
 * and the dialect's mount (see `fileBaseOf`).
 * @example recordingFileUri('http://127.0.0.1:8080/call', 'AC1', 'RE1') // 'http://127.0.0.1:8080/call/2012-04-24/Accounts/AC1/Recordings/RE1.wav'
 */
export function recordingFileUri(fileBase: string, accountSid: string, recordingSid: string): string {
  return `${fileBase}${accountPath(accountSid)}/Recordings/${recordingSid}.wav`;
}

/** @example fileBaseOf('http://127.0.0.1:8080', DIALECTS.restcomm) // 'http://127.0.0.1:8080/restcomm' */
export function fileBaseOf(publicUrl: string, dialect: Dialect): string {
  return `${publicUrl}${dialect.fileMount}`;
}

/**
 * An account as Restcomm prints its own `uri`: from the API version alone (no `/restcomm`), the
 * JSON form with `.json` on `Accounts`.
 * @example accountResourceUri('AC1') // '/2012-04-24/Accounts.json/AC1'
 */
export function accountResourceUri(accountSid: string): string {
  return `/${API_VERSION}/Accounts.json/${accountSid}`;
}

/** @example accountSubresourceUri('AC1', 'Calls') // '/2012-04-24/Accounts/AC1/Calls.json' */
export function accountSubresourceUri(accountSid: string, name: string, suffix: UriSuffix = '.json'): string {
  return `${accountPath(accountSid)}/${name}${suffix}`;
}

/**
 * An account's `uri` as stored, which production's XML prints as it stands (its JSON builds
 * another, see `accountResourceUri`).
 * @example accountStoredUri('AC1') // '/2012-04-24/Accounts/AC1'
 */
export function accountStoredUri(accountSid: string): string {
  return accountPath(accountSid);
}

/**
 * A page link: only Page and PageSize, plus AfterSid on the next link, as production; never
 * SortBy or filters.
 * @example pageUri('/x', 1, 50, 'CA9') // '/x?Page=1&PageSize=50&AfterSid=CA9'
 */
export function pageUri(listUri: string, page: number, pageSize: number, afterSid?: string): string {
  const base = `${listUri}?Page=${page}&PageSize=${pageSize}`;
  return afterSid === undefined ? base : `${base}&AfterSid=${afterSid}`;
}
