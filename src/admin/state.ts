import { createHash } from 'node:crypto';
import { problems, ValidationError } from '../errors';
import { isoMillis } from '../format/dates';
import type { AccountSpec } from '../generators/account-spec';
import type { TableRows } from '../generators/rows';
import { runSliced } from '../http/slices';
import { asList, asNonEmptyString, asObject, checkKeys, instantAt, readerOf } from '../input/fields';
import { rowAsJson } from '../input/restcomm-tables';
import { accountAsFixture, validateAccount, validateFixtures } from '../store/fixtures';
import type { Work } from '../store/order';
import { type Account, World } from '../store/world';
import { VERSION } from '../version';
import { callAsInput, callFromInput } from './call-input';
import { type AdminHandler, accountOf, refuseIfSandboxes } from './context';
import { recordingAsInput, recordingFromInput } from './recording-input';
import { ok } from './reply';

const STATE_FORMAT = 1;
const WRITES = [
  'sandbox_of',
  'seed',
  'clock',
  'now',
  'deleted_calls',
  'deleted_recordings',
  'inserted_calls',
  'inserted_recordings',
  'call_inserts',
  'recording_inserts',
  'restarts',
];

/**
 * Everything the API shows, as JSON that `importState` reads back: the seed, the clock, the
 * fixtures a reset returns to, and each account with its writes (deleted seeded sids, inserted
 * records with all their fields, and the insert counters that seed later defaults). Seeded
 * records are not listed: the seed makes them again.
 */
export function exportState(world: World): Record<string, unknown> {
  return { ...exportHead(world), accounts: world.accounts().map((a) => accountEntry(world, a)) };
}

/**
 * One account's state (`GET /__admin/accounts/{sid}/state`): the seed and clock its records are
 * made of, its clock, and the account as the world's export lists it. A sandbox can be forked
 * from it (`POST /__admin/sandboxes {"from": state}`), here or in another emulator.
 */
export function exportAccountState(world: World, a: Account): Record<string, unknown> {
  return { ...accountHead(a), account: accountEntry(world, a) };
}

/** The state's fields before its accounts. */
function exportHead(world: World) {
  return {
    format: STATE_FORMAT,
    seed: world.seed,
    clock: isoMillis(world.clockMs),
    // Only once moved, so that the export (and hash) of a world whose clock never moved is as before.
    ...(world.nowMs === world.clockMs ? {} : { now: isoMillis(world.nowMs) }),
    fixtures: { accounts: world.baseAccounts.map(accountAsFixture) },
    accounts: [] as unknown[],
  };
}

/** An account state's fields before the account: its clock is its own (a sandbox's may differ from the world's). */
function accountHead(a: Account) {
  // The account's own seed and reference instant: a sandbox forked from a state may have others than the world's.
  const { seed, clockMs, nowMs } = a.context;
  return {
    format: STATE_FORMAT,
    seed,
    clock: isoMillis(clockMs),
    ...(nowMs === clockMs ? {} : { now: isoMillis(nowMs) }),
  };
}

/** An account's fields before its inserted records: identity, a sandbox's own clock and parent, deletions. */
function entryHead(world: World, a: Account, identity = true): Record<string, unknown> {
  const { spec, omit, rest } = entryParts(world, a, identity);
  const fixture = Object.fromEntries(Object.entries(accountAsFixture(spec)).filter(([k]) => !omit.includes(k)));
  return { ...fixture, ...rest };
}

/**
 * An entry head in two parts, as a writer streams it: the spec whose fixture form comes first
 * (less the keys in `omit`), then the rest. A fixture form of production's rows can be far
 * larger than any one text: a writer writes it a chunk at a time (`openFixture`).
 */
