import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Config,
  configFromOptions,
  DEFAULT_CLOCK,
  DEFAULT_FIXTURES,
  DEFAULT_STATES,
  helpText,
  loadConfig,
  OPTIONS,
} from '../../src/config';
import { problems, ValidationError } from '../../src/errors';
import { parseInstant } from '../../src/format/dates';
import { instantAt } from '../../src/input/fields';
import { loadInputs } from '../../src/load';

const load = (argv: string[], env: Record<string, string> = {}): Readonly<Config> => {
  const r = loadConfig(argv, env);
  if (r.kind !== 'config') throw new Error('expected a config');
  return r.config;
};

describe('loadConfig', () => {
  test('defaults', () => {
    const c = load([]);
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      seed: 'callrec',
      fixtures: DEFAULT_FIXTURES,
      states: DEFAULT_STATES,
      paging: 'production',
      publicUrl: null,
      clockMs: Date.parse(DEFAULT_CLOCK),
      maxPageSize: null,
      cacheMb: 96,
      journalSize: 1000,
      strict: false,
      serverZone: 'UTC',
      adminToken: null,
    });
    expect(loadInputs(c).accounts.length).toBeGreaterThanOrEqual(4);
    expect(Object.isFrozen(c)).toBe(true);
  });

  test('env overrides defaults, flags override env; an empty variable is unset', () => {
    const env = {
      PORT: '9000',
      HOST: '0.0.0.0',
      CALLREC_SEED: 'env-seed',
      CALLREC_PAGING: 'documented',
      CALLREC_MAX_PAGE_SIZE: '',
    };
    expect(load([], env)).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      seed: 'env-seed',
      paging: 'documented',
      maxPageSize: null,
    });
    expect(load(['--port', '0', '--seed=flag-seed', '--paging', 'production'], env)).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      seed: 'flag-seed',
      paging: 'production',
    });
  });

  test.each([
    [['--intercept', '8443'], '--intercept', problems.interceptNeedsProvider],
    [['--intercept', '8443', '--dialect', 'restcomm'], '--intercept', problems.interceptNeedsHost],
    [
      ['--intercept-host', 'rc.test', '--dialect', 'restcomm'],
      '--intercept-host',
      problems.interceptHostNeedsIntercept,
    ],
    [
      ['--intercept-host', 'rc.test', '--intercept', '0', '--dialect', 'twilio'],
      '--intercept-host',
      problems.interceptHostNeedsRestcomm,
    ],
    [
      ['--intercept-host', '10.0.0.1', '--intercept', '0', '--dialect', 'restcomm'],
      '--intercept-host',
      problems.interceptHostNotName('10.0.0.1'),
    ],
    [['--intercept', '70000', '--dialect', 'twilio'], '--intercept', problems.intRange(0, 65535, '70000')],
  ])('interception options that cannot work together: %j', (argv, label, problem) => {
    expect(() => load(argv)).toThrow(new ValidationError(label, problem).message);
  });

  test('every option is read from its flag and its env var', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-'));
    const file = join(dir, 'f.json');
    writeFileSync(file, JSON.stringify({ accounts: [{ friendly_name: 'Only', calls: 2 }] }));
    const values: Record<string, [string, unknown]> = {
      port: ['1234', 1234],
      host: ['::1', '::1'],
      seed: ['abc', 'abc'],
      fixtures: [file, file],
      paging: ['documented', 'documented'],
      dialect: ['restcomm', 'restcomm'],
      'clock-rate': ['2.5', 2.5],
      'public-url': ['https://emu.test/x/', 'https://emu.test/x'],
      clock: ['2020-01-02T03:04:05Z', Date.UTC(2020, 0, 2, 3, 4, 5)],
      'max-page-size': ['500', 500],
      'cache-mb': ['0', 0],
      'journal-size': ['5', 5],
      strict: ['true', true],
      'server-zone': ['Europe/Madrid', 'Europe/Madrid'],
      'admin-token': ['secret', 'secret'],
      states: [DEFAULT_STATES, DEFAULT_STATES],
      'log-level': ['debug', 'debug'],
      cors: ['true', true],
      'admin-hosts': ['emulator, Box.local', ['emulator', 'box.local']],
      'max-connections': ['64', 64],
      'restcomm-console': ['/srv/console', '/srv/console'],
      data: ['/srv/restcomm.sql', '/srv/restcomm.sql'],
      workers: ['4', 4],
      redis: ['redis://cache.test:6380/2', 'redis://cache.test:6380/2'],
      'checkpoint-every': ['500', 500],
      'callback-hosts': ['hooks.test, *.Example.com', ['hooks.test', '*.example.com']],
      'callback-timeout-ms': ['250', 250],
      'callbacks-in-background': ['true', true],
      intercept: ['8443', 8443],
      'intercept-host': ['Restcomm.Example.NET, rc2.test.', ['restcomm.example.net', 'rc2.test']],
      'ca-dir': ['/srv/ca', '/srv/ca'],
    };
    // Options that mean something only beside another: given with it.
    const beside: Record<string, string[]> = {
      intercept: ['--dialect', 'twilio'],
      'intercept-host': ['--dialect', 'restcomm', '--intercept', '0'],
    };
    for (const o of OPTIONS) {
      const [raw, parsed] = values[o.name]!;
      const argv = o.value === '' ? [`--${o.name}`] : [`--${o.name}`, raw];
      const with_ = beside[o.name] ?? [];
      expect(load([...with_, ...argv])[o.key]).toEqual(parsed);
      expect(load(with_, { [o.env]: raw })[o.key]).toEqual(parsed);
    }
  });

  test.each([
    [['--port', '70000'], '--port: must be an integer from 0 to 65535'],
    [['--port', 'http'], '--port: must be an integer'],
    [['--paging', 'lazy'], '--paging: must be production or documented'],
    [['--max-page-size', '0'], '--max-page-size: must be an integer from 1'],
    [['--cache-mb=-1'], '--cache-mb: must be an integer from 0 to 65536'],
    [['--public-url', 'ftp://x'], '--public-url: must be an http(s) URL'],
    [['--public-url', 'not a url'], '--public-url: must be an absolute http(s) URL'],
    [['--clock', '2020-01-01T00:00:00'], '--clock: must be an ISO 8601 instant with a zone'],
    [['--seed', ''], '--seed: must not be empty'],
    [['--server-zone', 'Mars/Olympus'], `--server-zone: ${problems.serverZone('Mars/Olympus')}`],
    [['--workers', '0'], '--workers: must be an integer from 1 to 64, got "0"'],
    [['--redis', 'http://cache.test'], `--redis: ${problems.redisUrl('http://cache.test')}`],
    [['--redis', 'redis://'], `--redis: ${problems.redisUrl('redis://')}`],
    [['--bogus'], "Unknown option '--bogus'; see --help"],
    // A typo is answered with the option it most likely meant.
    [['--prot', '1'], "Unknown option '--prot' (did you mean --port?); see --help"],
    [['--seeds', 'x'], "Unknown option '--seeds' (did you mean --seed?)"],
    [['--journal'], "Unknown option '--journal' (did you mean --journal-size?)"],
    [['stray'], 'see --help'],
  ])('%j → %s', (argv, text) => {
    expect(() => load(argv)).toThrow(text);
  });

  test('a bad env value names the variable', () => {
    expect(() => load([], { CALLREC_PAGING: 'x' })).toThrow(
      new ValidationError('CALLREC_PAGING', 'must be production or documented, got "x"'),
    );
  });

  test("--port -1 gets the range message, not the parser's; --version prints the version", () => {
    expect(() => load(['--port', '-1'])).toThrow(
      new ValidationError('--port', 'must be an integer from 0 to 65535, got "-1"'),
    );
    expect(() => load(['--cache-mb', '-5'])).toThrow(/^--cache-mb: must be an integer from 0/);
    expect(loadConfig(['--version'], {})).toEqual({
      kind: 'version',
      text: expect.stringMatching(/^callrec-emulator \d+\.\d+\.\d+\n$/),
    });
  });

  test('--help names every log level', () => {
    for (const level of ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'])
      expect(helpText()).toContain(level);
  });

  test('in-process options: quiet by default, and every option can be given', () => {
    expect(configFromOptions({}).logLevel).toBe('silent');
    const c = configFromOptions({ logLevel: 'debug', cors: true, adminHosts: ['emulator'], maxConnections: 9 });
    expect(c).toMatchObject({ logLevel: 'debug', cors: true, adminHosts: ['emulator'], maxConnections: 9 });
    expect(() => configFromOptions({ logLevel: 'loud' })).toThrow(/^logLevel: must be one of/);
  });

  test('--help lists every option with its env var', () => {
    expect(loadConfig(['--help'], {})).toEqual({ kind: 'help', text: helpText() });
    for (const o of OPTIONS) {
      expect(helpText()).toContain(`--${o.name}`);
      expect(helpText()).toContain(o.env);
    }
  });
});

