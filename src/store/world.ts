import { problems, ValidationError } from '../errors';
import {
  accountEmail,
  accountSid,
  makeAccountProfile,
  makeWorldContext,
  type WorldContext,
} from '../generators/account';
import type { HazardSpec } from '../generators/account-spec';
import { type AccountSpec, MAX_ACCOUNT_LEVELS } from '../generators/account-spec';
import type { CallRecord } from '../generators/call-record';
import { LIST_NAMES } from '../generators/list-names';
import type { RecordingRecord } from '../generators/recording';
import { Stream } from '../random/stream';
import { type Account, AccountStore } from './account';
import { checkHierarchy, lineage } from './hierarchy';
import { markWrite } from './overlay';
import { STORE_LISTS } from './table-kinds';

export type { Account } from './account';

/** Everything the data is a pure function of. */
export interface WorldSpec {
  seed: string;
  /** The reference instant, milliseconds since the epoch. */
  clockMs: number;
  accounts: readonly AccountSpec[];
}

/** Where a sandbox came from: a live account, or an account of a state export (`source: 'state'`). */
export interface Fork {
  from: string;
  source: 'account' | 'state';
  name: string;
  /**
   * Unique in the world, never reused (not even after a reset or an import gives a sid back):
   * a TTL timer ends only the sandbox it was set for.
   */
  serial: number;
  /** The test run that made it (`run`), so that the run's teardown can end what a killed worker left. */
  run?: string;
}

/** See World.forkBook. */
export interface ForkBook {
  made: number;
  serial: number;
  forks: ({ sid: string } & Fork)[];
}

/** Friendly names are at most this long (fixtures, the admin API, state imports). */
const NAME_CHARS = 200;

/**
 * A sandbox's default name: the parent's, less a sandbox suffix it has, then this one's. A fork of
 * a fork of a fork reads "Acme (sandbox 3)", never "Acme (sandbox 1) (sandbox 2) (sandbox 3)",
 * and no name grows past what an import of the emulator's own export accepts.
 * @example defaultForkName('Acme (sandbox 1)', 2) // 'Acme (sandbox 2)'
 */
export function defaultForkName(parent: string, n: number): string {
  const suffix = ` (sandbox ${n})`;
  return `${parent.replace(/ \(sandbox \d+\)$/, '').slice(0, NAME_CHARS - suffix.length)}${suffix}`;
}

/** The smallest name ordinal whose derived sid is free: re-creating a deleted account gives it back its sid. */
function freeOrdinal(seed: string, friendlyName: string, taken: (sid: string) => boolean): number {
  let ordinal = 0;
  while (taken(accountSid(seed, friendlyName, ordinal))) ordinal++;
  return ordinal;
}

function build(spec: WorldSpec): { context: WorldContext; accounts: AccountStore[] } {
  const context = makeWorldContext(spec.seed, spec.clockMs);
  const nameOrdinals = new Map<string, number>();
  const accounts = spec.accounts.map((a) => {
    const ordinal = nameOrdinals.get(a.friendlyName) ?? 0;
    nameOrdinals.set(a.friendlyName, ordinal + 1);
    return new AccountStore(context, makeAccountProfile(spec.seed, a, ordinal), a);
  });
  // A sid or token given in one account may equal one derived for another; say so, once, here.
  // Production's own accounts may share a token (it is the MD5 of a password).
  for (const key of ['sid', 'token'] as const) {
    const seen = new Map<string, number>();
    accounts.forEach((a, i) => {
      if (key === 'token' && a.spec.verbatim !== undefined) return;
      const earlier = seen.get(a.profile[key]);
      if (earlier !== undefined) {
        throw new ValidationError(
          `accounts[${i}].${key}`,
          problems.sameUnderSeed(key, `accounts[${earlier}]`, spec.seed),
        );
      }
      seen.set(a.profile[key], i);
    });
  }
  checkHierarchy(
    accounts.map((a) => ({ sid: a.profile.sid, parent: a.spec.parent, asStored: a.spec.verbatim !== undefined })),
    (i) => `accounts[${i}].parent`,
  );
  return { context, accounts };
}

/**
 * All accounts and their records, and the only writer of them. Records are made on read; the
 * world keeps identities, counts, the sort orders built so far, and the admin writes as
 * overlays. Every method that changes what the API shows bumps `version` itself, so the caches
 * of rendered bytes cannot miss a write.
 */