function entryParts(
  world: World,
  a: Account,
  identity: boolean,
): { spec: AccountSpec; omit: readonly string[]; rest: Record<string, unknown> } {
  const fork = world.forkOf(a.profile.sid);
  return {
    spec: identity ? { ...a.spec, sid: a.profile.sid, token: a.profile.token } : a.spec,
    omit: identity ? [] : ['sid', 'token', 'friendly_name'],
    rest: {
      ...(identity ? {} : { data_of: a.profile.dataOf }),
      // Only sandboxes carry these, so exports and hashes of worlds without sandboxes are as before.
      // Whom it was forked from is identity too: the account hash leaves it out.
      ...(fork === undefined || !identity ? {} : { sandbox_of: fork.from }),
      ...(identity && ownSeed(world, a) ? { seed: a.context.seed, clock: isoMillis(a.context.clockMs) } : {}),
      ...(a.context.nowMs === world.nowMs || !identity ? {} : { now: isoMillis(a.context.nowMs) }),
      deleted_calls: [...a.calls.deletedIndexes().map((i) => a.calls.get(i).sid), ...rowsGone(a, 'calls')],
      deleted_recordings: [
        ...a.recordings.deletedIndexes().map((j) => a.recordings.get(j).sid),
        ...rowsGone(a, 'recordings'),
      ],
      // Only once an account has restarted, so exports and hashes without restarts are as before.
      ...(a.sweeps.length === 0
        ? {}
        : { restarts: a.sweeps.map((s) => ({ instance_id: s.instanceId, at: isoMillis(s.atMs) })) }),
    },
  };
}

/**
 * An account's fixture form as JSON less its closing brace, the text `open(accountAsFixture(spec))`
 * is: the rows of production's data a chunk at a time, so that a million of them never make one
 * text (V8's longest is half a gigabyte).
 */
function* openFixture(spec: AccountSpec, out: Sink, omit: readonly string[] = []): Work<void> {
  const v = spec.verbatim;
  if (v === undefined) {
    out(open(Object.fromEntries(Object.entries(accountAsFixture(spec)).filter(([k]) => !omit.includes(k)))));
    return;
  }
  out(`{"restcomm_accounts":${JSON.stringify(rowAsJson('restcomm_accounts', v.account))}`);
  for (const [table, rows] of [
    ['restcomm_call_detail_records', v.calls],
    ['restcomm_recordings', v.recordings],
    ['restcomm_notifications', v.notifications],
  ] as const) {
    out(`,"${table}":[`);
    yield* inChunks(out, rows as readonly TableRows[typeof table][], (row) => rowAsJson(table, row as never));
    out(']');
  }
}

/**
 * The account's own rows of production's data deleted since, by sid: its export lists them with
 * the seeded records deleted, as its fixture form holds them (see AccountStore.loadRows).
 */
function rowsGone(a: Account, list: 'calls' | 'recordings'): string[] {
  const rows = a.spec.verbatim?.[list] ?? [];
  const table = a[list];
  return rows
    .filter((row) => {
      const id = table.find(row.sid);
      return id === undefined || !a.isOwnRow(table.get(id));
    })
    .map((row) => row.sid);
}

/** The inserted records a state lists: the account's writes, not its own rows, which its fixture form holds. */
const writesOf = <R extends { row?: object }>(a: Account, records: readonly R[]): R[] =>
  a.spec.verbatim === undefined ? [...records] : records.filter((r) => !a.isOwnRow(r));

/** A sandbox forked from a state of another seed (or reference instant) makes its records from those. */
const ownSeed = (world: World, a: Account) => a.context.seed !== world.seed || a.context.clockMs !== world.clockMs;

function accountEntry(world: World, a: Account): Record<string, unknown> {
  return {
    ...entryHead(world, a),
    inserted_calls: writesOf(a, a.calls.insertedRecords()).map(callAsInput),
    inserted_recordings: writesOf(a, a.recordings.insertedRecords()).map(recordingAsInput),
    call_inserts: a.calls.nextInsert,
    recording_inserts: a.recordings.nextInsert,
  };
}

function counter(value: unknown, at: string, atLeast: number): number {
  if (value === undefined) return atLeast;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < atLeast || value >= 2 ** 26) {
    throw new ValidationError(at, problems.insertCounter(atLeast));
  }
  return value;
}

/**
 * A sandbox's entry as a reset of it brings it back (its clock, restarts and writes when it was
 * forked), or null for any other account: a checkpoint carries it beside the export, which
 * holds the sandbox as it is now.
 * @example forkBaseEntry(sandbox) // { now: '2025-06-01T12:00:00.000Z', deleted_calls: [], inserted_calls: [], … }
 */
