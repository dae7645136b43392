import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { problems, ValidationError } from './errors';
import { instantAt } from './input/fields';
import { nearest } from './input/nearest';
import { isZone } from './input/zone';
import { VERSION } from './version';

/**
 * Configuration: flags override environment variables, which override defaults. It is read and
 * validated once, then frozen. This is the only module that reads `process.env`, and it imports
 * nothing but the error catalogue and the input readers: files are read by `load.ts`.
 */
export interface Config {
  port: number;
  host: string;
  seed: string;
  /** A fixtures file, or (in-process) the fixtures themselves. */
  fixtures: string | { accounts: unknown[] };
  paging: 'production' | 'documented';
  /** `spec`: the service as documented; `restcomm`: also what clients of a plain Restcomm Connect expect. */
  dialect: 'spec' | 'restcomm' | 'twilio';
  /** Base of `file_uri`; null means the URL the server listens on. */
  publicUrl: string | null;
  /** The reference instant, milliseconds since the epoch. */
  clockMs: number;
  /** When set, the clock follows wall time at this rate from start-up (not deterministic). */
  clockRate: number | null;
  /** PageSize above this gets a 400; null means no maximum, as in production. */
  maxPageSize: number | null;
  /** Budget of the rendered-bytes caches, MB: a quarter for items, a quarter for runs, half for responses (server.ts). */
  cacheMb: number;
  journalSize: number;
  strict: boolean;
  /** The server's time zone: StartTime and EndTime name days in it, as production's JVM zone. */
  serverZone: string;
  /** Bearer token the admin API requires; null means none. */
  adminToken: string | null;
  logLevel: LogLevel;
  cors: boolean;
  /** The provider states file. */
  states: string;
  /** Host names besides loopback ones and the listening address that /__admin answers. */
  adminHosts: readonly string[];
  /** Open connections at most; past it the oldest one with no request in flight is dropped. */
  maxConnections: number;
  /** Restcomm's admin console (its webapp folder), served at /restcomm-management/; null: none. */
  restcommConsole: string | null;
  /** A dump of production's database (mysqldump or HSQLDB script) whose accounts and rows are served; null: none. */
  data: string | null;
  /** Processes serving on this host (node:cluster), one write log kept by the primary. */
  workers: number;
  /** Writes between two checkpoints of a fleet's write log: the log keeps no more than two such spans. */
  checkpointEvery: number;
  /** The write log as a Redis stream shared by every replica (`redis://…`); null: this host's own. */
  redis: string | null;
  /** Hosts besides loopback that status callbacks may go to (`*.example.com` for sub-domains). */
  callbackHosts: readonly string[];
  /** Connect and read timeout of a status callback, ms (production's http-client response-timeout). */
  callbackTimeoutMs: number;
  /** A clock move answers at once, its status callbacks delivered after (for a stand-in). */
  callbacksInBackground: boolean;
  /** The interception proxy's port on loopback (0: any free one); null: none. */
  intercept: number | null;
  /** A Restcomm deployment's host names the proxy answers for (--dialect restcomm). */
  interceptHosts: readonly string[];
  /** Where the interception CA is kept (made there once). */
  caDir: string;
}

export const DEFAULT_FIXTURES = resolve(__dirname, '..', 'fixtures', 'default.json');
export const DEFAULT_STATES = resolve(__dirname, '..', 'fixtures', 'states.json');
export const DEFAULT_SEED = 'callrec';
/** The interception CA's home: one per user, so that a machine trusts it once. */
export const DEFAULT_CA_DIR = join(homedir(), '.callrec-emulator', 'ca');
export const DEFAULT_CLOCK = '2025-06-01T12:00:00Z';
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const INT_MAX = 2147483647;

/** A setting as given: its text, and where it came from (`--port`, `PORT`, `port`) for messages. */
interface Given {
  raw: string;
  label: string;
}

