import { createHash } from 'node:crypto';
import type { Config } from '../config';
import type { AccountSpec } from '../generators/account-spec';
import { VERSION } from '../version';

/**
 * What every replica sharing one write log must agree on, written once beside the log by the
 * first replica: the build (entries name its routes) and every option that shapes an answer.
 * The log holds writes, not worlds, so a replica with another seed or fixtures would apply the
 * same writes to another world; it is refused at start instead.
 */
export interface Genesis {
  emulator: string;
  options: Record<string, unknown>;
  /** Wall time of the first replica's start: where `--clock-rate` counts from, in every replica alike. */
  wallMs: number;
}

const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/**
 * The accounts' hash, a row at a time for production's own accounts: a million rows as one JSON
 * text would pass the longest string V8 makes.
 */
function accountsHash(accounts: readonly AccountSpec[]): string {
  const h = createHash('sha256');
  for (const { verbatim, ...spec } of accounts) {
    h.update(JSON.stringify(spec));
    if (verbatim === undefined) continue;
    h.update(JSON.stringify(verbatim.account));
    for (const list of [verbatim.calls, verbatim.recordings, verbatim.notifications])
      for (const row of list) h.update(JSON.stringify(row));
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * This process's genesis.
 * @example genesisOf(config, inputs, 1764000000000).options // { seed: 'callrec', clock: 1748779200000, fixtures: '3f2a…', … }
 */
export function genesisOf(
  config: Readonly<Config>,
  inputs: { accounts: readonly AccountSpec[]; states: ReadonlyMap<string, unknown> },
  wallMs: number,
): Genesis {
  return {
    emulator: VERSION,
    options: {
      seed: config.seed,
      clock: config.clockMs,
      clockRate: config.clockRate,
      fixtures: accountsHash(inputs.accounts),
      states: hash([...inputs.states.entries()]),
      paging: config.paging,
      dialect: config.dialect,
      maxPageSize: config.maxPageSize,
      strict: config.strict,
      serverZone: config.serverZone,
      // A create is read again where it is applied, StatusCallback host check included: a
      // replica allowing other hosts would keep a call another refuses.
      // Where checkpoints fall: every replica counts alike, so one is made per span.
      checkpointEvery: config.checkpointEvery,
      callbackHosts: [...new Set(config.callbackHosts.map((h) => h.toLowerCase()))].sort(),
    },
    wallMs,
  };
}

/**
 * What differs between the log's genesis and this process's, said for a person, or null.
 * @example genesisConflict(theirs, ours) // 'seed "callrec" (this process: "other")'
 */
export function genesisConflict(log: Genesis, own: Genesis): string | null {
  if (log.emulator !== own.emulator) return `emulator ${log.emulator} (this process: ${own.emulator})`;
  for (const [name, value] of Object.entries(log.options)) {
    const mine = own.options[name];
    if (JSON.stringify(mine) !== JSON.stringify(value)) {
      return `${name} ${JSON.stringify(value)} (this process: ${JSON.stringify(mine)})`;
    }
  }
  return null;
}