export function forkBaseEntry(a: Account): Record<string, unknown> | null {
  const at = a.forkedWith;
  const calls = a.calls.forkBase();
  const recordings = a.recordings.forkBase();
  if (at === null || calls === null || recordings === null) return null;
  return {
    now: isoMillis(at.atMs),
    deleted_calls: calls.deleted.map((i) => a.calls.get(i).sid),
    deleted_recordings: recordings.deleted.map((j) => a.recordings.get(j).sid),
    restarts: at.sweeps.map((s) => ({ instance_id: s.instanceId, at: isoMillis(s.atMs) })),
    inserted_calls: writesOf(a, calls.inserted).map(callAsInput),
    inserted_recordings: writesOf(a, recordings.inserted).map(recordingAsInput),
    call_inserts: calls.nextInsert,
    recording_inserts: recordings.nextInsert,
  };
}

/**
 * A sandbox of a checkpoint: made from `base` (what its reset goes back to), then brought to
 * its entry as the export holds it now, write by write, so that a reset of it later goes back
 * to where the sandbox's own reset would have. The state import alone cannot: it makes what it
 * imports the sandbox's base.
 */
function* importForked(scratch: World, entry: Record<string, unknown>, base: unknown, at: string): Work<Account> {
  const account = yield* importAccount(scratch, { ...entry, ...asObject(base, `${at}.base`) }, `${at}.base`);
  const sids = (field: string) => asList(entry[field] ?? [], `${at}.${field}`) as { sid?: unknown }[];
  const now = entry['now'] === undefined ? scratch.nowMs : instantAt(`${at}.now`, entry['now']);
  scratch.setSandboxClock(account, Math.max(now, account.context.nowMs));
  const calls = sids('inserted_calls');
  const recordings = sids('inserted_recordings');
  const keepCalls = new Set(calls.map((c) => c.sid));
  const keepRecordings = new Set(recordings.map((r) => r.sid));
  // Base inserts deleted since: by their sids, before any insert takes an id.
  const gone = (
    records: readonly { sid: string }[],
    keep: Set<unknown>,
    table: { find(sid: string): number | undefined },
  ) => records.filter((r) => !keep.has(r.sid)).map((r) => table.find(r.sid) as number);
  scratch.removeRecords(
    account,
    gone(account.calls.insertedRecords(), keepCalls, account.calls),
    gone(account.recordings.insertedRecords(), keepRecordings, account.recordings),
  );
  for (const [k, c] of calls.entries()) {
    if (typeof c.sid === 'string' && account.calls.find(c.sid) !== undefined) continue;
    scratch.insertCalls(account, [callFromInput(account, c, `${at}.inserted_calls[${k}]`, k)], true);
    if (k % RECORDS_PER_SLICE === 0) yield;
  }
  for (const [k, r] of recordings.entries()) {
    if (typeof r.sid === 'string' && account.recordings.find(r.sid) !== undefined) continue;
    scratch.insertRecordings(account, [recordingFromInput(account, r, `${at}.inserted_recordings[${k}]`, k)], true);
    if (k % RECORDS_PER_SLICE === 0) yield;
  }
  // Seeded records deleted since the fork: those still live here.
  const live = (field: string, table: { find(sid: string): number | undefined }) =>
    asList(entry[field] ?? [], `${at}.${field}`)
      .map((sid) => (typeof sid === 'string' ? table.find(sid) : undefined))
      .filter((id): id is number => id !== undefined);
  scratch.removeRecords(account, live('deleted_calls', account.calls), live('deleted_recordings', account.recordings));
  const restarts = asList(entry['restarts'] ?? [], `${at}.restarts`);
  for (const [k, raw] of restarts.slice(account.sweeps.length).entries()) {
    const r = readerOf(raw, `${at}.restarts[${k}]`, ['instance_id', 'at']);
    scratch.restartAccount(
      account,
      (r.body['instance_id'] ?? null) as string | null,
      instantAt(`${at}.restarts[${k}].at`, r.body['at']),
    );
  }
  scratch.setInsertCounters(
    account,
    counter(entry['call_inserts'], `${at}.call_inserts`, 0),
    counter(entry['recording_inserts'], `${at}.recording_inserts`, 0),
  );
  return account;
}

