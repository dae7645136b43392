import type { CallbackDesk } from '../callbacks/callback-desk';
import { ApiError, messages, problems, ValidationError } from '../errors';
import type { Faults } from '../faults/faults';
import type { Dialect } from '../format/uris';
import { queryOf } from '../input/fields';
import type { Journal } from '../journal/journal';
import type { PagingProfile } from '../query/paging';
import type { Account, World } from '../store/world';
import type { FleetLink } from './log-transport';
import type { AdminReply, AdminRequest } from './reply';
import type { StateDef } from './state-defs';
import type { UiAsset } from './ui-asset';
import type { WriteLog } from './write-log';

/** Everything an admin handler may read or change. */
export interface AdminContext {
  world: World;
  journal: Journal;
  faults: Faults;
  states: ReadonlyMap<string, StateDef>;
  /** The inspector's files by name. */
  ui: ReadonlyMap<string, UiAsset>;
  /** Base of `file_uri`, without a trailing slash. */
  publicUrl: string;
  paging: PagingProfile;
  dialect: Dialect;
  strict: boolean;
  /** The server's time zone: a walk's filters name days in it, as the list route read them. */
  serverZone: string;
  /** Seconds since start, for the health check; never shapes data. */
  uptime: () => number;
  /** The ordered log every write goes through (this process's, the primary's, or Redis's). */
  log: WriteLog;
  /** The fleet this replica is one of (alone: itself only), for `?fleet=true`. */
  fleet: Pick<FleetLink, 'gather'>;
  /** Created calls' status callbacks: delivery and journal. */
  callbacks: CallbackDesk;
  /** Hosts besides loopback that a StatusCallback may name (`--callback-hosts`). */
  callbackHosts: readonly string[];
  /** A clock move answers before its callbacks are delivered (`--callbacks-in-background`). */
  callbacksInBackground: boolean;
}

/** A handler answers at once, or (long work, done in slices) later. */
export type AdminHandler = (ctx: AdminContext, req: AdminRequest) => AdminReply | Promise<AdminReply>;

/** The account a path's `:sid` names, or a 404. */
export function accountOf(ctx: AdminContext, req: AdminRequest): Account {
  const sid = req.params['sid'] ?? '';
  const found = ctx.world.account(sid);
  if (found === undefined) throw new ApiError(404, messages.noAccount(sid));
  return found;
}

/** Deletes an account (a sandbox too) and the faults scoped to it, which could never fire again. */
export function endAccount(ctx: AdminContext, sid: string): void {
  ctx.world.deleteAccount(sid);
  ctx.faults.removeScopedTo(sid);
}

/**
 * A global write that would end live sandboxes (a reset, a new seed, a state import) is refused
 * with a 409 naming them unless the request says `?force=true`: other test workers sharing this
 * emulator may be using them, and only a write meant for the whole emulator may end them.
 */
export function refuseIfSandboxes(ctx: AdminContext, req: AdminRequest, what: string, retry: string): void {
  const live = ctx.world.sandboxes().map((s) => s.sid);
  if (live.length > 0 && new URLSearchParams(req.query).get('force') !== 'true') {
    throw new ApiError(409, messages.endsSandboxes(what, live, retry));
  }
}

/**
 * The `account` a clearing call is scoped to (`DELETE /__admin/faults?account=sid`), or undefined
 * for all; any other parameter is a 400, so a typo never clears everything.
 */
export function scopedAccount(rawQuery: string): string | undefined {
  const account = queryOf(rawQuery, ['account']).get('account');
  if (account === null) return undefined;
  if (account === '') throw new ValidationError('query.account', problems.nonEmptyString);
  return account;
}

/** What a reset or a new seed also clears: the requests seen, the faults set, the callbacks sent. */
export function clearHarness(ctx: AdminContext): void {
  ctx.journal.clear();
  ctx.faults.clear();
  ctx.callbacks.reset();
}

/** Whether a report's query asks for the whole fleet (`fleet=true`); a 400 for any other value. */
export function fleetAsked(rawQuery: string): boolean {
  const fleet = new URLSearchParams(rawQuery).get('fleet');
  if (fleet !== null && fleet !== 'true' && fleet !== 'false')
    throw new ValidationError('query.fleet', problems.flag(fleet));
  return fleet === 'true';
}
