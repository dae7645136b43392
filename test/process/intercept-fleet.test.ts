import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminAccounts, startCli } from '../support/process';
import { basic, getThrough } from '../support/tunnel';

/**
 * `--workers` with `--intercept`: the primary's workers share the proxy's port as they share the
 * emulator's (node:cluster), started together they make one CA between them, and a client gets
 * the same answer from whichever worker its tunnel lands on.
 */
test('--workers 2 --intercept 0: one CA, every tunnel answered alike', async () => {
  const caDir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
  const em = await startCli(['--workers', '2', '--dialect', 'twilio', '--intercept', '0', '--ca-dir', caDir]);
  try {
    const proxy = /^Intercepting .* at (http:\S+) /m.exec(em.stdout())?.[1] as string;
    const [account] = await adminAccounts(em.url);
    const path = `/2010-04-01/Accounts/${account?.sid}/Calls.json?PageSize=5`;
    const ca = readFileSync(join(caDir, 'ca.pem'), 'utf8');
    const headers = { authorization: basic(account?.sid ?? '', account?.token ?? '') };
    const bodies = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const got = await getThrough(proxy, 'api.twilio.com', path, ca, headers);
      expect(got.status).toBe(200);
      bodies.add(got.body);
    }
    expect(bodies.size).toBe(1);
    expect(readdirSync(caDir).sort()).toEqual(['ca-key.pem', 'ca.jks', 'ca.pem']);
  } finally {
    await em.stop();
  }
}, 60_000);