/** Records imported between two yields: an import of 80,000 calls lets other requests in. */
const RECORDS_PER_SLICE = 512;

/** One account of an export, with its writes, added to `scratch`. */
function* importAccount(scratch: World, raw: unknown, at: string): Work<Account> {
  const entry = asObject(raw, at);
  // A state's rows of production's data were checked when they came in: they are read as stored.
  const spec = validateAccount(
    Object.fromEntries(Object.entries(entry).filter(([k]) => !WRITES.includes(k))),
    at,
    true,
  );
  const parent =
    entry['sandbox_of'] === undefined ? undefined : asNonEmptyString(entry['sandbox_of'], `${at}.sandbox_of`);
  const now = entry['now'] === undefined ? scratch.nowMs : instantAt(`${at}.now`, entry['now']);
  if (now < scratch.clockMs)
    throw new ValidationError(`${at}.now`, problems.clockBackwards(isoMillis(scratch.clockMs)));
  const own = {
    seed: entry['seed'] === undefined ? scratch.seed : asNonEmptyString(entry['seed'], `${at}.seed`),
    clockMs: entry['clock'] === undefined ? scratch.clockMs : instantAt(`${at}.clock`, entry['clock']),
  };
  for (const [field, differs] of [
    ['now', now !== scratch.nowMs],
    ['seed', own.seed !== scratch.seed],
    ['clock', own.clockMs !== scratch.clockMs],
  ] as const) {
    if (differs && parent === undefined) throw new ValidationError(`${at}.${field}`, problems.ownClockOfSandbox);
  }
  // A sandbox comes back as one: its own clock (and seed), and what it has now is what its reset goes back to.
  const account = parent === undefined ? scratch.restoreAccount(spec) : scratch.restoreSandbox(spec, parent, now, own);
  // Deletions first: an insert may have taken the sid of a record deleted before it.
  const ids = (field: 'deleted_calls' | 'deleted_recordings', table: { find(sid: string): number | undefined }) => {
    const seen = new Set<number>();
    return asList(entry[field], `${at}.${field}`).map((sid, k) => {
      const id = typeof sid === 'string' ? table.find(sid) : undefined;
      // A sid listed twice is gone by its second mention, as when deletions are replayed in turn.
      if (id === undefined || seen.has(id))
        throw new ValidationError(`${at}.${field}[${k}]`, problems.noSuchRecord(sid));
      seen.add(id);
      return id;
    });
  };
  scratch.removeRecords(account, ids('deleted_calls', account.calls), ids('deleted_recordings', account.recordings));
  // A state written by hand may leave out sid and token: they are derived as for fixtures.
  // One at a time: a later record may name an earlier one (a recording its inserted call).
  const calls = asList(entry['inserted_calls'], `${at}.inserted_calls`);
  for (const [k, c] of calls.entries()) {
    scratch.insertCalls(account, [callFromInput(account, c, `${at}.inserted_calls[${k}]`, k)], true);
    if (k % RECORDS_PER_SLICE === 0) yield;
  }
  const recordings = asList(entry['inserted_recordings'], `${at}.inserted_recordings`);
  for (const [k, r] of recordings.entries()) {
    scratch.insertRecordings(account, [recordingFromInput(account, r, `${at}.inserted_recordings[${k}]`, k)], true);
    if (k % RECORDS_PER_SLICE === 0) yield;
  }
  let last = Number.NEGATIVE_INFINITY;
  for (const [k, raw] of asList(entry['restarts'] ?? [], `${at}.restarts`).entries()) {
    const r = readerOf(raw, `${at}.restarts[${k}]`, ['instance_id', 'at']);
    const instance = r.body['instance_id'] ?? null;
    if (instance !== null && (typeof instance !== 'string' || !/^ID[0-9a-f]{32}$/.test(instance)))
      r.fail('instance_id', problems.string('an InstanceId (ID and 32 hex digits) or null', instance));
    const atMs = instantAt(`${at}.restarts[${k}].at`, r.body['at']);
    // Replayed in order, none after the account's clock: a restart is a write made at its clock.
    if (atMs < last || atMs > account.context.nowMs)
      r.fail('at', problems.restartOrder(isoMillis(account.context.nowMs)));
    last = atMs;
    scratch.restartAccount(account, instance as string | null, atMs);
  }
  scratch.setInsertCounters(
    account,
    counter(entry['call_inserts'], `${at}.call_inserts`, calls.length),
    counter(entry['recording_inserts'], `${at}.recording_inserts`, recordings.length),
  );
  if (parent !== undefined) scratch.markForked(account);
  return account;
}