interface OptionDoc<K extends keyof Config = keyof Config> {
  /** The flag without `--`. */
  name: string;
  /** The Config field, which is also the in-process option's name. */
  key: K;
  env: string;
  value: string;
  default: string;
  help: string;
  /** The value of a given setting, or a ValidationError naming its label. */
  parse: (given: Given) => Config[K];
  /** The value when nothing is given. */
  fallback: Config[K];
}

function intIn(min: number, max: number): (given: Given) => number {
  return ({ raw, label }) => {
    if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new ValidationError(label, problems.intRange(min, max, raw));
    }
    return Number(raw);
  };
}

function flag({ raw, label }: Given): boolean {
  if (!['true', 'false', '1', '0'].includes(raw)) throw new ValidationError(label, problems.flag(raw));
  return raw === 'true' || raw === '1';
}

/** A host name, an IPv4 address or an IPv6 address (without brackets). */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/;

function hostName({ raw, label }: Given): string {
  if (raw.trim() === '') throw new ValidationError(label, problems.nonEmpty);
  if (!HOST.test(raw)) throw new ValidationError(label, problems.hostName(raw));
  return raw;
}

/** Host names, each optionally `*.` and a domain (its sub-domains). */
function hostPatterns({ raw, label }: Given): readonly string[] {
  return Object.freeze(
    raw.split(',').map((name) => {
      const t = name.trim();
      const wild = t.startsWith('*.');
      return `${wild ? '*.' : ''}${hostName({ raw: wild ? t.slice(2) : t, label }).toLowerCase()}`;
    }),
  );
}

function hostNames({ raw, label }: Given): readonly string[] {
  return Object.freeze(raw.split(',').map((name) => hostName({ raw: name.trim(), label }).toLowerCase()));
}

const instant = ({ raw, label }: Given): number => instantAt(label, raw);

function redisUrl({ raw, label }: Given): string {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new ValidationError(label, problems.redisUrl(raw));
  }
  return raw;
}

function publicUrl({ raw, label }: Given): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(label, problems.httpUrl(raw));
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new ValidationError(label, problems.httpUrlPlain(raw));
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function oneOf<T extends string>(values: readonly T[], problem: (got: string) => string): (given: Given) => T {
  return ({ raw, label }) => {
    if (!(values as readonly string[]).includes(raw)) throw new ValidationError(label, problem(raw));
    return raw as T;
  };
}

const option = <K extends keyof Config>(doc: OptionDoc<K>): OptionDoc => doc as unknown as OptionDoc;

