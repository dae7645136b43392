import { adminRoutes as paths } from '../format/uris';
import * as accounts from './accounts';
import { STATE_BODY_BYTES } from './body-limits';
import { listBuilds } from './builds';
import * as callbacks from './callbacks';
import * as clock from './clock';
import type { AdminHandler } from './context';
import * as data from './data';
import * as faults from './faults';
import { health, openapi } from './health';
import * as journal from './journal';
import * as states from './provider-states';
import * as records from './records';
import * as sandboxes from './sandboxes';
import * as state from './state';
import * as ui from './ui';
import * as walkReports from './walks';

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface AdminRoute {
  method: AdminMethod;
  path: string;
  handler: AdminHandler;
  /** Bytes the body may have (default ADMIN_BODY_BYTES). */
  bodyBytes?: number;
  /** A POST that only reads (a query too long for a URL): it skips the write log. */
  read?: true;
}

const route = (method: AdminMethod, path: string, handler: AdminHandler, bodyBytes?: number): AdminRoute =>
  bodyBytes === undefined ? { method, path, handler } : { method, path, handler, bodyBytes };

/**
 * Every admin endpoint, as WireMock's `AdminRoutes` lists its own: the whole admin API on one
 * page. `/__admin` follows WireMock's conventions: JSON in and out, mutations by POST, PUT or
 * DELETE, a rejected call changes nothing, any other method on a listed path is a 405.
 */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  route('GET', paths.health, health),
  route('GET', paths.openapi, openapi),

  route('GET', paths.clock, clock.getClock),
  route('POST', paths.clock, clock.moveClock),

  route('POST', paths.reset, accounts.resetAll),
  route('GET', paths.sandboxes, sandboxes.listSandboxes),
  route('POST', paths.sandboxes, sandboxes.createSandbox),
  route('DELETE', paths.sandboxes, sandboxes.deleteRunSandboxes),
  route('DELETE', paths.sandbox, sandboxes.deleteSandbox),
  route('GET', paths.sandboxClock, sandboxes.getSandboxClock),
  route('POST', paths.sandboxClock, sandboxes.moveSandboxClock),
  route('POST', paths.seed, accounts.reseed),
  route('POST', paths.data, data.importData, STATE_BODY_BYTES),
  route('GET', paths.accounts, accounts.listAccounts),
  route('POST', paths.accounts, accounts.createAccount),
  route('GET', paths.account, accounts.getAccount),
  route('DELETE', paths.account, accounts.deleteAccount),
  route('POST', paths.accountReset, accounts.resetAccount),
  route('POST', paths.accountRestart, accounts.restartAccount),

  route('POST', paths.calls, records.insertCalls),
  route('DELETE', paths.call, records.deleteCall),
  { ...route('POST', paths.recordingCounts, records.recordingCounts), read: true },
  route('POST', paths.recordings, records.insertRecordings),
  route('DELETE', paths.recording, records.deleteRecording),

  route('GET', paths.state, state.getState),
  route('PUT', paths.state, state.putState, STATE_BODY_BYTES),
  route('GET', paths.stateHash, state.getStateHash),
  route('GET', paths.accountState, state.getAccountState),
  route('GET', paths.accountStateHash, state.getAccountStateHash),

  route('GET', paths.requests, journal.listRequests),
  route('DELETE', paths.requests, journal.clearRequests),
  route('GET', paths.request, journal.getRequest),
  route('GET', paths.walks, walkReports.listWalks),
  route('GET', paths.builds, listBuilds),
  route('GET', paths.callbacks, callbacks.listCallbacks),
  route('DELETE', paths.callbacks, callbacks.clearCallbacks),

  route('GET', paths.faults, faults.listFaults),
  route('POST', paths.faults, faults.addFault),
  route('DELETE', paths.faults, faults.clearFaults),
  route('GET', paths.fault, faults.getFault),
  route('DELETE', paths.fault, faults.deleteFault),

  route('GET', paths.ui, ui.uiPage),
  route('GET', paths.uiFile, ui.uiFile),

  route('GET', paths.providerStates, states.listStates),
  route('POST', paths.providerStates, states.setState),
];