export class World {
  private spec: WorldSpec;
  private context!: WorldContext;
  /** The accounts built from the spec: a reset reuses them (and their sort orders) after dropping writes. */
  private base: AccountStore[] = [];
  /** The accounts by sid, in the order they came: adding or ending one is O(1), whatever the count. */
  private bySid = new Map<string, AccountStore>();
  /** The accounts of each token: one, but for production's own accounts, which may share one. */
  private byToken = new Map<string, AccountStore[]>();
  private byEmail = new Map<string, AccountStore>();
  /** `accounts()` as an array, made again only after a change. */
  private listed: AccountStore[] | null = null;
  private stateVersion = 0;
  /** Sandboxes by sid, with the account each was forked from; a reset ends them all. */
  private forks = new Map<string, Fork>();
  /** Forks made since the last reset: numbers the next one's identity. */
  private forksMade = 0;
  /** Forks ever made or brought in by an import: see Fork.serial. */
  private forkSerial = 0;
  /** --clock-rate: the clock follows a wall clock from an anchor (local use, not deterministic). */
  private follow: { rate: number; wall: () => number; wallAt: number; clockAt: number } | null = null;

  /** What this world was made with: `POST /__admin/seed {"start": true}` goes back to it. */
  readonly startSpec: WorldSpec;

  constructor(spec: WorldSpec) {
    this.spec = spec;
    this.startSpec = spec;
    this.rebuild();
  }

  get seed(): string {
    return this.spec.seed;
  }

  /** The reference instant: where the clock starts, and where a reset puts it back. */
  get clockMs(): number {
    return this.spec.clockMs;
  }

  /** The clock now: the reference instant until moved. */
  get nowMs(): number {
    return this.context.nowMs;
  }

  /**
   * Moves the clock to `toMs`, never back (the admin API refuses that before it gets here).
   * Moving it changes no seeded record: only what is defined by time after the reference instant.
   */
  setClock(toMs: number): void {
    if (!Number.isSafeInteger(toMs) || toMs < this.context.nowMs) throw new Error(`clock cannot move to ${toMs}`);
    this.context.nowMs = toMs;
    this.anchor();
    this.touch();
  }

  /**
   * The clock follows `wall` at `rate` times from now on (`--clock-rate`, for a local stand-in):
   * answers then change as time passes, so this is never the default. The wall clock is read
   * here and in `tick` only, and only in this mode. Replicas of one fleet count from the same
   * `sinceWallMs` (the first one's start), so their clocks agree.
   */
  followWall(rate: number, wall: () => number, sinceWallMs: number = wall()): void {
    this.follow = { rate, wall, wallAt: sinceWallMs, clockAt: this.context.nowMs };
  }

  /** The rate the clock follows wall time at, or null when it moves only when told. */
  get clockRate(): number | null {
    return this.follow?.rate ?? null;
  }

  /** With --clock-rate, brings the clock up to wall time, in whole seconds; otherwise nothing. */
  tick(): void {
    const f = this.follow;
    if (f === null) return;
    const due = f.clockAt + Math.floor((f.wall() - f.wallAt) * f.rate);
    const now = due - (due % 1000);
    if (now > this.context.nowMs) {
      this.context.nowMs = now;
      this.touch();
    }
  }

  /** After a move, a reset or a new state, wall time counts from here. */
  private anchor(): void {
    if (this.follow !== null) {
      this.follow.wallAt = this.follow.wall();
      this.follow.clockAt = this.context.nowMs;
    }
  }

  /** The fixtures a reset goes back to. */
  get baseAccounts(): readonly AccountSpec[] {
    return this.spec.accounts;
  }

  /** Changes whenever what the API shows may have changed: caches of rendered bytes compare it. */
  get version(): number {
    return this.stateVersion;
  }

  accounts(): readonly Account[] {
    this.listed ??= [...this.bySid.values()];
    return this.listed;
  }

  account(sid: string): Account | undefined {
    return this.bySid.get(sid);
  }

  accountByToken(token: string): Account | undefined {
    const holders = this.byToken.get(token);
    // A token several of production's accounts share names none of them: they log in by sid or email.
    return holders?.length === 1 ? holders[0] : undefined;
  }

  /** The account with this email address (Restcomm's logins): one map look-up, known or not. */
  accountByEmail(email: string): Account | undefined {
    return this.byEmail.get(email);
  }

  /** The account's ancestors, nearest first: its parent, its parent's parent. */
  ancestors(account: Account): string[] {
    return lineage(account.profile.sid, (sid) => this.bySid.get(sid)?.spec.parent);
  }