/** The options, in the order `--help` and docs/options.md list them. */
export const OPTIONS: readonly OptionDoc[] = [
  option({
    name: 'port',
    key: 'port',
    env: 'PORT',
    value: 'N',
    default: '8080',
    help: 'port to listen on; 0 picks any free port',
    parse: intIn(0, 65535),
    fallback: 8080,
  }),
  option({
    name: 'host',
    key: 'host',
    env: 'HOST',
    value: 'ADDR',
    default: '127.0.0.1',
    help: 'address to listen on (0.0.0.0 for all)',
    parse: hostName,
    fallback: '127.0.0.1',
  }),
  option({
    name: 'seed',
    key: 'seed',
    env: 'CALLREC_SEED',
    value: 'TEXT',
    default: DEFAULT_SEED,
    help: 'seed of all generated data; any string',
    parse: ({ raw, label }) => {
      if (raw === '') throw new ValidationError(label, problems.nonEmpty);
      return raw;
    },
    fallback: DEFAULT_SEED,
  }),
  option({
    name: 'fixtures',
    key: 'fixtures',
    env: 'CALLREC_FIXTURES',
    value: 'FILE',
    default: 'the embedded fixtures/default.json',
    help: 'JSON file of accounts',
    parse: ({ raw }) => resolve(raw),
    fallback: DEFAULT_FIXTURES,
  }),
  option({
    name: 'paging',
    key: 'paging',
    env: 'CALLREC_PAGING',
    value: 'MODE',
    default: 'production',
    help: 'paging arithmetic: production or documented',
    parse: oneOf(['production', 'documented'], problems.paging),
    fallback: 'production',
  }),
  option({
    name: 'dialect',
    key: 'dialect',
    env: 'CALLREC_DIALECT',
    value: 'NAME',
    default: 'spec',
    help: "spec; restcomm: also /restcomm/2012-04-24 paths, AccountSid:AuthToken logins and the account resource; twilio: Twilio's /2010-04-01 API",
    parse: oneOf(['spec', 'restcomm', 'twilio'], problems.dialect),
    fallback: 'spec',
  }),
  option({
    name: 'public-url',
    key: 'publicUrl',
    env: 'CALLREC_PUBLIC_URL',
    value: 'URL',
    default: 'the listening URL',
    help: 'base URL of recording file_uri values',
    parse: publicUrl,
    fallback: null,
  }),
  option({
    name: 'clock',
    key: 'clockMs',
    env: 'CALLREC_CLOCK',
    value: 'ISO8601',
    default: DEFAULT_CLOCK,
    help: 'reference instant; calls lie in the weeks before it',
    parse: instant,
    fallback: instantAt('default clock', DEFAULT_CLOCK),
  }),
  option({
    name: 'clock-rate',
    key: 'clockRate',
    env: 'CALLREC_CLOCK_RATE',
    value: 'R',
    default: 'none',
    help: 'the clock follows wall time at R times from start-up (local use; answers are then not deterministic)',
    parse: ({ raw, label }) => {
      if (!/^[0-9]+(\.[0-9]+)?$/.test(raw) || Number(raw) <= 0 || Number(raw) > 1_000_000) {
        throw new ValidationError(label, problems.clockRate(raw));
      }
      return Number(raw);
    },
    fallback: null,
  }),
  option({
    name: 'max-page-size',
    key: 'maxPageSize',
    env: 'CALLREC_MAX_PAGE_SIZE',
    value: 'N',
    default: 'none',
    help: 'largest PageSize accepted; larger gets 400',
    parse: intIn(1, INT_MAX),
    fallback: null,
  }),
  option({
    name: 'cache-mb',
    key: 'cacheMb',
    env: 'CALLREC_CACHE_MB',
    value: 'N',
    default: '96',
    help: 'memory for rendered pages and items, MB; 0 turns caching off',
    parse: intIn(0, 65536),
    fallback: 96,
  }),
  option({
    name: 'journal-size',
    key: 'journalSize',
    env: 'CALLREC_JOURNAL_SIZE',
    value: 'N',
    default: '1000',
    help: 'API requests the journal keeps (a ring buffer)',
    parse: intIn(0, 1_000_000),
    fallback: 1000,
  }),
  option({
    name: 'strict',
    key: 'strict',
    env: 'CALLREC_STRICT',
    value: '',
    default: 'off',
    help: 'refuse with 400 what production ignores (each warning)',
    parse: flag,
    fallback: false,
  }),
  option({
    name: 'server-zone',
    key: 'serverZone',
    env: 'CALLREC_SERVER_ZONE',
    value: 'ZONE',
    default: 'UTC',
    help: "the server's time zone (IANA name or +HH:MM), in which StartTime and EndTime name days",
    parse: ({ raw, label }) => {
      if (!isZone(raw)) throw new ValidationError(label, problems.serverZone(raw));
      return raw;
    },
    fallback: 'UTC',
  }),
  option({
    name: 'admin-token',
    key: 'adminToken',
    env: 'CALLREC_ADMIN_TOKEN',
    value: 'TOKEN',
    default: 'none',
    help: 'require Authorization: Bearer TOKEN on /__admin',
    parse: ({ raw, label }) => {
      if (!/^[\x21-\x7e]{1,256}$/.test(raw)) throw new ValidationError(label, problems.adminToken);
      return raw;
    },
    fallback: null,
  }),
  option({
    name: 'log-level',
    key: 'logLevel',
    env: 'CALLREC_LOG_LEVEL',
    value: 'LEVEL',
    default: 'warn',
    help: `request logs: ${LOG_LEVELS.join(', ')}; warn logs 4xx, 5xx and warnings, info every request`,
    parse: oneOf(LOG_LEVELS, (got) => problems.oneOf(LOG_LEVELS, got)),
    // A line for every request halved a hot page's throughput (writing it, not making it): by
    // default only what needs a look is logged.
    fallback: 'warn',
  }),
  option({
    name: 'cors',
    key: 'cors',
    env: 'CALLREC_CORS',
    value: '',
    default: 'off',
    help: 'allow browser apps from any origin (CORS, preflight included)',
    parse: flag,
    fallback: false,
  }),
  option({
    name: 'admin-hosts',
    key: 'adminHosts',
    env: 'CALLREC_ADMIN_HOSTS',
    value: 'NAMES',
    default: 'none',
    help: 'host names /__admin answers besides loopback ones and --host (comma-separated)',
    parse: hostNames,
    fallback: Object.freeze([]),
  }),
  option({
    name: 'max-connections',
    key: 'maxConnections',
    env: 'CALLREC_MAX_CONNECTIONS',
    value: 'N',
    default: '512',
    help: 'open connections at most; then the oldest idle one is dropped',
    parse: intIn(1, 65536),
    fallback: 512,
  }),
  option({
    name: 'states',
    key: 'states',
    env: 'CALLREC_STATES',
    value: 'FILE',
    default: 'the embedded fixtures/states.json',
    help: 'Pact provider states file',
    parse: ({ raw }) => resolve(raw),
    fallback: DEFAULT_STATES,
  }),
  option({
    name: 'data',
    key: 'data',
    env: 'CALLREC_DATA',
    value: 'FILE',
    default: 'none',
    help: "production's own data: a mysqldump or HSQLDB script of Restcomm's tables, served as stored (replaces the default accounts unless --fixtures is given)",
    parse: ({ raw }) => resolve(raw),
    fallback: null,
  }),
  option({
    name: 'restcomm-console',
    key: 'restcommConsole',
    env: 'CALLREC_RESTCOMM_CONSOLE',
    value: 'DIR',
    default: 'none',
    help: "serve Restcomm's admin console (the webapp folder of restcomm.ui) at /restcomm-management/ (--dialect restcomm)",
    parse: ({ raw }) => resolve(raw),
    fallback: null,
  }),
  option({
    name: 'workers',
    key: 'workers',
    env: 'CALLREC_WORKERS',
    value: 'N',
    default: '1',
    help: 'processes serving the port (node:cluster); every write goes through one log, so all answer alike',
    parse: intIn(1, 64),
    fallback: 1,
  }),
  option({
    name: 'redis',
    key: 'redis',
    env: 'CALLREC_REDIS',
    value: 'URL',
    default: 'none',
    help: 'keep the write log in Redis (redis:// or rediss://), shared by every replica started with the same URL and options',
    parse: redisUrl,
    fallback: null,
  }),
  option({
    name: 'checkpoint-every',
    key: 'checkpointEvery',
    env: 'CALLREC_CHECKPOINT_EVERY',
    value: 'N',
    default: '10000',
    help: 'with --workers or --redis: writes between two checkpoints of the write log (a new replica starts from the last; older entries go)',
    parse: intIn(1, 10_000_000),
    fallback: 10_000,
  }),
  option({
    name: 'callback-hosts',
    key: 'callbackHosts',
    env: 'CALLREC_CALLBACK_HOSTS',
    value: 'NAMES',
    default: 'none',
    help: 'hosts status callbacks may go to besides loopback (comma-separated; *.example.com for its sub-domains)',
    parse: hostPatterns,
    fallback: Object.freeze([]),
  }),
  option({
    name: 'callback-timeout-ms',
    key: 'callbackTimeoutMs',
    env: 'CALLREC_CALLBACK_TIMEOUT_MS',
    value: 'MS',
    default: '6000',
    help: "a status callback's connect and read timeout (production's http-client response-timeout)",
    parse: intIn(1, 600_000),
    fallback: 6000,
  }),
  option({
    name: 'callbacks-in-background',
    key: 'callbacksInBackground',
    env: 'CALLREC_CALLBACKS_IN_BACKGROUND',
    value: '',
    default: 'off',
    help: 'a clock move answers at once and its status callbacks follow (default: it answers once they are delivered)',
    parse: flag,
    fallback: false,
  }),
  option({
    name: 'intercept',
    key: 'intercept',
    env: 'CALLREC_INTERCEPT',
    value: 'PORT',
    default: 'none',
    help: "an HTTPS proxy on loopback answering for the provider's hosts (api.twilio.com, or --intercept-host), 0 for any free port; see docs/intercept.md",
    parse: intIn(0, 65535),
    fallback: null,
  }),
  option({
    name: 'intercept-host',
    key: 'interceptHosts',
    env: 'CALLREC_INTERCEPT_HOST',
    value: 'NAMES',
    default: 'none',
    help: "with --dialect restcomm: the deployment's host names the proxy answers for (comma-separated)",
    parse: interceptNames,
    fallback: Object.freeze([]),
  }),
  option({
    name: 'ca-dir',
    key: 'caDir',
    env: 'CALLREC_CA_DIR',
    value: 'DIR',
    default: '~/.callrec-emulator/ca',
    help: 'where the interception CA is made once and kept (ca.pem, ca.jks to trust; ca-key.pem its key)',
    parse: ({ raw }) => resolve(raw),
    fallback: DEFAULT_CA_DIR,
  }),
];

