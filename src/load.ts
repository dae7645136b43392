import { closeSync, constants, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { parseStates, type StateDef } from './admin/state-defs';
import type { UiAsset } from './admin/ui-asset';
import type { Config } from './config';
import { DEFAULT_FIXTURES } from './config';
import { problems, ValidationError } from './errors';
import { type AccountSpec, verbatimSpec } from './generators/account-spec';
import { type DumpReport, readProductionData } from './input/restcomm-dump';
import { MAX_STATEMENT_CHARS } from './input/sql-dump';
import { parseFixtures, RowSids, validateFixtures } from './store/fixtures';

/** What the files of a config hold: the accounts and the provider states. */
export interface Inputs {
  /** Where the accounts came from, for messages and the banner. */
  fixturesLabel: string;
  accounts: readonly AccountSpec[];
  states: ReadonlyMap<string, StateDef>;
  /** What `--data` loaded, where it was given. */
  data?: DumpReport;
}

/** The most a fixtures or states file may hold: far past any real one, far short of /dev/zero. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A descriptor of a regular file, or a ValidationError naming it: a FIFO or a device would hang
 * start-up or never end. Opened non-blocking, so that a FIFO with no writer does not wait for one.
 */
function openRegularFile(path: string, what: string): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ValidationError(path, problems.cannotRead(what, code));
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new ValidationError(path, problems.notRegularFile(what));
  }
  return fd;
}

/**
 * A file's bytes, or a ValidationError naming the file. Only a regular file is read, and only
 * up to MAX_FILE_BYTES: a FIFO or a device (`/dev/zero`) would hang start-up or fill memory.
 */
function readBytes(path: string, what: string): Buffer {
  const fd = openRegularFile(path, what);
  try {
    const stat = fstatSync(fd);
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

/** Bytes read from a dump at a time. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * A file's lines as UTF-8, read a chunk at a time: a dump of gigabytes is never held whole. A
 * line longer than any statement a dump holds is handed on as far as that limit, for the dump
 * reader to refuse, never gathered further. Only a regular file is read (see `readBytes`).
 */
export function* fileLines(path: string, what: string): Generator<string> {
  const fd = openRegularFile(path, what);
  try {
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.alloc(CHUNK_BYTES);
    // The line being read, in pieces: joined once it ends, so a long line is copied once.
    let pieces: string[] = [];
    let pending = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      const text = n === 0 ? decoder.end() : decoder.write(chunk.subarray(0, n));
      let from = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
        pieces.push(text.slice(from, nl));
        yield pieces.join('');
        pieces = [];
        pending = 0;
        from = nl + 1;
      }
      if (from < text.length) {
        pieces.push(text.slice(from));
        pending += text.length - from;
      }
      // Past the longest statement a dump holds: handed on as it is, for the reader to refuse.
      if (pending > MAX_STATEMENT_CHARS) {
        yield pieces.join('');
        pieces = [];
        pending = 0;
      }
      if (n === 0) break;
    }
    if (pending > 0) yield pieces.join('');
  } finally {
    closeSync(fd);
  }
}

/**
 * A dump of production's database (`--data`), read and checked as it streams: its accounts as
 * account specs (see `verbatimSpec`), and what it held.
 */
export function readData(path: string): { accounts: AccountSpec[]; report: DumpReport } {
  const { accounts, report } = readProductionData(fileLines(path, 'data'), path);
  return { accounts: accounts.map(verbatimSpec), report };
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
  // --data alone serves production's accounts only; with --fixtures, both.
  const fixtures =
    config.data !== null && config.fixtures === DEFAULT_FIXTURES
      ? []
      : inline
        ? validateFixtures(config.fixtures, fixturesLabel)
        : readFixtures(fixturesLabel);
  const data = config.data === null ? undefined : readData(config.data);
  if (data !== undefined) {
    // A row's sid is its table's key across both sources, as one database's.
    const sids = new RowSids();
    fixtures.forEach((a, i) => {
      if (a.verbatim !== undefined) sids.add(a.verbatim, `${fixturesLabel}: accounts[${i}]`);
    });
    data.accounts.forEach((a) => {
      sids.add(a.verbatim as NonNullable<AccountSpec['verbatim']>, `${config.data}: ${a.sid}`);
    });
  }
  const accounts = [...fixtures, ...(data?.accounts ?? [])];
  const console = config.restcommConsole;
  if (console !== null) {
    if (config.dialect !== 'restcomm') throw new ValidationError('restcomm-console', problems.consoleNeedsRestcomm);
    if (!existsSync(join(console, 'index.html'))) {
      throw new ValidationError('restcomm-console', problems.consoleNoIndex(console));
    }
  }
  return {
    fixturesLabel:
      data === undefined
        ? fixturesLabel
        : fixtures.length === 0
          ? (config.data as string)
          : `${fixturesLabel} and ${config.data}`,
    accounts: Object.freeze(accounts.map((a) => Object.freeze(a))),
    states: readStates(config.states),
    ...(data === undefined ? {} : { data: data.report }),
  };
}