  /** The accounts whose parent is `sid` (Restcomm's `getChildAccounts`), in the order they came. */
  children(sid: string): Account[] {
    return this.accounts().filter((a) => a.spec.parent === sid);
  }

  /**
   * Every account below `sid`: its sub-accounts, theirs, and so on (Restcomm's
   * `getSubAccountSidsRecursive`), each before its own sub-accounts.
   */
  descendants(sid: string): Account[] {
    return this.children(sid).flatMap((child) => [child, ...this.descendants(child.profile.sid)]);
  }

  /** The parents of every account checked as fixtures are (an import, before it replaces the world). */
  checkHierarchy(at: string): void {
    checkHierarchy(
      this.accounts().map((a) => ({
        sid: a.profile.sid,
        parent: a.spec.parent,
        asStored: a.spec.verbatim !== undefined,
      })),
      (i) => `${at}[${i}].parent`,
    );
  }

  /**
   * A sandbox: a new account with its own sid and token that has `parent`'s generated records,
   * its writes as they are now, and its traffic, and goes its own way from here (see
   * AccountStore.fork). O(1) in the size of the account. Its identity is drawn from the seed,
   * the parent and how many forks came before, so the same steps give the same sandboxes.
   */
  forkAccount(parent: Account, name?: string, home: World = this, run?: string, hazards?: HazardSpec | null): Account {
    // From a state, the parent lives in a scratch world the import built (see admin/state.ts).
    const source = home.store(parent);
    let sid: string;
    let token: string;
    do {
      const s = Stream.of([this.spec.seed, 'sandbox', parent.profile.sid, this.forksMade++]);
      sid = `AC${s.hex(32)}`;
      token = s.hex(32);
    } while (this.bySid.has(sid) || this.byToken.has(token));
    const friendlyName = name ?? defaultForkName(parent.profile.friendlyName, this.forksMade);
    const spec: AccountSpec = { ...parent.spec, friendlyName, sid, token, dataOf: parent.profile.dataOf };
    // A sandbox stands alone: no account above it reads it, and it reads none below it.
    delete spec.parent;
    // A sandbox may have hazards of its own (null: none), else its parent's.
    if (hazards === null) delete spec.hazards;
    else if (hazards !== undefined) spec.hazards = hazards;
    const profile = { ...parent.profile, sid, token, friendlyName, email: accountEmail(friendlyName, sid) };
    const fork = source.fork(profile, spec);
    const from = parent.profile.sid;
    this.forks.set(sid, {
      from,
      source: home === this ? 'account' : 'state',
      name: friendlyName,
      serial: ++this.forkSerial,
      ...(run === undefined ? {} : { run }),
    });
    this.add(fork);
    return fork;
  }

  /** Moves a sandbox's own clock to `toMs`, never back (the admin API checks it first). */
  setSandboxClock(sandbox: Account, toMs: number): void {
    const store = this.store(sandbox);
    if (!this.forks.has(sandbox.profile.sid) || toMs < store.context.nowMs)
      throw new Error(`cannot move ${sandbox.profile.sid}'s clock`);
    store.context.nowMs = toMs;
    this.touch();
  }

  /** Where a live sandbox came from; undefined for any other sid. O(1), for per-account checks. */
  forkOf(sid: string): Fork | undefined {
    return this.bySid.has(sid) ? this.forks.get(sid) : undefined;
  }

  /** The live sandboxes, in the order they were made. */
  sandboxes(): ({ sid: string } & Fork)[] {
    // A reseed or an import replaces the accounts without ending forks one by one: only live ones count.
    return [...this.forks].filter(([sid]) => this.bySid.has(sid)).map(([sid, f]) => ({ sid, ...f }));
  }

  /**
   * What numbers forks and ties expiries to them, beyond what a state export shows: how many
   * forks were made since the last reset (the next sandbox's sid), the process's fork serial, and
   * each live sandbox's serial, source and run. A checkpoint carries it, so that a replica started
   * from one forks and expires exactly as the replicas that applied every write did.
   */
  forkBook(): ForkBook {
    return { made: this.forksMade, serial: this.forkSerial, forks: this.sandboxes() };
  }

  /** Takes a checkpoint's fork book over, after its state was imported (which made its own). */
  restoreForkBook(book: ForkBook): void {
    this.forksMade = book.made;
    this.forkSerial = book.serial;
    for (const { sid, ...fork } of book.forks) if (this.bySid.has(sid)) this.forks.set(sid, fork);
  }

