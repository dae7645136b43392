import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, requireBuild } from '../support/process';

/**
 * Clients written for production, unchanged, reach the emulator through `--intercept` with only
 * environment variables set: the twilio CLI, a twilio-node script, a Java HttpsURLConnection
 * client, python3-twilio and curl. Everything runs in a network namespace whose one interface
 * is loopback (`unshare --net`), so a client that went anywhere else would fail; node clients
 * also carry a guard that writes down every connection and name lookup not on loopback.
 */
const run = promisify(execFile);
const SCRIPT = join(__dirname, 'intercept', 'in-sandbox.sh');
const java = spawnSync('java', ['-version']).status === 0;
const python =
  existsSync('/usr/bin/python3') && spawnSync('/usr/bin/python3', ['-c', 'import twilio.rest']).status === 0;
if (!java)
  process.stderr.write('\nintercept: no java on PATH: the Java client is SKIPPED (install default-jdk-headless).\n\n');
if (!python)
  process.stderr.write(
    "\nintercept: no python3-twilio: the python client is SKIPPED (install Debian's python3-twilio).\n\n",
  );

const sidsOf = (list: { sid: string }[]) => list.map((c) => c.sid);

describe('--intercept: clients as written for production, environment only, in a loopback-only network', () => {
  const out = mkdtempSync(join(tmpdir(), 'callrec-intercept-'));
  const read = (name: string) => readFileSync(join(out, name), 'utf8');
  const json = (name: string) => JSON.parse(read(name)) as Record<string, unknown>;
  let direct: string[];

  beforeAll(async () => {
    requireBuild();
    await run('unshare', ['--net', '--mount', '--map-root-user', 'bash', SCRIPT, ROOT, out], {
      env: { PATH: process.env['PATH'], HOME: out, JAVA: java ? '1' : '', PYTHON: python ? '1' : '' },
      timeout: 120_000,
    });
    direct = sidsOf((json('direct.json')['calls'] as { sid: string }[]) ?? []);
  }, 150_000);

  test('the namespace has loopback only: no route, the provider unreachable without the proxy', () => {
    expect(read('links.txt').trim().split('\n')).toEqual([expect.stringMatching(/^1: lo: /)]);
    expect(read('routes.txt').trim()).toBe('');
    expect(read('no-proxy.txt')).toMatch(/^unreachable /);
    expect(direct.length).toBe(230);
  });

  test('no node client connected to, or looked up, anything but loopback (and the guard does see those)', () => {
    expect(read('guard.log')).toBe('');
    expect(read('guard-control.log')).toMatch(
      /connect 10\.255\.255\.1\n[\s\S]*lookup example\.com\n|lookup example\.com\n[\s\S]*connect 10\.255\.255\.1\n/,
    );
  });

  test('the twilio CLI lists every call and fetches a recording', () => {
    expect(sidsOf(JSON.parse(read('cli-calls.json')) as { sid: string }[])).toEqual(direct);
    const [recording] = JSON.parse(read('cli-recording.json')) as { sid: string; callSid: string }[];
    expect(recording?.sid).toMatch(/^RE[0-9a-f]{32}$/);
    expect(direct).toContain(recording?.callSid);
  });

  test('a twilio-node script with no baseUrl walks every page and fetches a recording', () => {
    const got = json('node.json') as { pages: number; sids: string[]; recording: string };
    expect(got.sids).toEqual(direct);
    expect(got.pages).toBe(5);
    expect(got.recording).toMatch(/^RE[0-9a-f]{32}$/);
  });

  (java ? test : test.skip)('a Java HttpsURLConnection client for https://api.twilio.com walks every page', () => {
    expect(json('java.json')).toEqual({ pages: 5, sids: direct });
  });

  (python ? test : test.skip)('python3-twilio streams every call, the CA in the system trust store', () => {
    expect(json('python.json')).toEqual({ sids: direct });
  });

  test('curl --proxy --cacert gets the same page as the emulator itself', () => {
    expect(read('curl.json')).toBe(read('direct.json'));
  });

  test('nothing was refused: every client asked for the provider host by name', () => {
    expect(json('journal.json')['requests']).toEqual([]);
  });
});