/** Host names a certificate can name: no addresses, no wildcards. */
function interceptNames(given: Given): readonly string[] {
  const names = hostNames(given).map((n) => n.replace(/\.$/, ''));
  const address = names.find((n) => /^[0-9.]+$/.test(n) || n.includes(':'));
  if (address !== undefined) throw new ValidationError(given.label, problems.interceptHostNotName(address));
  return Object.freeze(names);
}

/** What one option means depends on another: interception answers for the dialect's provider. */
function crossCheck(config: Readonly<Config>, label: (name: string) => string): Readonly<Config> {
  if (config.intercept !== null && config.dialect === 'spec')
    throw new ValidationError(label('intercept'), problems.interceptNeedsProvider);
  if (config.intercept !== null && config.dialect === 'restcomm' && config.interceptHosts.length === 0)
    throw new ValidationError(label('intercept'), problems.interceptNeedsHost);
  if (config.interceptHosts.length > 0 && config.intercept === null)
    throw new ValidationError(label('intercept-host'), problems.interceptHostNeedsIntercept);
  if (config.interceptHosts.length > 0 && config.dialect !== 'restcomm')
    throw new ValidationError(label('intercept-host'), problems.interceptHostNeedsRestcomm);
  return config;
}

export function helpText(): string {
  const rows = OPTIONS.map((o) => {
    const flagText = `  --${o.name}${o.value === '' ? '' : ` ${o.value}`}`.padEnd(28);
    return `${flagText}${o.help}\n${' '.repeat(28)}env ${o.env}; default ${o.default}`;
  });
  return [
    'Usage: callrec-emulator [options]',
    '',
    'Emulates the call-records and recordings listing API on deterministic seeded data.',
    'Flags override environment variables, which override defaults. An empty variable counts as unset.',
    '',
    'Options:',
    ...rows,
    '  --version                 print the version and exit',
    '  --help                    print this help and exit',
    '',
  ].join('\n');
}

