import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import dns from 'node:dns';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { type EmulatorHandle, startEmulator } from '../../src/emulator';
import { messages, problems } from '../../src/errors';
import { CA_CERT_FILE, CA_KEY_FILE, loadCa } from '../../src/intercept/ca';
import { makeCertificate, permittedNames } from '../../src/intercept/x509';
import { type Answer, basic, connectThrough, getThrough, getViaProxy, requestOn, tlsOver } from '../support/tunnel';

const FIXTURES = {
  accounts: [
    { friendly_name: 'Twilio user', calls: 120, recordings: 30 },
    { friendly_name: 'Other', calls: 3 },
  ],
};

const json = (a: Answer) => JSON.parse(a.body) as Record<string, unknown>;

/**
 * Every connection this process opens and every name it looks up, the emulator's and the test's
 * alike (they share it): the proxy must never open one of its own, whatever it is asked for.
 */
const outbound: string[] = [];
const realConnect = Socket.prototype.connect;
const realLookup = dns.lookup;
beforeAll(() => {
  Socket.prototype.connect = function spied(this: Socket, ...args: unknown[]) {
    const first = args[0] as { host?: string; path?: string } | number;
    const host = typeof first === 'object' && first !== null ? first.host : (args[1] as string | undefined);
    if (typeof first !== 'object' || first.path === undefined) outbound.push(`connect ${host ?? 'localhost'}`);
    return (realConnect as (...a: unknown[]) => Socket).apply(this, args);
  } as typeof Socket.prototype.connect;
  (dns as { lookup: unknown }).lookup = (host: string, ...rest: unknown[]) => {
    outbound.push(`lookup ${host}`);
    return (realLookup as (...a: unknown[]) => void)(host, ...rest);
  };
});
afterAll(() => {
  Socket.prototype.connect = realConnect;
  (dns as { lookup: unknown }).lookup = realLookup;
  // Loopback only: the test's own connections to the proxy and the emulator.
  expect(outbound.filter((o) => !/^(connect|lookup) (127\.0\.0\.1|localhost)$/.test(o))).toEqual([]);
  expect(outbound.length).toBeGreaterThan(20);
});

