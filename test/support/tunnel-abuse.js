// A thousand tunnels through the interception proxy, opened and dropped at four points of their
// life: after the CONNECT, in the middle of the handshake, after half a request, and after a
// whole request (before its answer). Shared by the abuse test and its in-process memory check.
const { connect: netConnect } = require('node:net');
const { connect: tlsConnect } = require('node:tls');

/** Resolves with the socket once the proxy answered 200 to `CONNECT host:443`. */
function tunnel(proxyUrl, host) {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(port), hostname, () =>
      socket.write(`CONNECT ${host}:443 HTTP/1.1\r\nHost: ${host}:443\r\n\r\n`),
    );
    let got = '';
    const onData = (d) => {
      got += d.toString('latin1');
      if (!got.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (got.startsWith('HTTP/1.1 200 ')) resolve(socket);
      else reject(new Error(got));
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

async function openAndDrop(proxyUrl, ca, i, path) {
  const socket = await tunnel(proxyUrl, 'api.twilio.com');
  socket.on('error', () => undefined);
  const kind = i % 4;
  if (kind === 0) return void socket.destroy();
  const tls = tlsConnect({ socket, servername: 'api.twilio.com', ca });
  tls.on('error', () => undefined);
  if (kind === 1) {
    await new Promise((r) => setImmediate(r));
    return void socket.destroy();
  }
  await new Promise((r) => tls.once('secureConnect', r));
  tls.write(kind === 2 ? 'GET /2010-04-01/Accounts' : `GET ${path} HTTP/1.1\r\nHost: api.twilio.com\r\n\r\n`);
  tls.destroy();
}

/** 1,000 tunnels, 50 at a time; `path` is what the whole requests ask for (no credentials: a 401). */
async function thousandTunnels(proxyUrl, ca, path) {
  for (let batch = 0; batch < 20; batch++) {
    await Promise.all(Array.from({ length: 50 }, (_, i) => openAndDrop(proxyUrl, ca, batch * 50 + i, path)));
  }
}

module.exports = { thousandTunnels };

// `node --expose-gc tunnel-abuse.js ROUNDS`: an emulator in this process (from dist/), ROUNDS
// thousands against it, and the heap after a full collection following each, as JSON.
if (require.main === module) {
  const { mkdtempSync, readFileSync } = require('node:fs');
  const { tmpdir } = require('node:os');
  const { join } = require('node:path');
  const { startEmulator } = require('../../dist/emulator');
  (async () => {
    const caDir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
    const em = await startEmulator({ dialect: 'twilio', intercept: 0, caDir });
    const ca = readFileSync(join(caDir, 'ca.pem'), 'utf8');
    const path = `/2010-04-01/Accounts/${em.accounts[0].sid}/Calls.json`;
    const heap = [];
    for (let round = 0; round < Number(process.argv[2]); round++) {
      await thousandTunnels(em.intercept.url, ca, path);
      // The server's side of the last sockets closes a moment after the client's.
      await new Promise((r) => setTimeout(r, 200));
      global.gc();
      heap.push(process.memoryUsage().heapUsed);
    }
    await em.close();
    process.stdout.write(`${JSON.stringify({ heap })}\n`);
  })().catch((err) => {
    process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  });
}