/** Every option's value: the given one parsed, else the fallback; frozen. */
function build(given: (doc: OptionDoc) => Given | undefined, overrides: Partial<Config> = {}): Readonly<Config> {
  const config = {} as Record<keyof Config, unknown>;
  for (const doc of OPTIONS) {
    const g = given(doc);
    config[doc.key] = g === undefined ? doc.fallback : doc.parse(g);
  }
  return Object.freeze({ ...(config as unknown as Config), ...overrides });
}

export type LoadResult =
  | { kind: 'help'; text: string }
  | { kind: 'version'; text: string }
  | { kind: 'config'; config: Readonly<Config> };

/**
 * `--port -1` as `--port=-1`: node's parser takes a value that starts with `-` for another flag
 * ("ambiguous"), and the option's own range message is the one that helps.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const valued = new Set(OPTIONS.filter((o) => o.value !== '').map((o) => `--${o.name}`));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (valued.has(arg) && next !== undefined && /^-[0-9.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** For an unknown flag, the option it most likely meant: ` (did you mean --port?)`, or nothing. */
function didYouMean(err: unknown): string {
  const m = /^Unknown option '--([^']+)'/.exec((err as Error).message);
  if ((err as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || m === null) return '';
  const meant = nearest(m[1] as string, [...OPTIONS.map((o) => o.name), 'help', 'version']);
  return meant === undefined ? '' : ` (did you mean --${meant}?)`;
}