  /** With --clock-rate, the wall time and clock the clock counts from (a checkpoint carries them); else null. */
  get followAnchor(): { wallAt: number; clockAt: number } | null {
    return this.follow === null ? null : { wallAt: this.follow.wallAt, clockAt: this.follow.clockAt };
  }

  set followAnchor(anchor: { wallAt: number; clockAt: number } | null) {
    if (this.follow !== null && anchor !== null) Object.assign(this.follow, anchor);
  }

  /** Back to the state built from the seed and fixtures: writes, created and deleted accounts undone. */
  reset(): void {
    this.forks.clear();
    this.forksMade = 0;
    for (const a of this.base) a.clearWrites();
    this.context.nowMs = this.spec.clockMs;
    this.anchor();
    this.setList(this.base);
  }

  /** A new seed, clock or fixtures: everything is built again. Throws a ValidationError, changing nothing, on a clash. */
  reseed(spec: WorldSpec): void {
    const previous = this.spec;
    this.spec = spec;
    try {
      this.rebuild();
    } catch (err) {
      this.spec = previous;
      throw err;
    }
  }

  /**
   * Takes over another world's whole state (seed, fixtures, accounts, writes): a state import is
   * built on a scratch world first, so a bad import changes nothing.
   */
  replaceWith(other: World): void {
    this.spec = other.spec;
    this.context = other.context;
    this.base = other.base;
    // An import brings its sandboxes back as sandboxes: those live before it end with their
    // accounts. Numbered after every fork this world made, so no timer set before ends one.
    this.forks = new Map([...other.forks].map(([sid, f]) => [sid, { ...f, serial: ++this.forkSerial }]));
    this.forksMade = other.forksMade;
    this.anchor();
    this.setList([...other.bySid.values()]);
  }

  /** Removes every account, for a state import to add them back in its order. */
  clearAccounts(): void {
    this.setList([]);
  }

  /**
   * Adds an account built from `spec` (which names its sid), or, when a base account has that sid
   * and those counts, that account itself, with the sort orders it has built.
   */
  restoreAccount(spec: AccountSpec): Account {
    const base = this.base.find(
      (a) =>
        a.profile.sid === spec.sid &&
        LIST_NAMES.every((name) => STORE_LISTS[name].seeded(a.spec) === STORE_LISTS[name].seeded(spec)) &&
        a.spec.friendlyName === spec.friendlyName,
    );
    if (base !== undefined && !this.bySid.has(base.profile.sid)) {
      this.add(base);
      return base;
    }
    return this.createAccount(spec);
  }

  /**
   * A sandbox as a state import brings it back: an account of `spec` with its own clock at
   * `nowMs`, forked from `from`. Its writes are replayed after; `markForked` then makes them what
   * an account reset goes back to.
   */
  restoreSandbox(
    spec: AccountSpec,
    from: string,
    nowMs: number,
    own: { seed: string; clockMs: number } = this.spec,
  ): Account {
    const context =
      own.seed === this.spec.seed && own.clockMs === this.spec.clockMs
        ? { ...this.context, nowMs }
        : { ...makeWorldContext(own.seed, own.clockMs), nowMs };
    const store = new AccountStore(context, makeAccountProfile(own.seed, spec, 0), spec);
    this.adopt(store);
    this.forksMade++;
    this.forks.set(store.profile.sid, { from, source: 'account', name: spec.friendlyName, serial: ++this.forkSerial });
    return store;
  }

  /** The sandbox's writes and clock as they are now become what an account reset returns it to. */
  markForked(sandbox: Account): void {
    this.store(sandbox).markForked();
  }

  /**
   * Adds an account; a ValidationError when its sid or token is taken, or its parent is not an
   * account or is already on the third level.
   */
  createAccount(spec: AccountSpec): Account {
    // Production's own account is as it is stored: its parent may be deeper, or not in the data.
    if (spec.parent !== undefined && spec.verbatim === undefined) {
      const parent = this.bySid.get(spec.parent);
      if (parent === undefined) throw new ValidationError('parent', problems.parentUnknown(spec.parent));
      if (this.ancestors(parent).length + 1 >= MAX_ACCOUNT_LEVELS)
        throw new ValidationError('parent', problems.parentDepth(MAX_ACCOUNT_LEVELS));
    }
    const ordinal = freeOrdinal(this.spec.seed, spec.friendlyName, (sid) => this.bySid.has(sid));
    return this.adopt(new AccountStore(this.context, makeAccountProfile(this.spec.seed, spec, ordinal), spec));
  }

