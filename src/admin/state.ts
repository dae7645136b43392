import { createHash } from 'node:crypto';
import { problems, ValidationError } from '../errors';
import { isoMillis } from '../format/dates';
import { runSliced } from '../http/slices';
import { asList, asObject, checkKeys, instantAt } from '../input/fields';
import { accountAsFixture, validateAccount, validateFixtures } from '../store/fixtures';
import type { Work } from '../store/order';
import { World } from '../store/world';
import { VERSION } from '../version';
import { callAsInput, callFromInput } from './call-input';
import { type AdminHandler, ok } from './context';
import { recordingAsInput, recordingFromInput } from './recording-input';

const STATE_FORMAT = 1;
const WRITES = [
  'deleted_calls',
  'deleted_recordings',
  'inserted_calls',
  'inserted_recordings',
  'call_inserts',
  'recording_inserts',
];

/**
 * Everything the API shows, as JSON that `importState` reads back: the seed, the clock, the
 * fixtures a reset returns to, and each account with its writes (deleted seeded sids, inserted
 * records with all their fields, and the insert counters that seed later defaults). Seeded
 * records are not listed: the seed makes them again.
 */
export function exportState(world: World): Record<string, unknown> {
  return {
    ...exportHead(world),
    accounts: world.accounts().map((a) => ({
      ...accountAsFixture({ ...a.spec, sid: a.profile.sid, token: a.profile.token }),
      deleted_calls: a.calls.deletedIndexes().map((i) => a.calls.get(i).sid),
      deleted_recordings: a.recordings.deletedIndexes().map((j) => a.recordings.get(j).sid),
      inserted_calls: a.calls.insertedRecords().map(callAsInput),
      inserted_recordings: a.recordings.insertedRecords().map(recordingAsInput),
      call_inserts: a.calls.nextInsert,
      recording_inserts: a.recordings.nextInsert,
    })),
  };
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

function counter(value: unknown, at: string, atLeast: number): number {
  if (value === undefined) return atLeast;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < atLeast || value >= 2 ** 26) {
    throw new ValidationError(at, problems.insertCounter(atLeast));
  }
  return value;
}

/** One account of an export, with its writes, added to `scratch`. */
/** Records imported between two yields: an import of 80,000 calls lets other requests in. */
const RECORDS_PER_SLICE = 512;

function* importAccount(scratch: World, raw: unknown, at: string): Work<void> {
  const entry = asObject(raw, at);
  const spec = validateAccount(Object.fromEntries(Object.entries(entry).filter(([k]) => !WRITES.includes(k))), at);
  const account = scratch.restoreAccount(spec);
  if (account.profile.sid !== spec.sid || account.profile.token !== spec.token) {
    throw new ValidationError(at, problems.ownAccount(account.profile.sid));
  }
  // One at a time: a later record may name an earlier one (a recording its inserted call).
  const calls = asList(entry['inserted_calls'], `${at}.inserted_calls`);
  for (const [k, c] of calls.entries()) {
    scratch.insertCalls(account, [callFromInput(account, c, `${at}.inserted_calls[${k}]`, k)]);
    if (k % RECORDS_PER_SLICE === 0) yield;
  }
  const recordings = asList(entry['inserted_recordings'], `${at}.inserted_recordings`);
  for (const [k, r] of recordings.entries()) {
    scratch.insertRecordings(account, [recordingFromInput(account, r, `${at}.inserted_recordings[${k}]`, k)]);
    if (k % RECORDS_PER_SLICE === 0) yield;
  }
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
  scratch.setInsertCounters(
    account,
    counter(entry['call_inserts'], `${at}.call_inserts`, calls.length),
    counter(entry['recording_inserts'], `${at}.recording_inserts`, recordings.length),
  );
}

/**
 * Replaces the world's state with an exported one; a ValidationError naming the field changes
 * nothing. Work in slices: the import is built on a scratch world, which the running one
 * replaces at the end, whole (writes made meanwhile are replaced too).
 */