/**
 * Reads flags (`argv` without the node and script paths) over environment variables over
 * defaults, validates every value, and returns a frozen config. Throws a ValidationError naming
 * the flag or variable.
 */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): LoadResult {
  let flags: Record<string, string | boolean | undefined>;
  try {
    flags = parseArgs({
      args: joinNegativeValues(argv),
      options: {
        ...Object.fromEntries(
          OPTIONS.map((o) => [o.name, { type: o.value === '' ? ('boolean' as const) : ('string' as const) }]),
        ),
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new ValidationError('', `${(err as Error).message}${didYouMean(err)}; see --help`);
  }
  if (flags['help'] === true) return { kind: 'help', text: helpText() };
  if (flags['version'] === true) return { kind: 'version', text: `callrec-emulator ${VERSION}\n` };
  // The first of flag, then non-empty environment variable; the label names where it came from.
  const config = build((doc) => {
    const f = flags[doc.name];
    if (typeof f === 'string') return { raw: f, label: `--${doc.name}` };
    if (f === true) return { raw: 'true', label: `--${doc.name}` };
    const fromEnv = env[doc.env];
    return fromEnv !== undefined && fromEnv !== '' ? { raw: fromEnv, label: doc.env } : undefined;
  });
  return { kind: 'config', config: crossCheck(config, (name) => `--${name}`) };
}

/**
 * A config from typed in-process options, validated by the same rules as flags; messages name
 * the option as the caller spelled it (`port`, not `--port`). The environment is not read.
 * In-process defaults differ from the CLI's in two ways: port 0 (any free port), log level silent.
 */
export function configFromOptions(options: Record<string, unknown>): Readonly<Config> {
  const known = new Set<string>(OPTIONS.map((o) => (o.key === 'clockMs' ? 'clock' : o.key)));
  for (const name of Object.keys(options)) {
    if (!known.has(name)) throw new ValidationError(name, problems.unknownField([...known]));
  }
  const inline =
    typeof options['fixtures'] === 'object' && options['fixtures'] !== null ? options['fixtures'] : undefined;
  const config = build(
    (doc) => {
      const name = doc.key === 'clockMs' ? 'clock' : doc.key;
      const value = name === 'fixtures' && inline !== undefined ? undefined : options[name];
      // In-process: any free port, and quiet (a test run's output is the test runner's).
      const fallback = name === 'port' ? '0' : name === 'logLevel' ? 'silent' : undefined;
      if (value === undefined) return fallback === undefined ? undefined : { raw: fallback, label: name };
      return { raw: String(value), label: name };
    },
    inline === undefined ? {} : { fixtures: inline as { accounts: unknown[] } },
  );
  const keys: Record<string, string> = { intercept: 'intercept', 'intercept-host': 'interceptHosts' };
  return crossCheck(config, (name) => keys[name] ?? name);
}
