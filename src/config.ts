import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { AccountSpec } from './generators/account';
import type { PagingProfile } from './query/paging';
import { parseFixtures } from './store/fixtures';
import { parseStates, StatesError, type StateDef } from './admin/provider-states';

/**
 * Configuration: flags override environment variables, which override defaults. It is read and
 * validated once, then frozen. This is the only module that reads `process.env`.
 */
export interface Config {
  port: number;
  host: string;
  seed: string;
  /** Where the accounts came from, for messages. */
  fixturesPath: string;
  accounts: readonly AccountSpec[];
  paging: PagingProfile;
  /** Base of `file_uri`; null means the URL the server listens on. */
  publicUrl: string | null;
  /** The reference instant, milliseconds since the epoch. */
  clockMs: number;
  /** PageSize above this gets a 400; null means no maximum, as in production. */
  maxPageSize: number | null;
  /** Budget of the rendered-bytes caches, MB: a third for items, the rest for responses. */
  cacheMb: number;
  journalSize: number;
  strict: boolean;
  /** Bearer token the admin API requires; null means none. */
  adminToken: string | null;
  logLevel: LogLevel;
  cors: boolean;
  /** The provider states file, and its states. */
  statesPath: string;
  states: ReadonlyMap<string, StateDef>;
}

/** A bad option value; startup stops with this message and exit code 2. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_FIXTURES = resolve(__dirname, '..', 'fixtures', 'default.json');
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_STATES = resolve(__dirname, '..', 'fixtures', 'states.json');
export const DEFAULT_SEED = 'callrec';
export const DEFAULT_CLOCK = '2025-06-01T12:00:00Z';
const INT_MAX = 2147483647;

type OptionName = 'port' | 'host' | 'seed' | 'fixtures' | 'paging' | 'public-url' | 'clock' | 'max-page-size' | 'cache-mb' | 'journal-size' | 'strict' | 'admin-token' | 'states' | 'log-level' | 'cors';

interface OptionDoc {
  name: OptionName;
  env: string;
  value: string;
  default: string;
  help: string;
}

/** The options, in the order `--help` and README list them. */
export const OPTIONS: readonly OptionDoc[] = [
  { name: 'port', env: 'PORT', value: 'N', default: '8080', help: 'port to listen on; 0 picks any free port' },
  { name: 'host', env: 'HOST', value: 'ADDR', default: '127.0.0.1', help: 'address to listen on (0.0.0.0 for all)' },
  { name: 'seed', env: 'CALLREC_SEED', value: 'TEXT', default: DEFAULT_SEED, help: 'seed of all generated data; any string' },
  { name: 'fixtures', env: 'CALLREC_FIXTURES', value: 'FILE', default: 'the embedded fixtures/default.json', help: 'JSON file of accounts' },
  { name: 'paging', env: 'CALLREC_PAGING', value: 'MODE', default: 'production', help: 'paging arithmetic: production or documented' },
  { name: 'public-url', env: 'CALLREC_PUBLIC_URL', value: 'URL', default: 'the listening URL', help: 'base URL of recording file_uri values' },
  { name: 'clock', env: 'CALLREC_CLOCK', value: 'ISO8601', default: DEFAULT_CLOCK, help: 'reference instant; calls lie in the weeks before it' },
  { name: 'max-page-size', env: 'CALLREC_MAX_PAGE_SIZE', value: 'N', default: 'none', help: 'largest PageSize accepted; larger gets 400' },
  { name: 'cache-mb', env: 'CALLREC_CACHE_MB', value: 'N', default: '96', help: 'memory for rendered pages and items, MB; 0 turns caching off' },
  { name: 'journal-size', env: 'CALLREC_JOURNAL_SIZE', value: 'N', default: '1000', help: 'API requests the journal keeps (a ring buffer)' },
  { name: 'strict', env: 'CALLREC_STRICT', value: '', default: 'off', help: 'refuse with 400 what production ignores (each warning)' },
  { name: 'admin-token', env: 'CALLREC_ADMIN_TOKEN', value: 'TOKEN', default: 'none', help: 'require Authorization: Bearer TOKEN on /__admin' },
  { name: 'log-level', env: 'CALLREC_LOG_LEVEL', value: 'LEVEL', default: 'info', help: 'request logs: silent, error, warn, info, debug' },
  { name: 'cors', env: 'CALLREC_CORS', value: '', default: 'off', help: 'allow browser apps from any origin (CORS, preflight included)' },
  { name: 'states', env: 'CALLREC_STATES', value: 'FILE', default: 'the embedded fixtures/states.json', help: 'Pact provider states file' },
];

export function helpText(): string {
  const rows = OPTIONS.map((o) => {
    const flag = `  --${o.name}${o.value === '' ? '' : ` ${o.value}`}`.padEnd(28);
    return `${flag}${o.help}\n${' '.repeat(28)}env ${o.env}; default ${o.default}`;
  });
  return [
    'Usage: callrec-emulator [options]',
    '',
    'Emulates the call-records and recordings listing API on deterministic seeded data.',
    'Flags override environment variables, which override defaults. An empty variable counts as unset.',
    '',
    'Options:',
    ...rows,
    '  --help                    print this help and exit',
    '',
  ].join('\n');
}