/**
 * Replaces the world's state with an exported one; a ValidationError naming the field changes
 * nothing. Work in slices: the import is built on a scratch world, which the running one
 * replaces at the end, whole (writes made meanwhile are replaced too). `bases`: what each
 * sandbox's reset goes back to, by sid (a checkpoint's; see forkBaseEntry).
 */
export function* importState(world: World, raw: unknown, bases?: Readonly<Record<string, unknown>>): Work<void> {
  const body = asObject(raw, 'state');
  checkKeys(body, 'state', ['format', 'seed', 'clock', 'now', 'fixtures', 'accounts']);
  const { seed, clockMs, now } = stateHead(body, 'state');
  // Built on a scratch world, so that a bad import changes nothing.
  const scratch = new World({ seed, clockMs, accounts: validateFixtures(body['fixtures'], 'state.fixtures', true) });
  scratch.clearAccounts();
  // The clock where the export left it: before the accounts, whose live traffic (and its deletions) depends on it.
  if (now !== undefined) scratch.setClock(now);
  for (const [i, a] of asList(body['accounts'], 'state.accounts').entries()) {
    // A turn between accounts too: 4,000 sandboxes of no inserts each held other answers 0.7 s.
    yield;
    const base = bases?.[String((a as { sid?: unknown } | null)?.sid)];
    if (base === undefined) yield* importAccount(scratch, a, `state.accounts[${i}]`);
    else yield* importForked(scratch, asObject(a, `state.accounts[${i}]`), base, `state.accounts[${i}]`);
  }
  scratch.checkHierarchy('state.accounts');
  world.replaceWith(scratch);
}

/**
 * The account of a state (one account's export, or a world's export holding one account), built
 * on a scratch world of the state's seed and clock, for a sandbox to be forked from: the
 * sandbox then draws its records from that seed, whatever the running world's is.
 */
export function* accountFromState(raw: unknown, at: string): Work<{ home: World; account: Account }> {
  const body = asObject(raw, at);
  const single = body['account'] !== undefined;
  checkKeys(body, at, ['format', 'seed', 'clock', 'now', ...(single ? ['account'] : ['fixtures', 'accounts'])]);
  const { seed, clockMs, now } = stateHead(body, at);
  const home = new World({ seed, clockMs, accounts: [] });
  if (now !== undefined) home.setClock(now);
  if (single) return { home, account: yield* importAccount(home, body['account'], `${at}.account`) };
  const accounts = asList(body['accounts'], `${at}.accounts`);
  if (accounts.length !== 1) throw new ValidationError(`${at}.accounts`, problems.oneAccountState(accounts.length));
  return { home, account: yield* importAccount(home, accounts[0], `${at}.accounts[0]`) };
}

/** A state's format, seed, reference instant and clock, checked. */
function stateHead(body: Record<string, unknown>, at: string): { seed: string; clockMs: number; now?: number } {
  if (body['format'] !== STATE_FORMAT) throw new ValidationError(`${at}.format`, problems.stateFormat(STATE_FORMAT));
  const seed = asNonEmptyString(body['seed'], `${at}.seed`);
  const clockMs = instantAt(`${at}.clock`, body['clock']);
  if (body['now'] === undefined) return { seed, clockMs };
  const now = instantAt(`${at}.now`, body['now']);
  if (now < clockMs) throw new ValidationError(`${at}.now`, problems.clockBackwards(isoMillis(clockMs)));
  return { seed, clockMs, now };
}