describe('configFromOptions (in-process)', () => {
  test("typed options, validated by the flags' rules, named as the caller spells them; port 0 by default", () => {
    const c = configFromOptions({ seed: 'ci', maxPageSize: 10, strict: true, clock: '2020-01-02T03:04:05Z' });
    expect(c).toMatchObject({
      port: 0,
      seed: 'ci',
      maxPageSize: 10,
      strict: true,
      clockMs: Date.UTC(2020, 0, 2, 3, 4, 5),
    });
    expect(() => configFromOptions({ port: 70000 })).toThrow(
      new ValidationError('port', 'must be an integer from 0 to 65535, got "70000"'),
    );
    expect(() => configFromOptions({ publicUrl: 'ftp://x' })).toThrow(/^publicUrl: /);
  });

  test('fixtures given as data are kept as data; an unknown option is refused', () => {
    const fixtures = { accounts: [{ friendly_name: 'A', calls: 1 }] };
    expect(configFromOptions({ fixtures }).fixtures).toEqual(fixtures);
    expect(() => configFromOptions({ prot: 1 })).toThrow(/^prot: unknown field/);
  });
});

describe('parseInstant (the --clock format)', () => {
  test.each([
    ['2025-06-01T12:00:00Z', Date.UTC(2025, 5, 1, 12)],
    ['2025-06-01', Date.UTC(2025, 5, 1)],
    ['2025-06-01T12:00Z', Date.UTC(2025, 5, 1, 12)],
    ['2025-06-01T12:00:00.5Z', Date.UTC(2025, 5, 1, 12, 0, 0, 500)],
    ['2025-06-01T12:00:00+02:00', Date.UTC(2025, 5, 1, 10)],
    ['2025-06-01T12:00:00-0130', Date.UTC(2025, 5, 1, 13, 30)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
  ])('%s', (raw, ms) => {
    expect(parseInstant(raw)).toBe(ms);
    expect(instantAt('c', raw)).toBe(ms);
  });

  test.each([
    '2025-02-30',
    '2023-02-29T00:00:00Z',
    '2025-13-01',
    '2025-06-01T24:00:00Z',
    '2025-06-01 12:00:00Z',
    'yesterday',
    '1969-12-31',
    '',
  ])('%s is refused', (raw) => {
    expect(parseInstant(raw)).toBeUndefined();
    expect(() => instantAt('c', raw)).toThrow(ValidationError);
  });
});
