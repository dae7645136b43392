import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages, problems } from '../../src/errors';
import { get, runCli, type Spawned, startCli } from '../support/process';

/** Writes `raw` on a fresh connection and resolves with everything the server sends back. */
function rawExchange(url: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let got = '';
    socket.on('data', (d) => (got += d.toString()));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
}

const bodyOf = (response: string) =>
  JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { message: string };

describe("node's own rejections answer in the {message} shape", () => {
  let em: Spawned;
  beforeAll(async () => {
    em = await startCli(['--log-level', 'silent']);
  });
  afterAll(() => em.stop());

  test.each([
    [
      'headers over 16 KB',
      431,
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      messages.headersTooLarge,
    ],
    ['a malformed request line', 400, 'GET /\u0001 nonsense\r\n\r\n', messages.badRequest],
    [
      'an Expect it cannot meet',
      417,
      'GET /__admin/health HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n',
      messages.expectation('teapot'),
    ],
  ])('%s → %i', async (_what, status, raw, message) => {
    const response = await rawExchange(em.url, raw);
    expect(response.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    expect(response).toContain('Content-Type: application/json');
    expect(bodyOf(response)).toEqual({ message });
  });
});

describe('--max-connections: a slow-header flood cannot crowd out other clients', () => {
  test('with 40 connections stuck in their headers and a cap of 8, a new client is served at once', async () => {
    const em = await startCli(['--log-level', 'silent', '--max-connections', '8']);
    const { hostname, port } = new URL(em.url);
    const slow: Socket[] = [];
    try {
      for (let i = 0; i < 40; i++) {
        const s = connect(Number(port), hostname);
        s.on('error', () => undefined);
        s.write('GET /__admin/health HTTP/1.1\r\nHost: x\r\n');
        slow.push(s);
      }
      await new Promise((r) => setTimeout(r, 200));
      const res = await get(`${em.url}/__admin/health`);
      expect(res.status).toBe(200);
      // Most slow connections were dropped to make room; at most the cap are open.
      expect(slow.filter((s) => !s.destroyed && s.readyState === 'open').length).toBeLessThanOrEqual(8);
    } finally {
      for (const s of slow) s.destroy();
      await em.stop();
    }
  });
});

describe('start-up input that is not a usable file, or not an option', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callrec-hard-'));

  test.each([
    [['--host', 'a b'], `--host: ${problems.hostName('a b')}`],
    [['--fixtures', '/dev/zero'], `/dev/zero: ${problems.notRegularFile('fixtures')}`],
    [['--states', dir], `${dir}: ${problems.notRegularFile('states')}`],
  ])('%j → exit 2: %s', async (args, text) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
  });

  test('a FIFO does not hang start-up', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const r = await runCli(['--fixtures', fifo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(problems.notRegularFile('fixtures'));
  });

  test('invalid UTF-8 is an error; a message never quotes the file; a byte-order mark is fine', async () => {
    const latin1 = join(dir, 'latin1.json');
    writeFileSync(latin1, Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    const bad = await runCli(['--fixtures', latin1]);
    expect([bad.code, bad.stderr.trim()]).toEqual([2, `callrec-emulator: ${latin1}: ${problems.notUtf8}`]);
    const secret = join(dir, 'secret.json');
    writeFileSync(secret, 'TOPSECRET-DO-NOT-PRINT and more');
    const quoted = await runCli(['--fixtures', secret]);
    expect(quoted.code).toBe(2);
    expect(quoted.stderr).not.toContain('TOPSECRET');
    const bom = join(dir, 'bom.json');
    writeFileSync(bom, `\ufeff${JSON.stringify({ accounts: [{ friendly_name: 'A', calls: 3 }] })}`);
    const em = await startCli(['--fixtures', bom, '--log-level', 'silent']);
    await em.stop();
  });
});