/** JSON text, in pieces: `json(value)` less its last character, to be continued. */
const open = (value: object) => JSON.stringify(value).slice(0, -1);

/** Where a state's JSON goes, a piece at a time: a hash, or a response written as the socket takes it. */
type Sink = (piece: string) => void;
/** A state's JSON, captured at one moment and written later, in slices, by `Work`. */
type Writer = (out: Sink) => Work<void>;

/**
 * The world's export (`exportState`) as JSON: what it holds is captured now (each account's
 * head, its inserted records, its counters: references, not text), so that writes landing while
 * it is written a slice at a time change nothing in it.
 */
function stateWriter(world: World): Writer {
  const { accounts: _accounts, fixtures: _fixtures, ...head } = exportHead(world);
  const fixtures = world.baseAccounts;
  const accounts = world.accounts().map((a) => accountWriter(world, a, true));
  return function* (out) {
    out(`${open(head)},"fixtures":{"accounts":[`);
    for (const [i, spec] of fixtures.entries()) {
      if (i > 0) out(',');
      yield* openFixture(spec, out);
      out('}');
    }
    out(']},"accounts":[');
    for (const [i, write] of accounts.entries()) {
      if (i > 0) out(',');
      yield* write(out);
    }
    out(']}');
  };
}

/** One account's export (`exportAccountState`), captured now. */
function accountStateWriter(world: World, a: Account): Writer {
  const head = open(accountHead(a));
  const write = accountWriter(world, a, true);
  return function* (out) {
    out(`${head},"account":`);
    yield* write(out);
    out('}');
  };
}

/** Text pieces of a writer, a slice's worth at a time: what an export streams. */
function* chunksOf(write: Writer): Generator<string> {
  let text = '';
  const work = write((piece) => {
    text += piece;
  });
  for (let step = work.next(); ; step = work.next()) {
    if (text !== '') {
      yield text;
      text = '';
    }
    if (step.done === true) return;
  }
}

/**
 * A digest of everything the API shows: the state export, the public URL (in every `file_uri`),
 * the paging profile, and the emulator's version (whose generators made the records). It hashes
 * the text `JSON.stringify({emulator, paging, public_url, state: exportState(world)})` would
 * give, written a piece at a time, so that tens of thousands of inserted records are hashed in
 * slices (see `Work`).
 * @example finish(stateHash(world, 'http://127.0.0.1:8080', 'production')) // '3f9a…' (64 hex digits)
 */
export function* stateHash(world: World, publicUrl: string, paging: string, dialect = 'spec'): Work<string> {
  const hash = createHash('sha256');
  hash.update(`${hashPrefix(publicUrl, paging, dialect)},"state":`);
  yield* stateWriter(world)((piece) => hash.update(piece));
  hash.update('}');
  return hash.digest('hex');
}

/**
 * A digest of what the API shows of one account, as `stateHash` is of the world, less the
 * account's identity (sid, token, name): two sandboxes forked from one account and taken through
 * the same steps have the same hash, whichever test worker forked them first.
 * @example finish(accountStateHash(world, sandbox, 'http://127.0.0.1:8080', 'production')) // '9c1e…'
 */
export function* accountStateHash(
  world: World,
  a: Account,
  publicUrl: string,
  paging: string,
  dialect = 'spec',
): Work<string> {
  const hash = createHash('sha256');
  hash.update(`${hashPrefix(publicUrl, paging, dialect)},"state":${open(accountHead(a))},"account":`);
  yield* accountWriter(world, a, false)((piece) => hash.update(piece));
  hash.update('}}');
  return hash.digest('hex');
}

function hashPrefix(publicUrl: string, paging: string, dialect: string): string {
  // The dialect changes links and file_uri; named only when not the default, so digests made
  // before dialects existed still hold.
  const options = dialect === 'spec' ? { paging } : { paging, dialect };
  return open({ emulator: VERSION, ...options, public_url: publicUrl });
}

