import { spawn } from 'node:child_process';
import { loggerOptions } from '../../src/logger';
import { adminAccounts, get, ROOT, startCli } from '../support/process';

describe('request logs', () => {
  test('JSON lines with method, URL, status and time; tokens redacted', async () => {
    const em = await startCli([]);
    try {
      const [a] = await adminAccounts(em.url);
      await get(`${em.url}/call/2012-04-24/Accounts/${a!.sid}/Calls.json?PageSize=1`, a!.token);
      await new Promise((r) => setTimeout(r, 100));
      const lines = em
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      const entry = lines
        .map((l) => JSON.parse(l) as Record<string, any>)
        .find((e) => e['req']?.url?.includes('Calls.json'));
      expect(entry).toMatchObject({ level: 30, req: { method: 'GET' }, res: { statusCode: 200 } });
      expect(typeof entry!['responseTime']).toBe('number');
      expect(em.stdout()).not.toContain(Buffer.from(`${a!.token}:`).toString('base64'));
      expect(entry!['req'].headers.authorization).toBe('[Redacted]');
    } finally {
      await em.stop();
    }
  });

  test('--log-level silent writes none; readable logs are chosen on a terminal only', async () => {
    const em = await startCli(['--log-level', 'silent']);
    try {
      await get(`${em.url}/__admin/health`);
      await new Promise((r) => setTimeout(r, 100));
      expect(
        em
          .stdout()
          .split('\n')
          .filter((l) => l.startsWith('{')),
      ).toEqual([]);
    } finally {
      await em.stop();
    }
    expect(loggerOptions('silent', true)).toBeNull();
    expect(loggerOptions('info', true)).toEqual({ level: 'info', pretty: true });
    expect(loggerOptions('warn', false)).toEqual({ level: 'warn', pretty: false });
  });
});

describe('npm run dev', () => {
  test('starts the server and restarts it when the build output changes', async () => {
    // Options go by environment variable: npm appends `--` arguments after the script's last command.
    const proc = spawn('npm', ['run', 'dev'], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, PORT: '0', CALLREC_LOG_LEVEL: 'silent' },
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const starts = () => (out.match(/listening on/g) ?? []).length;
    const waitFor = async (n: number) => {
      for (let i = 0; i < 300 && starts() < n; i++) await new Promise((r) => setTimeout(r, 100));
      return starts();
    };
    try {
      expect(await waitFor(1)).toBe(1);
      // What tsc --watch does after an edit: rewrite a file of dist/; node --watch restarts.
      const { resolve } = await import('node:path');
      const { readFileSync, writeFileSync } = await import('node:fs');
      const file = resolve(ROOT, 'dist', 'version.js');
      writeFileSync(file, readFileSync(file));
      expect(await waitFor(2)).toBe(2);
    } finally {
      try {
        process.kill(-(proc.pid as number), 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }, 60_000);
});
