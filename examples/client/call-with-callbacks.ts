import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The other half of an integration: an app creates a call, receives its status callbacks on its
 * own URL, then lists the call and finds it completed. All on the emulator's clock: the test
 * makes an account whose calls to +15550001111 are always answered (`outcomes_by_to`), works in
 * a sandbox of it (a clock of its own, so nothing else moves), moves that clock an hour, which
 * delivers every callback the call sends in that hour before the move answers, then deletes both.
 *
 * Run: npx --no-install ts-node examples/client/call-with-callbacks.ts URL
 */
async function main(baseUrl: string): Promise<void> {
  const started = performance.now();
  // The app's callback endpoint: production POSTs a UTF-8 form.
  const received: URLSearchParams[] = [];
  const app = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      received.push(new URLSearchParams(body));
      res.end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/status`;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/__admin${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} /__admin${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ sid: string; token: string }>;
  };
  const account = await admin('POST', '/accounts', {
    friendly_name: 'Callbacks example',
    outcomes_by_to: { '+15550001111': 'completed' },
  });
  const sandbox = await admin('POST', '/sandboxes', { from: account.sid });
  const auth = { Authorization: `Basic ${Buffer.from(`${sandbox.token}:`).toString('base64')}` };
  const calls = `${baseUrl}/call/2012-04-24/Accounts/${sandbox.sid}/Calls.json`;
  try {
    // The create: a form, as production takes it; the answer is the call, queued.
    const form = new URLSearchParams({
      From: '+15126002188',
      To: '+15550001111',
      Url: 'http://127.0.0.1:1/rcml.xml',
      StatusCallback: callbackUrl,
    });
    const created = await fetch(calls, { method: 'POST', headers: auth, body: form });
    const call = (await created.json()) as { sid: string; status: string };
    console.log(`created ${call.sid}: ${call.status}`);
    // An hour on the sandbox's clock: the call rings, is answered (or not) and ends.
    await admin('POST', `/sandboxes/${sandbox.sid}/clock`, { advance: 'PT1H' });
    for (const p of received)
      console.log(`callback ${p.get('SequenceNumber')} ${p.get('CallStatus')} at ${p.get('Timestamp')}`);
    const page = (await (await fetch(`${calls}?PageSize=1`, { headers: auth })).json()) as {
      calls: { sid: string; status: string; duration?: number }[];
    };
    const listed = page.calls.find((c) => c.sid === call.sid);
    console.log(`listed ${listed?.sid}: ${listed?.status}, ${listed?.duration ?? 0} s`);
    console.log(`wall time ${Math.round(performance.now() - started)} ms`);
  } finally {
    await admin('DELETE', `/sandboxes/${sandbox.sid}`);
    await admin('DELETE', `/accounts/${account.sid}`);
    app.close();
  }
}

const [url = 'http://127.0.0.1:8080'] = process.argv.slice(2);
main(url).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