/** An account's entry of the export, captured now, written a piece at a time; `identity` false for the account hash. */
function accountWriter(world: World, a: Account, identity: boolean): Writer {
  const { spec, omit, rest } = entryParts(world, a, identity);
  const restText = JSON.stringify(rest).slice(1, -1);
  const calls = writesOf(a, a.calls.insertedRecords());
  const recordings = writesOf(a, a.recordings.insertedRecords());
  const counters = JSON.stringify({ call_inserts: a.calls.nextInsert, recording_inserts: a.recordings.nextInsert });
  return function* (out) {
    yield* openFixture(spec, out, omit);
    out(`,${restText},"inserted_calls":[`);
    const own = identity ? null : yield* insertNames(calls, recordings);
    const named = (sid: string) => own?.get(sid) ?? sid;
    yield* inChunks(out, calls, own === null ? callAsInput : (c) => ({ ...callAsInput(c), sid: named(c.sid) }));
    out('],"inserted_recordings":[');
    yield* inChunks(
      out,
      recordings,
      own === null
        ? recordingAsInput
        : (r) => ({ ...recordingAsInput(r), sid: named(r.sid), call_sid: named(r.callSid) }),
    );
    out(`],${counters.slice(1)}`);
  };
}

/**
 * Each inserted record's sid mapped to a name by its place among the account's inserts. A
 * sandbox draws the sids of its inserts from its own sid (see `ownInsertHex`), and a sandbox
 * forked from it, or from its state, keeps those: identity, which the account hash leaves out as
 * it leaves out the account's sid, so that sandboxes taken through the same steps hash alike.
 */
function* insertNames(
  calls: readonly { sid: string }[],
  recordings: readonly { sid: string }[],
): Work<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [kind, records] of [
    ['call', calls],
    ['recording', recordings],
  ] as const) {
    for (let i = 0; i < records.length; i++) {
      names.set((records[i] as { sid: string }).sid, `${kind} insert ${i}`);
      if (i % 4096 === 4095) yield;
    }
  }
  return names;
}

/** Records as JSON, comma-separated, 512 at a time between yields. */
function* inChunks<R>(out: Sink, records: readonly R[], input: (r: R) => unknown): Work<void> {
  for (let k = 0; k < records.length; k += 512) {
    const chunk = JSON.stringify(records.slice(k, k + 512).map(input)).slice(1, -1);
    out(k === 0 ? chunk : `,${chunk}`);
    yield;
  }
}

/** The world's export as JSON text pieces, captured now (see stateWriter): what a checkpoint holds. */
export const stateChunks = (world: World): Generator<string> => chunksOf(stateWriter(world));

/** `GET /__admin/state`: the export, captured at once, written in slices as the socket takes it. */
export const getState: AdminHandler = (ctx) => ({ status: 200, chunks: chunksOf(stateWriter(ctx.world)) });

export const putState: AdminHandler = async (ctx, req) => {
  // Before the import is built (the costly part): it replaces every account, sandboxes too.
  refuseIfSandboxes(ctx, req, 'A state import', 'PUT /__admin/state');
  await runSliced(importState(ctx.world, req.body()));
  return ok({
    status: 'imported',
    hash: await runSliced(stateHash(ctx.world, ctx.publicUrl, ctx.paging, ctx.dialect.name)),
  });
};

/** `GET /__admin/accounts/{sid}/state`: one account's state, a sandbox's with its own clock. */
export const getAccountState: AdminHandler = (ctx, req) => ({
  status: 200,
  chunks: chunksOf(accountStateWriter(ctx.world, accountOf(ctx, req))),
});

/** `GET /__admin/accounts/{sid}/state/hash`: its digest, identity left out (see accountStateHash). */
export const getAccountStateHash: AdminHandler = async (ctx, req) =>
  ok({
    hash: await runSliced(
      accountStateHash(ctx.world, accountOf(ctx, req), ctx.publicUrl, ctx.paging, ctx.dialect.name),
    ),
    algorithm: 'sha256',
  });

export const getStateHash: AdminHandler = async (ctx) =>
  ok({ hash: await runSliced(stateHash(ctx.world, ctx.publicUrl, ctx.paging, ctx.dialect.name)), algorithm: 'sha256' });
