/**
 * Every path and URI the emulator serves or prints, in one place.
 *
 * Production is inconsistent, and we copy it: the calls list's `uri` has neither the `/call`
 * prefix nor `.json`, the recordings list's `uri` has both, and item `uri`s have `.json` but no
 * `/call` (README, "Production quirks we copy").
 */

/** The one interface version; any other version segment is a 404. */
export const API_VERSION = '2012-04-24';
/** The prefix under which the service is mounted. */
export const MOUNT = '/call';

/** Express route patterns. The list routes take an optional `.json` (see routes/). */
export const routes = {
  index: '/',
  calls: `${MOUNT}/${API_VERSION}/Accounts/:accountSid/Calls{.json}`,
  recordings: `${MOUNT}/${API_VERSION}/Accounts/:accountSid/Recordings{.json}`,
  call: `${MOUNT}/${API_VERSION}/Accounts/:accountSid/Calls/:callSid{.json}`,
  callRecordings: `${MOUNT}/${API_VERSION}/Accounts/:accountSid/Calls/:callSid/Recordings{.json}`,
  callNotifications: `${MOUNT}/${API_VERSION}/Accounts/:accountSid/Calls/:callSid/Notifications{.json}`,
  recording: `${MOUNT}/${API_VERSION}/Accounts/:accountSid/Recordings/:recordingSid{.json}`,
  recordingAudio: `${MOUNT}/${API_VERSION}/Accounts/:accountSid/Recordings/:recordingSid.wav`,
} as const;

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
  reset: `${ADMIN}/reset`,
  seed: `${ADMIN}/seed`,
  accounts: `${ADMIN}/accounts`,
  account: `${ADMIN}/accounts/:sid`,
  accountReset: `${ADMIN}/accounts/:sid/reset`,
  calls: `${ADMIN}/accounts/:sid/calls`,
  call: `${ADMIN}/accounts/:sid/calls/:callSid`,
  recordings: `${ADMIN}/accounts/:sid/recordings`,
  recording: `${ADMIN}/accounts/:sid/recordings/:recordingSid`,
  state: `${ADMIN}/state`,
  stateHash: `${ADMIN}/state/hash`,
  requests: `${ADMIN}/requests`,
  faults: `${ADMIN}/faults`,
  fault: `${ADMIN}/faults/:id`,
  providerStates: `${ADMIN}/provider-states`,
  openapi: `${ADMIN}/openapi.json`,
} as const;

/** @example accountPath('AC1') // '/2012-04-24/Accounts/AC1' */
function accountPath(accountSid: string): string {
  return `/${API_VERSION}/Accounts/${accountSid}`;
}

/** @example callsListUri('AC1') // '/2012-04-24/Accounts/AC1/Calls' */
export function callsListUri(accountSid: string): string {
  return `${accountPath(accountSid)}/Calls`;
}

/** @example recordingsListUri('AC1') // '/call/2012-04-24/Accounts/AC1/Recordings.json' */
export function recordingsListUri(accountSid: string): string {
  return `${MOUNT}${accountPath(accountSid)}/Recordings.json`;
}

/** The path a client requests for the calls list. @example callsListPath('AC1') // '/call/2012-04-24/Accounts/AC1/Calls.json' */
export function callsListPath(accountSid: string): string {
  return `${MOUNT}${accountPath(accountSid)}/Calls.json`;
}

/** @example callUri('AC1', 'ID1-CA2') // '/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json' */
export function callUri(accountSid: string, callSid: string): string {
  return `${accountPath(accountSid)}/Calls/${callSid}.json`;
}

/** @example callSubresourceUri('AC1', 'ID1-CA2', 'Recordings') // '/2012-04-24/Accounts/AC1/Calls/ID1-CA2/Recordings.json' */
export function callSubresourceUri(accountSid: string, callSid: string, sub: 'Notifications' | 'Recordings'): string {
  return `${accountPath(accountSid)}/Calls/${callSid}/${sub}.json`;
}

/** @example recordingUri('AC1', 'RE1') // '/2012-04-24/Accounts/AC1/Recordings/RE1.json' */
export function recordingUri(accountSid: string, recordingSid: string): string {
  return `${accountPath(accountSid)}/Recordings/${recordingSid}.json`;
}

/**
 * Absolute, as production resolves it against its own base URL.
 * @example recordingFileUri('http://127.0.0.1:8080', 'AC1', 'RE1') // 'http://127.0.0.1:8080/call/2012-04-24/Accounts/AC1/Recordings/RE1.wav'
 */
export function recordingFileUri(publicUrl: string, accountSid: string, recordingSid: string): string {
  return `${publicUrl}${MOUNT}${accountPath(accountSid)}/Recordings/${recordingSid}.wav`;
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