describe('--intercept, Twilio dialect: the provider host through the proxy', () => {
  const caDir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
  let em: EmulatorHandle;
  let proxy: string;
  let ca: string;
  let sid: string;
  let auth: string;
  beforeAll(async () => {
    em = await startEmulator({ seed: 'intercept', fixtures: FIXTURES, dialect: 'twilio', intercept: 0, caDir });
    proxy = em.intercept?.url ?? '';
    ca = readFileSync(em.intercept?.certFile ?? '', 'utf8');
    const account = em.accounts[0];
    sid = account?.sid ?? '';
    auth = basic(sid, account?.token ?? '');
  });
  afterAll(async () => {
    await em.close();
    rmSync(caDir, { recursive: true, force: true });
  });
  beforeEach(() => em.clearRequests());

  const direct = async (path: string) => {
    const res = await fetch(`${em.url}${path}`, { headers: { authorization: auth } });
    return { status: res.status, body: await res.text() };
  };

  test.each([['api.twilio.com'], ['api.au1.twilio.com'], ['api.sydney.au1.twilio.com'], ['API.Dublin.IE1.twilio.com']])(
    'https://%s through CONNECT is the emulator, byte for byte',
    async (host) => {
      const path = `/2010-04-01/Accounts/${sid}/Calls.json?PageSize=7`;
      const through = await getThrough(proxy, host, path, ca, { authorization: auth });
      const mine = await direct(path);
      expect(through.status).toBe(200);
      expect(through.body).toBe(mine.body);
      expect((json(through)['calls'] as unknown[]).length).toBe(7);
    },
  );

  test('a tunnel is kept alive: pages one after another on one connection', async () => {
    const tunnel = await connectThrough(proxy, 'api.twilio.com:443');
    const tls = await tlsOver(tunnel.socket, 'api.twilio.com', ca);
    try {
      let path: string | null = `/2010-04-01/Accounts/${sid}/Calls.json?PageSize=50`;
      let seen = 0;
      while (path !== null) {
        const page = await requestOn(tls, 'api.twilio.com', path, { authorization: auth, connection: 'keep-alive' });
        expect(page.status).toBe(200);
        seen += (json(page)['calls'] as unknown[]).length;
        path = json(page)['next_page_uri'] as string | null;
      }
      expect(seen).toBe(120);
    } finally {
      tls.destroy();
    }
  });

  test('a plain proxy request (absolute http:// URL) for the host is served too', async () => {
    const path = `/2010-04-01/Accounts/${sid}/Recordings.json?PageSize=3`;
    const got = await getViaProxy(proxy, `http://api.twilio.com${path}`, { authorization: auth });
    expect(got.status).toBe(200);
    expect(got.body).toBe((await direct(path)).body);
  });

  test('a wrong login through the proxy is Twilio 401, as on the host', async () => {
    const got = await getThrough(proxy, 'api.twilio.com', `/2010-04-01/Accounts/${sid}/Calls.json`, ca, {
      authorization: basic(sid, 'nope'),
    });
    expect(got.status).toBe(401);
    expect(json(got)['code']).toBe(20003);
  });

  test.each([
    ['example.com:443', 'example.com', messages.interceptRefused('example.com')],
    [
      'api.twilio.com.evil.example:443',
      'api.twilio.com.evil.example',
      messages.interceptRefused('api.twilio.com.evil.example'),
    ],
    ['messaging.twilio.com:443', 'messaging.twilio.com', messages.interceptRefused('messaging.twilio.com')],
    ['93.184.216.34:443', '93.184.216.34', messages.interceptAddress('93.184.216.34')],
    ['[2606:2800:220:1::1]:443', '2606:2800:220:1::1', messages.interceptAddress('2606:2800:220:1::1')],
    ['localhost:8080', 'localhost', messages.interceptRefused('localhost')],
  ])('CONNECT %s is refused (403, {message}), closed, and journaled naming it', async (authority, _host, message) => {
    const tunnel = await connectThrough(proxy, authority);
    expect(tunnel.status).toBe(403);
    expect(JSON.parse(tunnel.answer.slice(tunnel.answer.indexOf('\r\n\r\n') + 4))).toEqual({ message });
    await new Promise((r) => tunnel.socket.once('close', r));
    const [entry] = await em.requests({ method: 'CONNECT' });
    expect(entry).toMatchObject({ method: 'CONNECT', path: authority, status: 403, warnings: [message] });
  });

  test('a plain proxy request for another host is refused and journaled', async () => {
    const got = await getViaProxy(proxy, 'http://example.org/x');
    expect(got.status).toBe(403);
    expect(json(got)).toEqual({ message: messages.interceptRefused('example.org') });
    const [entry] = await em.requests();
    expect(entry).toMatchObject({ method: 'GET', path: 'example.org', status: 403 });
  });

  test('a request that is not a proxy request (origin-form) gets a 400 pointing at the emulator', async () => {
    const { hostname, port } = new URL(proxy);
    const got = await getViaProxy(`http://${hostname}:${port}`, '/2010-04-01/Accounts.json');
    expect(got.status).toBe(400);
    expect(json(got)).toEqual({ message: messages.interceptNotProxied(em.url) });
  });

  test('a client that does not trust the CA fails its handshake cleanly: no answer, nothing served', async () => {
    const tunnel = await connectThrough(proxy, 'api.twilio.com:443');
    await expect(tlsOver(tunnel.socket, 'api.twilio.com')).rejects.toMatchObject({
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(await em.requests()).toEqual([]);
  });

  test('a second CONNECT inside a kept-alive tunnel is refused (405) and the tunnel closed', async () => {
    const tunnel = await connectThrough(proxy, 'api.twilio.com:443');
    const tls = await tlsOver(tunnel.socket, 'api.twilio.com', ca);
    const first = await requestOn(tls, 'api.twilio.com', `/2010-04-01/Accounts/${sid}.json`, {
      authorization: auth,
      connection: 'keep-alive',
    });
    expect(first.status).toBe(200);
    let got = '';
    tls.on('data', (d: Buffer) => (got += d.toString()));
    const closed = new Promise((r) => tls.once('close', r));
    tls.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    await closed;
    expect(got.startsWith('HTTP/1.1 405 ')).toBe(true);
    expect(JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4))).toEqual({ message: messages.interceptNested(proxy) });
  });

  test("a CONNECT sent to the emulator's own port is refused (405), naming the proxy", async () => {
    const tunnel = await connectThrough(em.url, 'api.twilio.com:443');
    expect(tunnel.status).toBe(405);
    expect(JSON.parse(tunnel.answer.slice(tunnel.answer.indexOf('\r\n\r\n') + 4))).toEqual({
      message: messages.interceptNested(proxy),
    });
  });

  test('bytes that are not TLS in a tunnel end it without an answer', async () => {
    const tunnel = await connectThrough(proxy, 'api.twilio.com:443');
    let got = '';
    tunnel.socket.on('data', (d: Buffer) => (got += d.toString()));
    const closed = new Promise((r) => tunnel.socket.once('close', r));
    tunnel.socket.write('GET / HTTP/1.1\r\nHost: api.twilio.com\r\n\r\n');
    await closed;
    expect(got).toBe('');
  });

  test('the leaf names its host, chains to the CA, and the CA is limited to twilio.com, no address', async () => {
    const tunnel = await connectThrough(proxy, 'api.sydney.au1.twilio.com:443');
    const tls = await tlsOver(tunnel.socket, 'api.sydney.au1.twilio.com', ca);
    const leaf = tls.getPeerX509Certificate();
    tls.destroy();
    const caCert = new X509Certificate(ca);
    expect(leaf?.subjectAltName).toBe('DNS:api.sydney.au1.twilio.com');
    expect(leaf?.checkIssued(caCert)).toBe(true);
    expect(leaf?.verify(caCert.publicKey)).toBe(true);
    expect(caCert.ca).toBe(true);
    expect(permittedNames(caCert.raw)).toEqual(['twilio.com']);
  });

  test('the env handed back is what a client sets', () => {
    const env = em.intercept?.env ?? {};
    expect(env['HTTP_PROXY']).toBe(proxy);
    expect(env['HTTPS_PROXY']).toBe(proxy);
    expect(env['NODE_EXTRA_CA_CERTS']).toBe(join(caDir, CA_CERT_FILE));
    expect(env['JAVA_TOOL_OPTIONS']).toContain(`-Djavax.net.ssl.trustStore=${join(caDir, 'ca.jks')}`);
  });
});

