import { closeSync, constants, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { parseStates, type StateDef } from './admin/state-defs';
import type { UiAsset } from './admin/ui-asset';
import type { Config } from './config';
import { problems, ValidationError } from './errors';
import type { AccountSpec } from './generators/account-spec';
import { parseFixtures, validateFixtures } from './store/fixtures';

/** What the files of a config hold: the accounts and the provider states. */
export interface Inputs {
  /** Where the accounts came from, for messages and the banner. */
  fixturesLabel: string;
  accounts: readonly AccountSpec[];
  states: ReadonlyMap<string, StateDef>;
}

/** The most a fixtures or states file may hold: far past any real one, far short of /dev/zero. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A file's bytes, or a ValidationError naming the file. Only a regular file is read, and only
 * up to MAX_FILE_BYTES: a FIFO or a device (`/dev/zero`) would hang start-up or fill memory.
 */
function readBytes(path: string, what: string): Buffer {
  let fd: number;
  try {
    // Non-blocking, so that opening a FIFO with no writer does not wait for one.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ValidationError(path, problems.cannotRead(what, code));
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ValidationError(path, problems.notRegularFile(what));
    if (stat.size > MAX_FILE_BYTES) throw new ValidationError(path, problems.fileTooLarge(what, MAX_FILE_BYTES));
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

const UI_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Where the inspector's files are: `ui/` beside `src/` and `dist/`, in the repository and in the package. */
export const UI_DIR = resolve(__dirname, '..', 'ui');

/**
 * The inspector's files by name (a flat folder of plain modules, no build), read once at
 * start-up. A checkout or image without them serves none: `/__admin/ui` then says so.
 */
export function loadUi(dir: string = UI_DIR): ReadonlyMap<string, UiAsset> {
  const assets = new Map<string, UiAsset>();
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir).sort()) {
    const type = UI_TYPES[extname(name)];
    if (type !== undefined) assets.set(name, { bytes: readBytes(join(dir, name), 'ui'), type });
  }
  return assets;
}

/** Reads and checks a provider states file. */
export function readStates(path: string): Map<string, StateDef> {
  return parseStates(readBytes(path, 'states'), path);
}

/** Reads and checks a fixtures file. */
export function readFixtures(path: string): AccountSpec[] {
  return parseFixtures(readBytes(path, 'fixtures'), path);
}

/**
 * The accounts and states a config names, read and validated; the one place files are read.
 * In-process fixtures given as data are validated under the label `options.fixtures`.
 */
export function loadInputs(config: Readonly<Config>): Inputs {
  const inline = typeof config.fixtures === 'object';
  const fixturesLabel = inline ? 'options.fixtures' : (config.fixtures as string);
  const accounts = inline ? validateFixtures(config.fixtures, fixturesLabel) : readFixtures(fixturesLabel);
  const console = config.restcommConsole;
  if (console !== null) {
    if (config.dialect !== 'restcomm') throw new ValidationError('restcomm-console', problems.consoleNeedsRestcomm);
    if (!existsSync(join(console, 'index.html'))) {
      throw new ValidationError('restcomm-console', problems.consoleNoIndex(console));
    }
  }
  return {
    fixturesLabel,
    accounts: Object.freeze(accounts.map((a) => Object.freeze(a))),
    states: readStates(config.states),
  };
}
