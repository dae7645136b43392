import { type AccountView, connect, type EmulatorClient, type SandboxHandle } from '../client';
import { type EmulatorHandle, type EmulatorOptions, startEmulator } from '../emulator';

/**
 * What a test runner's setup hands its workers, through the environment they inherit: the
 * emulator's URL, and its admin token when it has one. This is the test side, not the server:
 * config.ts stays the one reader of the server's environment.
 */
export const URL_ENV = 'CALLREC_URL';
export const ADMIN_TOKEN_ENV = 'CALLREC_ADMIN_TOKEN';
/** The environment a client under test sets to go through the run's interception proxy, as JSON. */
export const CLIENT_ENV = 'CALLREC_CLIENT_ENV';
/** The run's id, which every sandbox of the run is tagged with. */
export const RUN_ENV = 'CALLREC_RUN_ID';

/**
 * What this process set up for the run, kept where globalTeardown (same process) finds it: the
 * emulator it started, if any, and the run id it made, if it made one (workers inherit the id
 * and never own it, so only the process that set the run up ends its sandboxes).
 */
const RUNNING = Symbol.for('callrec-emulator.run');
const OWNED_RUN = Symbol.for('callrec-emulator.run-id');
type Holder = { [RUNNING]?: EmulatorHandle; [OWNED_RUN]?: string };

/** A run id unique enough among the runs sharing one emulator; it names sandboxes, never shapes data. */
function newRunId(): string {
  return `run-${process.pid}-${Date.now().toString(36)}`;
}

/**
 * Starts one emulator for the whole run and hands its URL to the workers, unless the
 * environment already names a running one (`CALLREC_URL`, e.g. a compose service), which is
 * then used as it is.
 * @example await startForRun({ seed: 'ci' }); process.env.CALLREC_URL // 'http://127.0.0.1:40123'
 */
export async function startForRun(options: EmulatorOptions = {}): Promise<void> {
  if ((process.env[RUN_ENV] ?? '') === '') {
    const run = newRunId();
    process.env[RUN_ENV] = run;
    (globalThis as Holder)[OWNED_RUN] = run;
  }
  if ((process.env[URL_ENV] ?? '') !== '') return;
  const em = await startEmulator(options);
  (globalThis as Holder)[RUNNING] = em;
  process.env[URL_ENV] = em.url;
  if (em.intercept !== undefined) process.env[CLIENT_ENV] = JSON.stringify(em.intercept.env);
  if (options.adminToken !== undefined) process.env[ADMIN_TOKEN_ENV] = options.adminToken;
}

/**
 * Ends the sandboxes of the run this process set up, should a worker have died before deleting
 * its own (on an emulator the run shares with others, they would live until their TTL), then
 * stops the emulator `startForRun` started, if it did; a run in watch mode then starts afresh.
 */
export async function stopForRun(): Promise<void> {
  const holder = globalThis as Holder;
  const run = holder[OWNED_RUN];
  if (run !== undefined) {
    delete holder[OWNED_RUN];
    delete process.env[RUN_ENV];
    if ((process.env[URL_ENV] ?? '') !== '') await emulator().deleteSandboxes({ run });
  }
  const em = (globalThis as Holder)[RUNNING];
  if (em === undefined) return;
  delete (globalThis as Holder)[RUNNING];
  delete process.env[URL_ENV];
  delete process.env[ADMIN_TOKEN_ENV];
  delete process.env[CLIENT_ENV];
  await em.close();
}

/**
 * The client of the run's emulator, in a worker.
 * @example await emulator().clock.now() // '2025-06-01T12:00:00.000Z'
 */
export function emulator(): EmulatorClient {
  const url = process.env[URL_ENV];
  if (url === undefined || url === '') {
    throw new Error(
      `callrec-emulator: ${URL_ENV} is not set: start the emulator in the run's setup (see docs/sandboxes.md, "Test runners")`,
    );
  }
  const token = process.env[ADMIN_TOKEN_ENV];
  return connect(url, token === undefined || token === '' ? {} : { adminToken: token });
}

/** A runner's per-test hooks, as `sandboxPerTest` needs them; `name` is the test's, when the runner says it. */
export interface TestHooks {
  beforeEach(fn: (name?: string) => Promise<void>): void;
  afterEach(fn: () => Promise<void>): void;
}

/**
 * A test's sandbox, with the environment its client under test sets: the sandbox's login as
 * Twilio's libraries read it, and, when the run's emulator intercepts (`intercept`), the proxy
 * and the CA for every client family.
 */
export interface RunSandbox extends SandboxHandle {
  /** e.g. `{ TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, HTTP_PROXY, HTTPS_PROXY, NODE_EXTRA_CA_CERTS, … }` */
  env: Record<string, string>;
}

/** What the run's setup handed over of its interception proxy: the client environment, or none. */
function runClientEnv(): Record<string, string> {
  const text = process.env[CLIENT_ENV];
  return text === undefined || text === '' ? {} : (JSON.parse(text) as Record<string, string>);
}

export interface SandboxOptions {
  /** The sandbox's name (default: the test's name). */
  name?: string;
  /** Ends the sandbox by itself after this long should the worker die first (default 3600 s). */
  ttlSeconds?: number;
}

/** Whether a string is an account sid rather than an account's friendly name. */
const isSid = (s: string) => /^AC[0-9a-f]{32}$/.test(s);

/** The fixture account named `from` (its sid, or its friendly name), never a sandbox of the same name. */
async function accountNamed(client: EmulatorClient, from: string): Promise<string> {
  if (isSid(from)) return from;
  const [accounts, sandboxes] = await Promise.all([client.accounts(), client.sandboxes()]);
  const forks = new Set(sandboxes.map((s) => s.sid));
  const found = accounts.filter((a: AccountView) => !forks.has(a.sid) && a.friendly_name === from);
  if (found[0] === undefined) {
    const names = accounts.filter((a) => !forks.has(a.sid)).map((a) => JSON.stringify(a.friendly_name));
    throw new Error(`callrec-emulator: no account named ${JSON.stringify(from)}; there are ${names.join(', ')}`);
  }
  return found[0].sid;
}

/**
 * A sandbox for every test: forked from the fixture account `from` (sid or friendly name) before
 * each test, deleted after it. Returns the getter of the current test's sandbox.
 * @example const sandbox = sandboxPerTest(hooks, 'Acme Support Line'); … sandbox().callsUrl
 */
export function sandboxPerTest(hooks: TestHooks, from: string, options: SandboxOptions = {}): () => RunSandbox {
  let current: RunSandbox | null = null;
  hooks.beforeEach(async (testName) => {
    const client = emulator();
    const name = options.name ?? testName;
    const run = process.env[RUN_ENV];
    const made = await client.sandbox(await accountNamed(client, from), {
      ttlSeconds: options.ttlSeconds ?? 3600,
      ...(run === undefined || run === '' ? {} : { run }),
      ...(name === undefined || name.trim() === '' ? {} : { name: name.slice(0, 200) }),
    });
    current = Object.assign(made, {
      env: { TWILIO_ACCOUNT_SID: made.sid, TWILIO_AUTH_TOKEN: made.token, ...runClientEnv() },
    });
  });
  hooks.afterEach(async () => {
    const done = current;
    current = null;
    await done?.delete();
  });
  return () => {
    if (current === null)
      throw new Error('callrec-emulator: a sandbox exists inside a test only (beforeEach to afterEach)');
    return current;
  };
}
