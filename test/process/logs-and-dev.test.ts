import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loggerOptions, prettyLine } from '../../src/logger';
import { adminAccounts, get, ROOT, type Spawned, startCli } from '../support/process';

/** The JSON log lines a CLI process wrote to stdout. */
function jsonLines(em: Spawned): Record<string, any>[] {
  return em
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

describe('request logs', () => {
  test('one JSON line a request: level by outcome, a readable message, no headers (so no token)', async () => {
    const em = await startCli(['--log-level', 'info']);
    try {
      const [a] = await adminAccounts(em.url);
      const list = `${em.url}/call/2012-04-24/Accounts/${a!.sid}/Calls.json`;
      await get(`${list}?PageSize=1`, a!.token);
      await get(`${list}?pagesize=1`, a!.token);
      await get(`${list}?Page=999`, a!.token);
      await fetch(`${em.url}/__admin/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ status: 503, times: 1 }),
      });
      await get(`${list}?Page=1`, a!.token);
      await new Promise((r) => setTimeout(r, 150));
      const entries = jsonLines(em).filter((e) => e['req']?.url?.includes('Calls.json'));
      const [ok, warned, bad, failed] = entries;
      expect(ok).toMatchObject({ level: 30, req: { method: 'GET' }, res: { statusCode: 200 } });
      expect(ok!['msg']).toMatch(
        new RegExp(`^GET /call/2012-04-24/Accounts/${a!.sid}/Calls.json\\?PageSize=1 200 [0-9.]+ ms$`),
      );
      // The query tells pages apart.
      expect(failed!['msg']).toMatch(/Calls\.json\?Page=1 503 /);
      expect(typeof ok!['responseTime']).toBe('number');
      expect(warned).toMatchObject({ level: 40, res: { statusCode: 200 } });
      expect(warned!['msg']).toContain('did you mean PageSize?');
      expect(bad).toMatchObject({ level: 40, res: { statusCode: 400 } });
      expect(failed).toMatchObject({ level: 50, res: { statusCode: 503 } });
      expect(failed!['err']).toBeUndefined();
      expect(entries.every((e) => e['req'].headers === undefined)).toBe(true);
      expect(em.stdout()).not.toContain(Buffer.from(`${a!.token}:`).toString('base64'));
    } finally {
      await em.stop();
    }
  });

  test('by default (warn) a request that went well writes nothing, one that did not writes its line', async () => {
    const em = await startCli([]);
    try {
      const [a] = await adminAccounts(em.url);
      const list = `${em.url}/call/2012-04-24/Accounts/${a!.sid}/Calls.json`;
      await get(`${list}?PageSize=1`, a!.token);
      await get(`${list}?Page=999`, a!.token);
      await new Promise((r) => setTimeout(r, 150));
      const lines = jsonLines(em);
      expect(lines.map((l) => [l['level'], l['res']?.statusCode])).toEqual([[40, 400]]);
    } finally {
      await em.stop();
    }
  });

  test('--log-level silent writes none; readable logs are chosen on a terminal only', async () => {
    const em = await startCli(['--log-level', 'silent']);
    try {
      await get(`${em.url}/__admin/health`);
      await new Promise((r) => setTimeout(r, 100));
      expect(jsonLines(em)).toEqual([]);
    } finally {
      await em.stop();
    }
    expect(loggerOptions('silent', true)).toBeNull();
    expect(loggerOptions('info', true)).toEqual({ level: 'info', pretty: true });
    expect(loggerOptions('warn', false)).toEqual({ level: 'warn', pretty: false });
  });

  test.each([
    ['info', 32, 'INFO'],
    ['warn', 33, 'WARN'],
    ['error', 31, 'ERROR'],
  ] as const)(
    'on a terminal, a %s line is the local time, the level in colour %i and the message',
    (level, colour, name) => {
      const at = new Date(2025, 5, 1, 9, 5, 3, 7);
      expect(prettyLine(level, 'GET /x 404 0.4 ms', at)).toBe(
        `[09:05:03.007] \x1b[${colour}m${name}\x1b[39m: GET /x 404 0.4 ms\n`,
      );
    },
  );
});

/**
 * A copy of the project to run `npm run dev` in: its tsc --watch writes a dist/ of its own, not
 * the one every other test of the run starts servers from (a file rewritten under a starting
 * server was read empty). node_modules is linked, not copied.
 */
function devCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'callrec-dev-'));
  const entries = [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'openapi.json',
    'src',
    'scripts',
    'fixtures',
    'ui',
  ];
  for (const entry of entries) {
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** How long to wait for a start: two full compiles on a busy runner are slow, and that is not what is tested. */
const STARTS_WITHIN = 1500;

describe('npm run dev', () => {
  test('starts the server and restarts it when the build output changes', async () => {
    // Options go by environment variable: npm appends `--` arguments after the script's last command.
    const cwd = devCopy();
    const proc = spawn('npm', ['run', 'dev'], {
      cwd,
      detached: true,
      env: { ...process.env, PORT: '0', CALLREC_LOG_LEVEL: 'silent' },
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const starts = () => (out.match(/listening on/g) ?? []).length;
    const waitFor = async (n: number) => {
      for (let i = 0; i < STARTS_WITHIN && starts() < n; i++) await new Promise((r) => setTimeout(r, 100));
      return starts();
    };
    try {
      expect(await waitFor(1)).toBe(1);
      // What tsc --watch does after an edit: rewrite a file of dist/; node --watch restarts.
      const { resolve } = await import('node:path');
      const { readFileSync, writeFileSync } = await import('node:fs');
      const file = resolve(cwd, 'dist', 'version.js');
      writeFileSync(file, readFileSync(file));
      expect(await waitFor(2)).toBe(2);
    } finally {
      try {
        process.kill(-(proc.pid as number), 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }, 400_000);

  test('leaves no process behind when its npm process gets SIGTERM, and takes server options after --', async () => {
    // The whole tree under npm: the dev script, tsc --watch, node --watch and the server.
    await expectWholeTreeEnds(['run', 'dev', '--', '--port', '0', '--log-level', 'silent'], devCopy(), 4);
  }, 400_000);
});

describe('npm start', () => {
  test('leaves no server behind when its npm process gets SIGTERM (npm signals only its own child)', async () => {
    await expectWholeTreeEnds(['start', '--', '--port', '0', '--log-level', 'silent'], ROOT, 1);
  });
});

/**
 * Runs npm with `args` until the server it starts listens, then sends npm SIGTERM, as a process
 * manager or a CI step's timeout does: every process under npm (at least `least`) must end.
 */
async function expectWholeTreeEnds(args: string[], cwd: string, least: number): Promise<void> {
  const proc = spawn('npm', args, { cwd, detached: true, env: process.env });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  try {
    for (let i = 0; i < STARTS_WITHIN && !out.includes('listening on'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(out).toContain('listening on');
    const tree = descendants(proc.pid as number);
    expect(tree.length).toBeGreaterThanOrEqual(least);
    proc.kill('SIGTERM');
    await exited;
    let alive = tree;
    for (let i = 0; i < 50 && alive.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      alive = alive.filter(isAlive);
    }
    expect(alive).toEqual([]);
  } finally {
    try {
      process.kill(-(proc.pid as number), 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
}

/** Pids of every process under `root`, from ps. */
function descendants(root: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of rows) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
