import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OPTIONS } from '../../src/config';
import { problems } from '../../src/errors';
import { type AdminAccount, adminAccounts, get, runCli, type Spawned, startCli } from '../support/process';

const dir = mkdtempSync(join(tmpdir(), 'callrec-cli-'));
const fixture = (name: string, data: unknown): string => {
  const file = join(dir, name);
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
};
const PUBLIC = ['--public-url', 'http://emulator.test:8080'];

/** A spread of paths over both lists, sorted and not. */
function probePaths(a: AdminAccount): string[] {
  const base = `/call/2012-04-24/Accounts/${a.sid}`;
  return [
    `${base}/Calls.json`,
    `${base}/Calls.json?Page=3&PageSize=40&SortBy=From:desc`,
    `${base}/Calls.json?SortBy=Duration&PageSize=100`,
    `${base}/Recordings.json?PageSize=100`,
    `${base}/Recordings.json?SortBy=CallSid:desc&PageSize=30&Page=1`,
  ];
}

async function bodies(em: Spawned): Promise<string[]> {
  const accounts = await adminAccounts(em.url);
  const out = [JSON.stringify(accounts)];
  for (const a of accounts) for (const p of probePaths(a)) out.push((await get(em.url + p, a.token)).text);
  return out;
}

describe('the built server', () => {
  test('two time zones, same bytes', async () => {
    const utc = await startCli(PUBLIC, { TZ: 'UTC' });
    const chatham = await startCli(PUBLIC, { TZ: 'Pacific/Chatham' });
    try {
      const a = await bodies(utc);
      const b = await bodies(chatham);
      expect(a.length).toBeGreaterThan(10);
      expect(b).toEqual(a);
    } finally {
      await Promise.all([utc.stop(), chatham.stop()]);
    }
  });

  test('a different seed gives different data; the same seed the same', async () => {
    const one = await startCli([...PUBLIC, '--seed', 'alpha']);
    const again = await startCli(PUBLIC, { CALLREC_SEED: 'alpha' });
    const two = await startCli([...PUBLIC, '--seed', 'beta']);
    try {
      const [a, a2, b] = await Promise.all([bodies(one), bodies(again), bodies(two)]);
      expect(a2).toEqual(a);
      // Every body with data differs (sids, tokens, parties, times); error bodies may not.
      const data = a.map((body, i) => [body, b[i]]).filter(([body]) => !body!.startsWith('{"message"'));
      expect(data.length).toBeGreaterThan(10);
      for (const [x, y] of data) expect(y).not.toBe(x);
    } finally {
      await Promise.all([one.stop(), again.stop(), two.stop()]);
    }
  });

  test('the state hash is equal across two processes for equal inputs and writes', async () => {
    const one = await startCli(PUBLIC, { TZ: 'UTC' });
    const two = await startCli(PUBLIC, { TZ: 'Asia/Kolkata' });
    try {
      const write = async (em: Spawned) => {
        const [a] = await adminAccounts(em.url);
        await fetch(`${em.url}/__admin/accounts/${a!.sid}/calls`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '[{"from":"x"},{}]',
        });
        return JSON.parse((await get(`${em.url}/__admin/state/hash`)).text).hash as string;
      };
      const [h1, h2] = [await write(one), await write(two)];
      expect(h1).toMatch(/^[0-9a-f]{64}$/);
      expect(h2).toBe(h1);
      expect((await get(`${one.url}/__admin/state`)).text).toBe((await get(`${two.url}/__admin/state`)).text);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });

  test('growing an account leaves its existing records unchanged', async () => {
    const small = fixture('small.json', { accounts: [{ friendly_name: 'Grow', calls: 448, recordings: 160 }] });
    const large = fixture('large.json', {
      accounts: [
        { friendly_name: 'Other', calls: 10, recordings: 3 },
        { friendly_name: 'Grow', calls: 2000, recordings: 900 },
      ],
    });
    const s = await startCli([...PUBLIC, '--fixtures', small]);
    const l = await startCli([...PUBLIC], { CALLREC_FIXTURES: large });
    try {
      const [sa] = await adminAccounts(s.url);
      const la = (await adminAccounts(l.url)).find((x) => x.friendly_name === 'Grow')!;
      expect(la.sid).toBe(sa!.sid);
      const items = async (em: Spawned, a: AdminAccount, list: string, key: string, n: number) =>
        (
          JSON.parse(
            (await get(`${em.url}/call/2012-04-24/Accounts/${a.sid}/${list}.json?PageSize=${n}`, a.token)).text,
          ) as Record<string, unknown[]>
        )[key];
      expect(await items(l, la, 'Calls', 'calls', 448)).toEqual(await items(s, sa!, 'Calls', 'calls', 448));
      expect(await items(l, la, 'Recordings', 'recordings', 160)).toEqual(
        await items(s, sa!, 'Recordings', 'recordings', 160),
      );
    } finally {
      await Promise.all([s.stop(), l.stop()]);
    }
  });

  test('start-up prints the URL, the accounts with tokens and a curl command that works', async () => {
    const em = await startCli([]);
    try {
      const lines = em.stdout().split('\n');
      expect(lines[0]).toMatch(/^callrec-emulator listening on http:\/\/127\.0\.0\.1:\d+ /);
      const accounts = await adminAccounts(em.url);
      for (const a of accounts)
        expect(em.stdout()).toMatch(
          new RegExp(`${a.sid}\\s+${a.token}\\s+${a.calls}\\s+${a.recordings}\\s+${a.friendly_name}`),
        );
      const curl = /^Try: (curl -u (\S+): (\S+))$/m.exec(em.stdout());
      expect(curl).not.toBeNull();
      // The inspector's address, which answers with its page.
      const inspector = /^Inspector: (\S+)$/m.exec(em.stdout())?.[1];
      expect(inspector).toBe(`${em.url}/__admin/ui`);
      expect((await fetch(inspector!)).headers.get('content-type')).toBe('text/html; charset=utf-8');
      const [, command, token, url] = curl!;
      // What the pasted command sends: Basic auth with the token as user name, empty password.
      const res = await get(url!, token);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).total).toBeGreaterThan(0);
      const hasCurl = await promisify(execFile)('curl', ['--version']).then(
        () => true,
        () => false,
      );
      if (hasCurl) {
        const { stdout } = await promisify(execFile)('sh', ['-c', `${command} -s`]);
        expect(stdout).toBe(res.text);
      }
    } finally {
      await em.stop();
    }
  });

  test("--dialect twilio: the printed curl and API key log in, and the pasted command answers Twilio's page", async () => {
    const em = await startCli(['--dialect', 'twilio']);
    try {
      const out = em.stdout();
      const command = /^Try: (curl -u (AC[0-9a-f]{32}):([0-9a-f]{32}) (\S+))$/m.exec(out);
      expect(command).not.toBeNull();
      const [, pasted, sid, , url] = command!;
      expect(url).toBe(`${em.url}/2010-04-01/Accounts/${sid}/Calls.json`);
      const { stdout } = await promisify(execFile)('sh', ['-c', `${pasted} -s`]);
      expect(JSON.parse(stdout).calls).toHaveLength(50);
      const key = new RegExp(`API key \\((SK[0-9a-f]{32}):([0-9a-f]{32}) is ${sid}'s\\)`).exec(out);
      expect(key).not.toBeNull();
      const withKey = await fetch(url!, {
        headers: { Authorization: `Basic ${Buffer.from(`${key![1]}:${key![2]}`).toString('base64')}` },
      });
      expect(withKey.status).toBe(200);
      expect(out).toContain(`client.api.baseUrl = '${em.url}'`);
    } finally {
      await em.stop();
    }
  });

  test("--intercept: the banner prints each family's lines, and the pasted curl answers through the proxy", async () => {
    const caDir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
    const em = await startCli(['--dialect', 'twilio', '--intercept', '0', '--ca-dir', caDir]);
    try {
      const out = em.stdout();
      const proxy = /^Intercepting api\.twilio\.com, .* at (http:\/\/127\.0\.0\.1:\d+) \(CA (\S+);/m.exec(out);
      expect(proxy?.[2]).toBe(join(caDir, 'ca.pem'));
      const url = proxy?.[1] as string;
      for (const family of ['node (twilio-node, the twilio CLI)', 'python (python3-twilio)', 'java', 'go', 'curl'])
        expect(out).toMatch(new RegExp(`^  ${family.replace(/[()]/g, '\\$&')}: `, 'm'));
      expect(out).toContain(`export HTTP_PROXY=${url} HTTPS_PROXY=${url} NODE_EXTRA_CA_CERTS=${join(caDir, 'ca.pem')}`);
      expect(out).toContain(`-Djavax.net.ssl.trustStore=${join(caDir, 'ca.jks')}`);
      expect(out).toContain(`export HTTPS_PROXY=${url} SSL_CERT_FILE=${join(caDir, 'ca.pem')}`);
      const curl = /^ {2}curl: (curl --proxy \S+ --cacert \S+) https:/m.exec(out)?.[1] as string;
      const [, sid, token] = /^Try: curl -u (AC[0-9a-f]{32}):([0-9a-f]{32}) /m.exec(out) ?? [];
      const { stdout } = await promisify(execFile)('sh', [
        '-c',
        `${curl} -s -u ${sid}:${token} https://api.twilio.com/2010-04-01/Accounts/${sid}/Calls.json?PageSize=3`,
      ]);
      expect(JSON.parse(stdout).calls).toHaveLength(3);
    } finally {
      await em.stop();
    }
  });

  test.each([
    [['--intercept', '0'], `--intercept: ${problems.interceptNeedsProvider}`],
    [['--intercept', '0', '--dialect', 'restcomm'], `--intercept: ${problems.interceptNeedsHost}`],
  ])('%j stops start-up, exit 2', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  test('npm start, then the printed curl command, verbatim', async () => {
    const { spawn } = await import('node:child_process');
    const { ROOT } = await import('../support/process');
    const proc = spawn('npm', ['start', '--', '--port', '0'], { cwd: ROOT, detached: true });
    try {
      const out = await new Promise<string>((done, fail) => {
        let text = '';
        const timer = setTimeout(() => fail(new Error(`no start-up: ${text}`)), 20_000);
        proc.stdout!.on('data', (d: Buffer) => {
          text += d.toString();
          if (text.includes('Try: ')) {
            clearTimeout(timer);
            done(text);
          }
        });
      });
      expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      const command = /^Try: (curl .*)$/m.exec(out)![1]!;
      const { stdout } = await promisify(execFile)('sh', ['-c', `${command} -s`]);
      expect(JSON.parse(stdout).total).toBe(448);
    } finally {
      process.kill(-(proc.pid as number), 'SIGTERM');
    }
  });

  test.each(['SIGTERM', 'SIGINT'] as const)('%s stops it cleanly, with exit code 0', async (signal) => {
    const em = await startCli([]);
    const code = await em.stop(signal);
    expect(code).toBe(0);
    expect(em.stdout()).toContain(`${signal}, stopping`);
  });

  test('SIGTERM stops it while a clock move waits on a receiver that drips its answer for ever', async () => {
    const { receiver } = await import('../support/receiver');
    const rx = await receiver((_req, res) => {
      res.writeHead(200);
      const drip = setInterval(() => res.write('.'), 200);
      res.on('close', () => clearInterval(drip));
    });
    try {
      const em = await startCli(['--callback-timeout-ms', '600000', '--log-level', 'silent']);
      const [a] = await adminAccounts(em.url);
      const auth = { Authorization: `Basic ${Buffer.from(`${a?.token}:`).toString('base64')}` };
      const created = await fetch(`${em.url}/call/2012-04-24/Accounts/${a?.sid}/Calls.json`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          From: '+1555',
          To: '+1556',
          Url: 'http://127.0.0.1:1/x',
          StatusCallback: `${rx.url}/s`,
        }),
      });
      expect(created.status).toBe(200);
      const moving = fetch(`${em.url}/__admin/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance: 'PT1H' }),
      }).catch(() => null);
      await new Promise((r) => setTimeout(r, 300));
      // Exit code 0: it stopped by itself, not by the helper's SIGKILL five seconds on.
      expect(await em.stop('SIGTERM')).toBe(0);
      await moving;
    } finally {
      await rx.close();
    }
  });

  test('listening beyond loopback without --admin-token prints a warning', async () => {
    const em = await startCli(['--host', '0.0.0.0']);
    try {
      expect(em.stderr()).toContain('open admin API');
    } finally {
      await em.stop();
    }
  });

  test('PORT and HOST come from the environment when no flag is given', async () => {
    const em = await startCli([], { HOST: '127.0.0.2' });
    try {
      expect(em.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      expect((await get(`${em.url}/__admin/health`)).status).toBe(200);
    } finally {
      await em.stop();
    }
  });
});

describe('bad start-up input', () => {
  test('--help lists every option and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const o of OPTIONS) {
      expect(r.stdout).toContain(`--${o.name}`);
      expect(r.stdout).toContain(o.env);
    }
  });

  test.each([
    [['--port', 'abc'], {}, '--port: must be an integer'],
    [['--paging', 'x'], {}, '--paging: must be production or documented'],
    [[], { CALLREC_CLOCK: 'tomorrow' }, 'CALLREC_CLOCK: must be an ISO 8601 instant'],
    [['--nope'], {}, "Unknown option '--nope'"],
  ])('%j %j → exit 2 with a message', async (args, env, text) => {
    const r = await runCli(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
  });

  test('a malformed fixtures file names the file and the field, exit 2', async () => {
    const bad = fixture('bad.json', { accounts: [{ friendly_name: 'A', calls: 4, recordings: 'many' }] });
    const r = await runCli(['--fixtures', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}: accounts[0].recordings: must be an integer`);
    const broken = fixture('broken.json', '{"accounts": [');
    const r2 = await runCli(['--fixtures', broken]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`${broken}: not valid JSON`);
  });

  test('a states file with a placeholder that has no default stops start-up, exit 2, naming it', async () => {
    const states = fixture('states.json', {
      states: { 'n calls': { account: { friendly_name: 'N', calls: '{{n}}' } } },
    });
    const r = await runCli(['--states', states]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${states}: states["n calls"].params: has no default for {{n}}`);
  });

  test("the proxy's port in use is reported as --intercept's, exit 1", async () => {
    const em = await startCli([]);
    try {
      const port = new URL(em.url).port;
      const r = await runCli([
        '--dialect',
        'twilio',
        '--intercept',
        port,
        '--ca-dir',
        mkdtempSync(join(tmpdir(), 'ca-')),
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `port ${port} is in use; pick another with --intercept N (or CALLREC_INTERCEPT=N), or --intercept 0`,
      );
    } finally {
      await em.stop();
    }
  });

  test('a port in use is reported, exit 1', async () => {
    const em = await startCli([]);
    try {
      const port = new URL(em.url).port;
      const r = await runCli(['--port', port]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('EADDRINUSE');
      // and how to pick another.
      expect(r.stderr).toContain(`port ${port} is in use; pick another with --port N (or PORT=N), or --port 0`);
    } finally {
      await em.stop();
    }
  });
});
