import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect } from '../../src/client';
import { emulator, sandboxPerTest, startForRun, stopForRun, type TestHooks, URL_ENV } from '../../src/runners/run';
import { adminAccounts, ROOT, requireBuild, runCommand, startCli } from '../support/process';

const bin = (pkg: string, file: string) => resolve(ROOT, 'node_modules', pkg, file);

/** The runners' entry points as a test author uses them: the example suites, run by their runners. */
describe('test runners: one emulator a run, a sandbox a test', () => {
  beforeAll(requireBuild);

  test('the jest preset: 4 workers x 31 tests, each in its own sandbox, none seeing another', async () => {
    const run = await runCommand(
      process.execPath,
      [bin('jest', 'bin/jest.js'), '-c', resolve(ROOT, 'examples', 'jest-sandboxes', 'jest.config.js')],
      { [URL_ENV]: '' },
      ROOT,
    );
    expect(run.out).toContain('Tests:       124 passed, 124 total');
    expect(run.out).toContain('Test Suites: 4 passed, 4 total');
    expect(run.code).toBe(0);
  }, 120_000);

  test('with CALLREC_URL set, the preset uses that emulator and leaves it as it found it', async () => {
    const em = await startCli(['--seed', 'sandbox-suite']);
    try {
      const before = await adminAccounts(em.url);
      const run = await runCommand(
        process.execPath,
        [bin('jest', 'bin/jest.js'), '-c', resolve(ROOT, 'examples', 'jest-sandboxes', 'jest.config.js')],
        { [URL_ENV]: em.url },
        ROOT,
      );
      expect(run.out).toContain('Tests:       124 passed, 124 total');
      const client = connect(em.url);
      expect(await client.sandboxes()).toEqual([]);
      expect(await adminAccounts(em.url)).toEqual(before);
      // The tests ran against this emulator: each of the 120 fault tests got its one 503, in a sandbox of its own.
      const faulted = await client.requests({ status: 503, limit: 1000 });
      expect(faulted).toHaveLength(120);
      expect(new Set(faulted.map((r) => r.account)).size).toBe(120);
      expect((await client.faults.list()).filter((f) => f.account !== undefined)).toEqual([]);
    } finally {
      await em.stop();
    }
  }, 120_000);

  test("a worker killed mid-test leaves its sandbox; the run's global teardown ends it (tagged with the run id)", async () => {
    // A project of its own, with plain JS tests, that resolves the package as a user's does.
    const dir = mkdtempSync(join(tmpdir(), 'callrec-killed-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'callrec-emulator'), 'dir');
    writeFileSync(
      join(dir, 'jest.config.js'),
      "module.exports = { preset: 'callrec-emulator/jest', rootDir: __dirname, maxWorkers: 2, testMatch: ['<rootDir>/*.test.js'] };",
    );
    const head =
      "const { useSandbox } = require('callrec-emulator/jest');\nconst sandbox = useSandbox('Acme Support Line');\n";
    writeFileSync(
      join(dir, 'killed.test.js'),
      `${head}test('dies', async () => { sandbox(); process.kill(process.pid, 'SIGKILL'); });\n`,
    );
    writeFileSync(join(dir, 'quiet.test.js'), `${head}test('lives', () => expect(sandbox().sid).toMatch(/^AC/));\n`);
    const em = await startCli([]);
    try {
      // Another run's sandbox on the same emulator: not this run's to end.
      const client = connect(em.url);
      const [a] = await adminAccounts(em.url);
      const other = await client.sandbox(a!.sid, { run: 'another-run' });
      const run = await runCommand(
        process.execPath,
        [bin('jest', 'bin/jest.js'), '-c', join(dir, 'jest.config.js')],
        {
          [URL_ENV]: em.url,
        },
        dir,
      );
      expect(run.out).toContain('was terminated by another process');
      expect(run.out).toContain('Tests:       1 passed, 1 total');
      expect((await client.sandboxes()).map((s) => s.sid)).toEqual([other.sid]);
      expect((await client.sandboxes())[0]?.run).toBe('another-run');
    } finally {
      await em.stop();
    }
  }, 120_000);

  test("node's test runner: useEmulator and useSandbox", async () => {
    const run = await runCommand(process.execPath, ['--test', resolve(ROOT, 'examples', 'node-test')], {
      [URL_ENV]: '',
    });
    expect(run.out).toContain('# pass 3');
    expect(run.out).toContain('# fail 0');
    expect(run.code).toBe(0);
  }, 60_000);

  test('vitest: the globalSetup module and useSandbox', async () => {
    const run = await runCommand(
      process.execPath,
      [bin('vitest', 'vitest.mjs'), 'run', '-c', resolve(ROOT, 'examples', 'vitest', 'vitest.config.mjs')],
      { [URL_ENV]: '', CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
      ROOT,
    );
    expect(run.out).toMatch(/Tests\s+8 passed \(8\)/);
    expect(run.code).toBe(0);
  }, 60_000);

  test('sandboxPerTest: the getter works inside a test only; a sandbox per test, named after it, gone after it', async () => {
    const saved = process.env[URL_ENV];
    delete process.env[URL_ENV];
    await startForRun({ seed: 'hooks' });
    try {
      const hooks: { before?: (name?: string) => Promise<void>; after?: () => Promise<void> } = {};
      const fake: TestHooks = { beforeEach: (fn) => (hooks.before = fn), afterEach: (fn) => (hooks.after = fn) };
      const sandbox = sandboxPerTest(fake, 'Acme Support Line');
      expect(() => sandbox()).toThrow('a sandbox exists inside a test only');
      await hooks.before?.('my test');
      const sb = sandbox();
      expect((await emulator().sandboxes()).map((s) => [s.sid, s.friendly_name])).toEqual([[sb.sid, 'my test']]);
      await hooks.after?.();
      expect(await emulator().sandboxes()).toEqual([]);
      expect(() => sandbox()).toThrow('a sandbox exists inside a test only');

      const unknown = sandboxPerTest(fake, 'No Such Account');
      await expect(hooks.before?.('t')).rejects.toThrow(
        /no account named "No Such Account"; there are "Acme Support Line", /,
      );
      expect(() => unknown()).toThrow('a sandbox exists inside a test only');
    } finally {
      await stopForRun();
      if (saved !== undefined) process.env[URL_ENV] = saved;
    }
    expect(process.env[URL_ENV]).toBeUndefined();
    expect(() => emulator()).toThrow(`${URL_ENV} is not set`);
  });
});