describe('--intercept, Restcomm dialect: the deployment host named with --intercept-host', () => {
  const caDir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
  let em: EmulatorHandle;
  beforeAll(async () => {
    em = await startEmulator({
      fixtures: FIXTURES,
      dialect: 'restcomm',
      intercept: 0,
      interceptHosts: ['restcomm.example.net'],
      caDir,
    });
  });
  afterAll(async () => {
    await em.close();
    rmSync(caDir, { recursive: true, force: true });
  });

  test("its host is served in Restcomm's dialect; Twilio's host is refused", async () => {
    const account = em.accounts[0];
    const ca = readFileSync(join(caDir, CA_CERT_FILE), 'utf8');
    const path = `/restcomm/2012-04-24/Accounts/${account?.sid}/Calls.json?PageSize=2`;
    const got = await getThrough(em.intercept?.url ?? '', 'restcomm.example.net', path, ca, {
      authorization: basic(account?.sid ?? '', account?.token ?? ''),
    });
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body)).toMatchObject({ page: 0, page_size: 2 });
    const twilio = await connectThrough(em.intercept?.url ?? '', 'api.twilio.com:443');
    expect(twilio.status).toBe(403);
    expect(permittedNames(new X509Certificate(ca).raw)).toEqual(['restcomm.example.net']);
  });
});

describe('the CA folder', () => {
  test('made once, then kept: a second start serves leaves from the same CA', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
    const one = loadCa(dir, ['twilio.com'], Date.now());
    const two = loadCa(dir, ['twilio.com'], Date.now());
    expect(two.certPem).toBe(one.certPem);
    rmSync(join(dir, CA_CERT_FILE));
    expect(loadCa(dir, ['twilio.com'], Date.now()).certPem).toBe(one.certPem);
    expect(readFileSync(join(dir, CA_CERT_FILE), 'utf8')).toBe(one.certPem);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a CA made for other hosts is refused with its way out, not replaced', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
    const made = loadCa(dir, ['twilio.com'], Date.now());
    expect(() => loadCa(dir, ['twilio.com', 'restcomm.example.net'], Date.now())).toThrow(
      problems.caNotFor(join(dir, CA_KEY_FILE), 'restcomm.example.net', ['twilio.com']),
    );
    expect(readFileSync(join(dir, CA_CERT_FILE), 'utf8')).toBe(made.certPem);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a garbled key file is refused naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
    writeFileSync(join(dir, CA_KEY_FILE), 'not a key');
    expect(() => loadCa(dir, ['twilio.com'], Date.now())).toThrow(join(dir, CA_KEY_FILE));
    rmSync(dir, { recursive: true, force: true });
  });

  test('an expired CA is refused with its way out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
    loadCa(dir, ['twilio.com'], Date.now() - 20 * 365 * 86_400_000);
    expect(() => loadCa(dir, ['twilio.com'], Date.now())).toThrow(problems.caExpired(join(dir, CA_KEY_FILE)));
    rmSync(dir, { recursive: true, force: true });
  });

  test("a certificate the CA signs for a host outside its names fails a client's verification", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
    const made = loadCa(dir, ['twilio.com'], Date.now());
    const leafKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const leaf = makeCertificate({
      subjectCn: 'example.com',
      issuerCn: 'callrec-emulator interception CA',
      publicKey: leafKeys.publicKey,
      signingKey: made.key,
      issuerPublicKey: made.publicKey,
      notBeforeMs: Date.now() - 60_000,
      notAfterMs: Date.now() + 86_400_000,
      dnsNames: ['example.com'],
    });
    const server = createTlsServer({
      key: leafKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      cert: `${new X509Certificate(leaf).toString()}${made.certPem}`,
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const { connect } = await import('node:tls');
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const c = connect({ port, host: '127.0.0.1', servername: 'example.com', ca: made.certPem }, () =>
        resolve(new Error('trusted')),
      );
      c.on('error', resolve);
    });
    server.close();
    // OpenSSL's X509_V_ERR_PERMITTED_VIOLATION, which node has no code name for.
    expect(error.message).toBe('permitted subtree violation');
    rmSync(dir, { recursive: true, force: true });
  });
});
