import { readFileSync } from 'node:fs';
import { parseStates, type StateDef } from './admin/provider-states';
import type { Config } from './config';
import { problems, ValidationError } from './errors';
import type { AccountSpec } from './generators/account';
import { parseFixtures, validateFixtures } from './store/fixtures';

/** What the files of a config hold: the accounts and the provider states. */
export interface Inputs {
  /** Where the accounts came from, for messages and the banner. */
  fixturesLabel: string;
  accounts: readonly AccountSpec[];
  states: ReadonlyMap<string, StateDef>;
}

/** A file's text, or a ValidationError naming the file. */
function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ValidationError(
      path,
      problems.cannotRead(what, (err as NodeJS.ErrnoException).code ?? (err as Error).message),
    );
  }
}

/** Reads and checks a provider states file. */
export function readStates(path: string): Map<string, StateDef> {
  return parseStates(readText(path, 'states'), path);
}

/** Reads and checks a fixtures file. */
export function readFixtures(path: string): AccountSpec[] {
  return parseFixtures(readText(path, 'fixtures'), path);
}

/**
 * The accounts and states a config names, read and validated; the one place files are read.
 * In-process fixtures given as data are validated under the label `options.fixtures`.
 */
export function loadInputs(config: Readonly<Config>): Inputs {
  const inline = typeof config.fixtures === 'object';
  const fixturesLabel = inline ? 'options.fixtures' : (config.fixtures as string);
  const accounts = inline ? validateFixtures(config.fixtures, fixturesLabel) : readFixtures(fixturesLabel);
  return {
    fixturesLabel,
    accounts: Object.freeze(accounts.map((a) => Object.freeze(a))),
    states: readStates(config.states),
  };
}