export function* importState(world: World, raw: unknown): Work<void> {
  const body = asObject(raw, 'state');
  checkKeys(body, 'state', ['format', 'seed', 'clock', 'now', 'fixtures', 'accounts']);
  if (body['format'] !== STATE_FORMAT) throw new ValidationError('state.format', problems.stateFormat(STATE_FORMAT));
  const seed = body['seed'];
  if (typeof seed !== 'string' || seed === '') throw new ValidationError('state.seed', problems.nonEmptyString);
  const clockMs = instantAt('state.clock', String(body['clock']));
  // Built on a scratch world, so that a bad import changes nothing.
  const scratch = new World({ seed, clockMs, accounts: validateFixtures(body['fixtures'], 'state.fixtures') });
  scratch.clearAccounts();
  if (body['now'] !== undefined) {
    // The clock where the export left it: before the accounts, whose live traffic (and its deletions) depends on it.
    const now = instantAt('state.now', String(body['now']));
    if (now < clockMs) throw new ValidationError('state.now', problems.clockBackwards(isoMillis(clockMs)));
    scratch.setClock(now);
  }
  for (const [i, a] of asList(body['accounts'], 'state.accounts').entries()) {
    yield* importAccount(scratch, a, `state.accounts[${i}]`);
  }

  world.replaceWith(scratch);
}

/** JSON text, in pieces: `json(value)` less its last character, to be continued. */
const open = (value: object) => JSON.stringify(value).slice(0, -1);

/**
 * A digest of everything the API would show: the state, the public URL (in every `file_uri`),
 * the paging profile, and the emulator's version (whose generators made the records). It hashes
 * the text `JSON.stringify({emulator, paging, public_url, state: exportState(world)})` would
 * give, written a piece at a time, so that tens of thousands of inserted records are hashed in
 * slices (see `Work`).
 * @example finish(stateHash(world, 'http://127.0.0.1:8080', 'production')) // '3f9a…' (64 hex digits)
 */
export function* stateHash(world: World, publicUrl: string, paging: string, dialect = 'spec'): Work<string> {
  const hash = createHash('sha256');
  const { accounts: _accounts, ...head } = exportHead(world);
  // The dialect changes links and file_uri; named only when not the default, so digests made
  // before dialects existed still hold.
  const options = dialect === 'spec' ? { paging } : { paging, dialect };
  hash.update(`${open({ emulator: VERSION, ...options, public_url: publicUrl })},"state":${open(head)},"accounts":[`);
  for (const [i, a] of world.accounts().entries()) {
    if (i > 0) hash.update(',');
    const fixture = accountAsFixture({ ...a.spec, sid: a.profile.sid, token: a.profile.token });
    const deleted = {
      deleted_calls: a.calls.deletedIndexes().map((j) => a.calls.get(j).sid),
      deleted_recordings: a.recordings.deletedIndexes().map((j) => a.recordings.get(j).sid),
    };
    hash.update(`${open({ ...fixture, ...deleted })},"inserted_calls":[`);
    yield* hashInChunks(hash, a.calls.insertedRecords(), callAsInput);
    hash.update('],"inserted_recordings":[');
    yield* hashInChunks(hash, a.recordings.insertedRecords(), recordingAsInput);
    hash.update(
      `],${JSON.stringify({ call_inserts: a.calls.nextInsert, recording_inserts: a.recordings.nextInsert }).slice(1)}`,
    );
  }
  hash.update(']}}');
  return hash.digest('hex');
}

/** Records as JSON, comma-separated, 512 at a time between yields. */
function* hashInChunks<R>(
  hash: ReturnType<typeof createHash>,
  records: readonly R[],
  input: (r: R) => unknown,
): Work<void> {
  for (let k = 0; k < records.length; k += 512) {
    const chunk = JSON.stringify(records.slice(k, k + 512).map(input)).slice(1, -1);
    hash.update(k === 0 ? chunk : `,${chunk}`);
    yield;
  }
}

export const getState: AdminHandler = (ctx) => ok(exportState(ctx.world));

export const putState: AdminHandler = async (ctx, req) => {
  await runSliced(importState(ctx.world, req.body()));
  return ok({
    status: 'imported',
    hash: await runSliced(stateHash(ctx.world, ctx.publicUrl, ctx.paging, ctx.dialect.name)),
  });
};

export const getStateHash: AdminHandler = async (ctx) =>
  ok({ hash: await runSliced(stateHash(ctx.world, ctx.publicUrl, ctx.paging, ctx.dialect.name)), algorithm: 'sha256' });