function intIn(label: string, raw: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${label}: must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/**
 * An ISO 8601 instant with an explicit zone (`Z` or `±hh:mm`), or a bare date taken as UTC
 * midnight. A date-time without a zone is refused: it would depend on the host's TZ.
 */
export function parseClock(label: string, raw: string): number {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:Z|([+-])(\d{2}):?(\d{2})))?$/.exec(raw);
  const bad = () =>
    new ConfigError(`${label}: must be an ISO 8601 instant with a zone, such as ${DEFAULT_CLOCK}, got ${JSON.stringify(raw)}`);
  if (m === null) throw bad();
  const n = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  const [y, mo, d, h, mi, s, oh, om] = [n(1), n(2), n(3), n(4), n(5), n(6), n(9), n(10)];
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) throw bad();
  const offsetMs = (m[8] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMs;
}

function parsePublicUrl(label: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${label}: must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new ConfigError(`${label}: must be an http(s) URL without query or fragment, got ${JSON.stringify(raw)}`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Reads and checks a provider states file. */
export function readStates(path: string): Map<string, StateDef> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${path}: cannot read the states file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return parseStates(text, path);
  } catch (err) {
    if (err instanceof StatesError) throw new ConfigError(err.message);
    throw err;
  }
}

function readFixtures(path: string): AccountSpec[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${path}: cannot read the fixtures file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseFixtures(text, path);
}

export type LoadResult = { kind: 'help'; text: string } | { kind: 'config'; config: Readonly<Config> };

/**
 * Reads flags (`argv` without the node and script paths) over environment variables over
 * defaults, validates every value, and returns a frozen config. Throws ConfigError or
 * FixtureError on a bad value.
 */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): LoadResult {
  let flags: Record<string, string | boolean | undefined>;
  try {
    flags = parseArgs({
      args: [...argv],
      options: {
        ...Object.fromEntries(OPTIONS.map((o) => [o.name, { type: o.value === '' ? ('boolean' as const) : ('string' as const) }])),
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new ConfigError(`${(err as Error).message}; see --help`);
  }
  if (flags['help'] === true) return { kind: 'help', text: helpText() };

  // The first of flag, then non-empty environment variable; the label names where it came from.
  const pick = (name: OptionName): { raw: string; label: string } | undefined => {
    const doc = OPTIONS.find((o) => o.name === name) as OptionDoc;
    const flag = flags[name];
    if (typeof flag === 'string') return { raw: flag, label: `--${name}` };
    if (flag === true) return { raw: 'true', label: `--${name}` };
    const fromEnv = env[doc.env];
    if (fromEnv !== undefined && fromEnv !== '') return { raw: fromEnv, label: doc.env };
    return undefined;
  };

  const port = pick('port');
  const host = pick('host');
  const seed = pick('seed');
  if (seed !== undefined && seed.raw === '') throw new ConfigError(`${seed.label}: must not be empty`);
  if (host !== undefined && host.raw.trim() === '') throw new ConfigError(`${host.label}: must not be empty`);
  const paging = pick('paging');
  if (paging !== undefined && paging.raw !== 'production' && paging.raw !== 'documented') {
    throw new ConfigError(`${paging.label}: must be production or documented, got ${JSON.stringify(paging.raw)}`);
  }
  const fixtures = pick('fixtures');
  const fixturesPath = fixtures === undefined ? DEFAULT_FIXTURES : resolve(fixtures.raw);
  const publicUrl = pick('public-url');
  const clock = pick('clock');
  const maxPageSize = pick('max-page-size');
  const cacheMb = pick('cache-mb');
  const journalSize = pick('journal-size');
  const flag = (name: OptionName): boolean => {
    const v = pick(name);
    if (v !== undefined && !['true', 'false', '1', '0'].includes(v.raw)) {
      throw new ConfigError(`${v.label}: must be true, false, 1 or 0, got ${JSON.stringify(v.raw)}`);
    }
    return v !== undefined && (v.raw === 'true' || v.raw === '1');
  };
  const logLevel = pick('log-level');
  if (logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(logLevel.raw)) {
    throw new ConfigError(`${logLevel.label}: must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel.raw)}`);
  }
  const adminToken = pick('admin-token');
  if (adminToken !== undefined && !/^[\x21-\x7e]{1,256}$/.test(adminToken.raw)) {
    throw new ConfigError(`${adminToken.label}: must be 1 to 256 visible ASCII characters`);
  }
  const states = pick('states');

  const config: Config = {
    port: port === undefined ? 8080 : intIn(port.label, port.raw, 0, 65535),
    host: host === undefined ? '127.0.0.1' : host.raw,
    seed: seed === undefined ? DEFAULT_SEED : seed.raw,
    fixturesPath,
    accounts: Object.freeze(readFixtures(fixturesPath).map((a) => Object.freeze(a))),
    paging: (paging?.raw as PagingProfile | undefined) ?? 'production',
    publicUrl: publicUrl === undefined ? null : parsePublicUrl(publicUrl.label, publicUrl.raw),
    clockMs: clock === undefined ? parseClock('default clock', DEFAULT_CLOCK) : parseClock(clock.label, clock.raw),
    maxPageSize: maxPageSize === undefined ? null : intIn(maxPageSize.label, maxPageSize.raw, 1, INT_MAX),
    cacheMb: cacheMb === undefined ? 96 : intIn(cacheMb.label, cacheMb.raw, 0, 65536),
    journalSize: journalSize === undefined ? 1000 : intIn(journalSize.label, journalSize.raw, 0, 1_000_000),
    strict: flag('strict'),
    logLevel: (logLevel?.raw as LogLevel | undefined) ?? 'info',
    cors: flag('cors'),
    adminToken: adminToken?.raw ?? null,
    statesPath: states === undefined ? DEFAULT_STATES : resolve(states.raw),
    states: readStates(states === undefined ? DEFAULT_STATES : resolve(states.raw)),
  };
  return { kind: 'config', config: Object.freeze(config) };
}
