import { createHash } from 'node:crypto';
import { ApiError, messages } from '../errors';
import { isoMillis } from '../format/dates';
import { accountAsFixture, FixtureError, validateAccount, validateFixtures } from '../store/fixtures';
import { World } from '../store/world';
import { parseClock } from '../config';
import { VERSION } from '../version';
import { callAsInput, callFromInput } from './call-input';
import { asObject, checkKeys } from './fields';
import { recordingAsInput, recordingFromInput } from './recording-input';

const STATE_FORMAT = 1;

/**
 * Everything the API shows, as JSON that `importState` reads back: the seed, the clock, the
 * fixtures a reset returns to, and each account with its writes (deleted seeded sids, inserted
 * records with all their fields, and the insert counters that seed later defaults). Seeded
 * records are not listed: the seed makes them again.
 */
export function exportState(world: World): Record<string, unknown> {
  return {
    format: STATE_FORMAT,
    seed: world.seed,
    clock: isoMillis(world.clockMs),
    fixtures: { accounts: world.baseAccounts.map(accountAsFixture) },
    accounts: world.accounts().map((a) => ({
      ...accountAsFixture({ ...a.spec, sid: a.profile.sid, token: a.profile.token }),
      deleted_calls: [...a.calls.overlay.deleted].sort((x, y) => x - y).map((i) => a.calls.get(i).sid),
      deleted_recordings: [...a.recordings.overlay.deleted].sort((x, y) => x - y).map((j) => a.recordings.get(j).sid),
      inserted_calls: [...a.calls.overlay.inserted.values()].map(callAsInput),
      inserted_recordings: [...a.recordings.overlay.inserted.values()].map(recordingAsInput),
      call_inserts: a.calls.overlay.nextInsert,
      recording_inserts: a.recordings.overlay.nextInsert,
    })),
  };
}

function list(value: unknown, at: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ApiError(400, messages.badField(at, 'must be an array'));
  return value;
}

function counter(value: unknown, at: string, atLeast: number): number {
  if (value === undefined) return atLeast;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < atLeast || value >= 2 ** 26) {
    throw new ApiError(400, messages.badField(at, `must be an integer from ${atLeast} (the inserts listed) to 67108863`));
  }
  return value;
}

/** Replaces the world's state with an exported one; a 400 naming the field changes nothing. */
export function importState(world: World, raw: unknown): void {
  const body = asObject(raw, 'state');
  checkKeys(body, 'state', ['format', 'seed', 'clock', 'fixtures', 'accounts']);
  if (body['format'] !== STATE_FORMAT) throw new ApiError(400, messages.badField('state.format', `must be ${STATE_FORMAT}`));
  const seed = body['seed'];
  if (typeof seed !== 'string' || seed === '') throw new ApiError(400, messages.badField('state.seed', 'must be a non-empty string'));
  let clockMs: number;
  try {
    clockMs = parseClock('state.clock', String(body['clock']));
  } catch (err) {
    throw new ApiError(400, (err as Error).message);
  }
  try {
    const fixtures = validateFixtures(body['fixtures'], 'state.fixtures');
    const scratch = new World({ seed, clockMs, accounts: fixtures });
    scratch.clearAccounts();
    list(body['accounts'], 'state.accounts').forEach((rawAccount, i) => {
      const at = `state.accounts[${i}]`;
      const entry = asObject(rawAccount, at);
      const writes = ['deleted_calls', 'deleted_recordings', 'inserted_calls', 'inserted_recordings', 'call_inserts', 'recording_inserts'];
      const specFields = Object.fromEntries(Object.entries(entry).filter(([k]) => !writes.includes(k)));
      const spec = validateAccount(specFields, at);
      const account = scratch.addAccount(spec);
      if (account.profile.sid !== spec.sid || account.profile.token !== spec.token) {
        throw new ApiError(400, messages.badField(at, `sid and token must be the account's own (${account.profile.sid})`));
      }
      const calls = list(entry['inserted_calls'], `${at}.inserted_calls`);
      calls.forEach((c, k) => account.calls.insert(callFromInput(account, c, `${at}.inserted_calls[${k}]`, k)));
      const recordings = list(entry['inserted_recordings'], `${at}.inserted_recordings`);
      recordings.forEach((r, k) => account.recordings.insert(recordingFromInput(account, r, `${at}.inserted_recordings[${k}]`, k)));
      for (const [field, table] of [['deleted_calls', account.calls], ['deleted_recordings', account.recordings]] as const) {
        list(entry[field], `${at}.${field}`).forEach((sid, k) => {
          const id = typeof sid === 'string' ? table.find(sid) : undefined;
          if (id === undefined) throw new ApiError(400, messages.badField(`${at}.${field}[${k}]`, `no such record: ${JSON.stringify(sid)}`));
          table.remove(id);
        });
      }
      account.calls.overlay.nextInsert = counter(entry['call_inserts'], `${at}.call_inserts`, calls.length);
      account.recordings.overlay.nextInsert = counter(entry['recording_inserts'], `${at}.recording_inserts`, recordings.length);
    });
    world.adopt(scratch);
  } catch (err) {
    if (err instanceof FixtureError) throw new ApiError(400, err.message);
    throw err;
  }
}

/**
 * A digest of everything the API would show: the state, the public URL (in every `file_uri`),
 * the paging profile, and the emulator's version (whose generators made the records).
 * @example stateHash(world, 'http://127.0.0.1:8080', 'production') // '3f9a…' (64 hex digits)
 */
export function stateHash(world: World, publicUrl: string, paging: string): string {
  const text = JSON.stringify({ emulator: VERSION, paging, public_url: publicUrl, state: exportState(world) });
  return createHash('sha256').update(text).digest('hex');
}
