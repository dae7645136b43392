import { readFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { createServer, connect as netConnect, type Socket } from 'node:net';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { emulator, LATENCY_SAMPLES, log, rows, scratch } from '../context';
import { type AdminAccount, accountsOf, median, percentile, timedGet } from '../lib';

/** A free loopback port: the proxy's, since the bench does not read the banner. */
function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** An https agent whose one kept-alive connection is a tunnel through the proxy to `host`. */
function tunnelAgent(proxyPort: number, ca: string): HttpsAgent {
  const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1 });
  const open = (host: string, done: (err: Error | null, socket?: Socket) => void) => {
    const raw = netConnect(proxyPort, '127.0.0.1', () =>
      raw.write(`CONNECT ${host}:443 HTTP/1.1\r\nHost: ${host}:443\r\n\r\n`),
    );
    raw.once('data', (d: Buffer) => {
      if (!d.toString('latin1').startsWith('HTTP/1.1 200 ')) return done(new Error(d.toString()));
      const tls = tlsConnect({ socket: raw, servername: host, ca });
      tls.once('secureConnect', () => done(null, tls));
      tls.once('error', done);
    });
    raw.once('error', done);
  };
  (agent as unknown as { createConnection: unknown }).createConnection = (
    options: { host: string },
    done: (err: Error | null, socket?: Socket) => void,
  ) => {
    open(options.host, done);
    return undefined;
  };
  return agent;
}

/**
 * The interception proxy's cost: a page of Twilio's calls through a kept-alive TLS tunnel
 * (`https://api.twilio.com` by CONNECT, TLS ended in the emulator), beside the same page asked of
 * the emulator directly over a kept-alive connection, alternating, in one process, no render
 * cache. What the tunnel adds is TLS on the page's bytes and the hop through its socket.
 */
export async function intercept(): Promise<void> {
  const port = await freePort();
  const caDir = join(scratch, 'ca');
  const em = await emulator(['--dialect', 'twilio', '--intercept', String(port), '--ca-dir', caDir, '--cache-mb', '0']);
  const [account] = (await accountsOf(em.url)) as [AdminAccount];
  const agent = tunnelAgent(port, readFileSync(join(caDir, 'ca.pem'), 'utf8'));
  const path = (i: number) => `/2010-04-01/Accounts/${account.sid}/Calls.json?PageSize=50&Page=0&probe=${i}`;
  const direct: number[] = [];
  const tunnelled: number[] = [];
  let bytes = 0;
  // A discarded first round warms the JIT, and opens the tunnel.
  for (let i = -20; i < LATENCY_SAMPLES; i++) {
    const a = await timedGet(`${em.url}${path(i)}`, account.token, account.sid);
    const b = await timedGet(`https://api.twilio.com${path(i)}`, account.token, account.sid, agent);
    if (a.status !== 200 || b.status !== 200 || a.bytes !== b.bytes)
      throw new Error(`probes got ${a.status}, ${b.status}`);
    bytes = a.bytes;
    if (i >= 0) {
      direct.push(a.ms);
      tunnelled.push(b.ms);
    }
  }
  agent.destroy();
  const ratio = median(tunnelled) / median(direct);
  const fmt = (t: number[]) => `p50 ${median(t).toFixed(2)} ms, p99 ${percentile(t, 99).toFixed(2)} ms`;
  log(
    `intercept: pages of ${bytes} bytes through the tunnel ${fmt(tunnelled)}; direct ${fmt(direct)}; ratio ${ratio.toFixed(2)}`,
  );
  rows.push({
    group: 'latency',
    scenario: `--intercept: a Twilio page (${Math.round(bytes / 1024)} KB) of https://api.twilio.com through a kept-alive tunnel of the proxy, against the same page of the emulator directly, alternating`,
    emulator: fmt(tunnelled),
    baseline: fmt(direct),
    value: ratio,
    target: '≤ 1.5x the direct page',
    met: ratio <= 1.5,
  });
  await em.stop();
}
