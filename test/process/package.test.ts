import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/process';

const exec = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  exec('npm', args, {
    cwd,
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });

/** Runs a jest (`bin`) in `cwd` with no emulator named, as a fresh project's run starts; resolves with all it printed. */
const jestIn = (cwd: string, bin: string, args: string[] = []) =>
  exec(process.execPath, [bin, ...args], { cwd, env: { ...process.env, CALLREC_URL: '' } }).then(
    (r) => r.stdout + r.stderr,
    (err: { stdout?: string; stderr?: string }) => `${err.stdout}${err.stderr}`,
  );

/**
 * The published artefact, used as a stranger would: `npm pack`, then an install of the tarball
 * alone in an empty folder (its dependencies from the npm cache or the registry, never from this
 * checkout), then `npx callrec-emulator`.
 */
describe('the npm package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callrec-pack-'));
  let tarball: string;

  beforeAll(async () => {
    await npm(['pack', '--pack-destination', dir, '--ignore-scripts'], ROOT);
    tarball = join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
    const app = join(dir, 'app');
    await exec('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-callrec', version: '1.0.0', private: true }));
    await npm(['install', '--prefer-offline', '--no-package-lock', tarball], app);
    // A TypeScript consumer: the tarball and @types/node alone.
    const consumer = join(dir, 'consumer');
    await exec('mkdir', ['-p', consumer]);
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'strict-consumer', version: '1.0.0', private: true }),
    );
    await npm(['install', '--prefer-offline', '--no-package-lock', tarball, '@types/node@20'], consumer);
  }, 240_000);

  test('ships only what runs', async () => {
    const { stdout } = await exec('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(
      files.every((f) =>
        /^package\/(dist\/|ui\/[a-z-]+\.(html|js|css)$|fixtures\/(default|states)\.json$|openapi\.json$|package\.json$|README\.md$|LICENSE)/.test(
          f,
        ),
      ),
    ).toBe(true);
    expect(files).toContain('package/dist/cli.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/ui/index.html');
    expect(files).not.toContain('package/ui/tsconfig.json');
    expect(files.some((f) => f.includes('/test/') || f.includes('/src/'))).toBe(false);
    // Maps would point at src/, which the package does not ship; files of removed modules stay out.
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files).not.toContain('package/dist/routes/admin.js');
  });

  test('the published types compile for a strict consumer (skipLibCheck off) with only @types/node', async () => {
    const consumer = join(dir, 'consumer');
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          module: 'commonjs',
          target: 'ES2022',
          types: ['node'],
          // As most consumers set it.
          esModuleInterop: true,
          noEmit: true,
        },
        files: ['use.ts'],
      }),
    );
    writeFileSync(
      join(consumer, 'use.ts'),
      [
        "import { startEmulator, createApp, World, type EmulatorHandle, type EmulatorOptions, type AppDeps, type JournalEntry } from 'callrec-emulator';",
        "const options: EmulatorOptions = { seed: 'ci', maxPageSize: 100, logLevel: 'silent' };",
        'export async function run(): Promise<JournalEntry[]> {',
        '  const em: EmulatorHandle = await startEmulator(options);',
        '  const requests = await em.requests({ limit: 5 });',
        '  await em.close();',
        '  return requests;',
        '}',
        "export const deps = (world: World): AppDeps => ({ world, paging: 'production', maxPageSize: null, publicUrl: 'http://x' });",
        'export const app = (world: World) => createApp(deps(world));',
      ].join('\n'),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await exec(process.execPath, [tsc, '-p', consumer]).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(result).toBe('');
  }, 120_000);

  // Every way a consumer's TypeScript resolves modules: classic CommonJS (node10, which reads no
  // `exports`, hence typesVersions), node16, nodenext, and bundlers'.
  test.each([
    ['commonjs', 'node'],
    ['node16', 'node16'],
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ])(
    'the test-runner entry points and the package resolve their types under module %s, moduleResolution %s; the jest preset runs from the tarball',
    async (module, moduleResolution) => {
      const consumer = join(dir, 'consumer');
      const config = `tsconfig.${moduleResolution}.json`;
      writeFileSync(
        join(consumer, config),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            skipLibCheck: false,
            module,
            moduleResolution,
            target: 'ES2022',
            types: ['node'],
            esModuleInterop: true,
            noEmit: true,
          },
          files: [moduleResolution === 'bundler' ? 'runners-esm.ts' : 'runners.ts'],
        }),
      );
      const uses = [
        "import * as jestRunner from 'callrec-emulator/jest';",
        "import * as nodeRunner from 'callrec-emulator/node-test';",
        "import * as vitestRunner from 'callrec-emulator/vitest';",
        "import { connect, type SandboxHandle } from 'callrec-emulator';",
        "export const a: () => SandboxHandle = jestRunner.useSandbox('Acme Support Line', { ttlSeconds: 60 });",
        "export const b: () => SandboxHandle = nodeRunner.useSandbox('Acme Support Line');",
        'export const c = vitestRunner.useSandbox;',
        'export const e = async () => (await jestRunner.emulator().sandboxes()).map((s) => s.from);',
        "export const f = async () => (await connect('http://127.0.0.1:8080').addCall('AC1')).sid;",
      ];
      // `import = require` is CommonJS's; a bundler project imports the default.
      writeFileSync(
        join(consumer, 'runners.ts'),
        [
          ...uses,
          "import setup = require('callrec-emulator/vitest/setup');",
          'export const d: () => Promise<() => Promise<void>> = setup;',
        ].join('\n'),
      );
      writeFileSync(
        join(consumer, 'runners-esm.ts'),
        [
          ...uses,
          "import setup from 'callrec-emulator/vitest/setup';",
          'export const d: () => Promise<() => Promise<void>> = setup;',
        ].join('\n'),
      );
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = await exec(process.execPath, [tsc, '-p', join(consumer, config)]).then(
        () => '',
        (err: { stdout?: string }) => err.stdout ?? String(err),
      );
      expect(result).toBe('');
      if (moduleResolution !== 'node16') return;

      // jest, from this checkout, on a suite in the installed app: the preset and helper come from the tarball.
      const app = join(dir, 'app');
      writeFileSync(
        join(app, 'jest.config.js'),
        "module.exports = { preset: 'callrec-emulator/jest', rootDir: __dirname, testMatch: ['<rootDir>/*.test.js'] };",
      );
      writeFileSync(
        join(app, 'sandbox.test.js'),
        [
          "const { useSandbox } = require('callrec-emulator/jest');",
          "const sandbox = useSandbox('Acme Support Line');",
          "test('a sandbox of the installed package', async () => {",
          '  const res = await fetch(sandbox().callsUrl, { headers: { Authorization: sandbox().authorization } });',
          '  expect((await res.json()).total).toBe(448);',
          '});',
        ].join('\n'),
      );
      const run = await jestIn(app, join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), [
        '-c',
        join(app, 'jest.config.js'),
      ]);
      expect(run).toContain('Tests:       1 passed, 1 total');
    },
    120_000,
  );

  test("README's jest snippet runs as printed in a fresh TypeScript project (CommonJS, ts-jest, TypeScript 5.9)", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = (lang: string, first: string) =>
      [...readme.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))]
        .map((m) => m[1] as string)
        .find((b) => b.startsWith(first));
    const config = block('js', '// jest.config.js\nmodule.exports = {\n  preset');
    const tsconfig = block('json', '{\n  "compilerOptions": {\n    "module": "commonjs"');
    const test = block('ts', '// calls.test.ts');
    expect([config, tsconfig, test].every((b) => b !== undefined)).toBe(true);
    const project = join(dir, 'ts-project');
    await exec('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'ts-project', version: '1.0.0', private: true }),
    );
    // What README says to install, at the versions this checkout tests with (so from the npm cache).
    const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const dev = ['jest', 'ts-jest', 'typescript', '@types/jest', '@types/node'].map(
      (n) => `${n}@${own.devDependencies[n]}`,
    );
    await npm(['install', '--prefer-offline', '--no-package-lock', tarball, ...dev], project);
    writeFileSync(join(project, 'jest.config.js'), config as string);
    writeFileSync(join(project, 'tsconfig.json'), tsconfig as string);
    writeFileSync(join(project, 'calls.test.ts'), test as string);
    const run = await jestIn(project, join(project, 'node_modules', 'jest', 'bin', 'jest.js'));
    expect(run).toContain('Tests:       1 passed, 1 total');
  }, 240_000);

  test('npx callrec-emulator --help', async () => {
    const { stdout } = await exec('npx', ['--no-install', 'callrec-emulator', '--help'], { cwd: join(dir, 'app') });
    expect(stdout).toContain('Usage: callrec-emulator');
    expect(stdout).toContain('--seed');
  }, 60_000);

  test('npx callrec-emulator starts and serves; the types and startEmulator are exported', async () => {
    const app = join(dir, 'app');
    const proc = spawn('npx', ['--no-install', 'callrec-emulator', '--port', '0'], { cwd: app, detached: true });
    try {
      const url = await new Promise<string>((done, fail) => {
        let out = '';
        const timer = setTimeout(() => fail(new Error(`no start-up line: ${out}`)), 30_000);
        proc.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /Try: curl -u (\S+): (\S+)/.exec(out);
          if (m !== null) {
            clearTimeout(timer);
            done(`${m[1]}|${m[2]}`);
          }
        });
      });
      const [token, listUrl] = url.split('|') as [string, string];
      const res = await fetch(listUrl, {
        headers: { Authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { total: number }).total).toBe(448);
      // The inspector is in the package and served from it, offline: its page and its modules.
      const origin = new URL(listUrl).origin;
      const page = await fetch(`${origin}/__admin/ui`);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      expect((await fetch(`${origin}/__admin/ui/app.js`)).status).toBe(200);
    } finally {
      process.kill(-(proc.pid as number), 'SIGTERM');
    }
    const script =
      "const m = require('callrec-emulator'); m.startEmulator({ seed: 'x' }).then(async (e) => { console.log(typeof m.createApp, e.accounts.length); await e.close(); });";
    const { stdout } = await exec(process.execPath, ['-e', script], { cwd: app });
    expect(stdout.trim()).toBe('function 4');
    const { stdout: types } = await exec('ls', [
      join(app, 'node_modules', 'callrec-emulator', 'dist', 'emulator.d.ts'),
    ]);
    expect(types).toContain('emulator.d.ts');
  }, 60_000);
});