  private adopt(account: AccountStore): AccountStore {
    if (this.bySid.has(account.profile.sid)) throw new ValidationError('sid', problems.taken(account.profile.sid));
    if (this.byToken.has(account.profile.token) && account.spec.verbatim === undefined)
      throw new ValidationError('token', problems.taken(account.profile.token));
    this.add(account);
    return account;
  }

  deleteAccount(sid: string): boolean {
    if (!this.bySid.has(sid)) return false;
    const gone = this.bySid.get(sid) as AccountStore;
    this.forks.delete(sid);
    this.bySid.delete(sid);
    const holders = (this.byToken.get(gone.profile.token) ?? []).filter((a) => a !== gone);
    if (holders.length === 0) this.byToken.delete(gone.profile.token);
    else this.byToken.set(gone.profile.token, holders);
    if (this.byEmail.get(gone.profile.email) === gone) this.byEmail.delete(gone.profile.email);
    this.listed = null;
    this.touch();
    return true;
  }

  /** One account back to its seeded records. */
  resetAccount(account: Account): void {
    this.store(account).clearWrites();
    this.touch();
  }

  /**
   * Adds calls the caller has built and checked (see admin/call-input.ts), written at the
   * account's clock now (a state import's replay passes `restored`: they are as old as they say).
   */
  insertCalls(account: Account, calls: readonly CallRecord[], restored = false): void {
    const store = this.store(account);
    for (const call of calls) store.calls.insert(call, restored ? undefined : markWrite(store.context.nowMs));
    this.touch();
  }

  insertRecordings(account: Account, recordings: readonly RecordingRecord[], restored = false): void {
    const store = this.store(account);
    for (const rec of recordings) store.recordings.insert(rec, restored ? undefined : markWrite(store.context.nowMs));
    this.touch();
  }

  /**
   * A restart of one node of the account (null: every node) at its clock now: its live calls
   * become `completed` (see `sweptAtClock`).
   */
  restartAccount(account: Account, instanceId: string | null, atMs?: number): void {
    this.store(account).restart(instanceId, atMs);
    this.touch();
  }

  /** Deletes a call and its recordings; returns how many recordings went with it. */
  deleteCall(account: Account, callId: number): number {
    const store = this.store(account);
    const recordings = store.recordingsOfCall(callId);
    for (const id of recordings) store.recordings.remove(id);
    store.calls.remove(callId);
    this.touch();
    return recordings.length;
  }

  deleteRecording(account: Account, recordingId: number): void {
    this.store(account).recordings.remove(recordingId);
    this.touch();
  }

  /**
   * Removes exactly the records named, nothing more: a state import replays deletions as the
   * export lists them (a deleted call's recordings are listed on their own).
   */
  removeRecords(account: Account, calls: readonly number[], recordings: readonly number[]): void {
    const store = this.store(account);
    for (const id of calls) store.calls.remove(id);
    for (const id of recordings) store.recordings.remove(id);
    this.touch();
  }

  /** Sets the insert counters, which seed the defaults of later inserts, as a state import restores them. */
  setInsertCounters(account: Account, calls: number, recordings: number): void {
    const store = this.store(account);
    store.calls.setNextInsert(calls);
    store.recordings.setNextInsert(recordings);
    this.touch();
  }

  /** The writable account behind a view; an account that is not (or no longer) in this world is a bug. */
  private store(account: Account): AccountStore {
    const store = this.bySid.get(account.profile.sid);
    if (store === undefined || store !== account)
      throw new Error(`account ${account.profile.sid} is not in this world`);
    return store;
  }

  private touch(): void {
    this.stateVersion++;
  }

  private rebuild(): void {
    const { context, accounts } = build(this.spec);
    this.context = context;
    this.anchor();
    this.base = accounts;
    this.setList(accounts);
  }

  private setList(list: readonly AccountStore[]): void {
    this.bySid = new Map();
    this.byToken = new Map();
    this.byEmail = new Map();
    for (const a of list) this.add(a);
    this.touch();
  }

  /** One account more, in O(1). The first of two accounts with one email keeps it (emails embed sid digits, so clashes are rare). */
  private add(account: AccountStore): void {
    this.bySid.set(account.profile.sid, account);
    const holders = this.byToken.get(account.profile.token);
    if (holders === undefined) this.byToken.set(account.profile.token, [account]);
    else holders.push(account);
    if (!this.byEmail.has(account.profile.email)) this.byEmail.set(account.profile.email, account);
    this.listed = null;
    this.touch();
  }
}
