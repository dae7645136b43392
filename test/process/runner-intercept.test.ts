import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_ENV, type RunSandbox, sandboxPerTest, startForRun, stopForRun, URL_ENV } from '../../src/runners/run';
import { basic, getThrough } from '../support/tunnel';

/**
 * The runner helpers with interception: the run's setup starts the proxy and hands its client
 * environment to the workers; each test's sandbox carries it with its own login, and a client
 * given that environment reaches the sandbox at api.twilio.com.
 */
describe('startForRun({ intercept }) and a sandbox per test', () => {
  const caDir = mkdtempSync(join(tmpdir(), 'callrec-ca-'));
  const saved = { url: process.env[URL_ENV], env: process.env[CLIENT_ENV] };
  let hooks: { before?: (name?: string) => Promise<void>; after?: () => Promise<void> } = {};
  let sandbox: () => RunSandbox;

  beforeAll(async () => {
    delete process.env[URL_ENV];
    await startForRun({ dialect: 'twilio', intercept: 0, caDir, seed: 'runner-intercept' });
    hooks = {};
    sandbox = sandboxPerTest(
      { beforeEach: (fn) => (hooks.before = fn), afterEach: (fn) => (hooks.after = fn) },
      'Acme Support Line',
    );
    await hooks.before?.('intercepted');
  });
  afterAll(async () => {
    await hooks.after?.();
    await stopForRun();
    if (saved.url !== undefined) process.env[URL_ENV] = saved.url;
    if (saved.env !== undefined) process.env[CLIENT_ENV] = saved.env;
  });

  test("the sandbox's env: its login, the proxy and the CA, which reach the sandbox at api.twilio.com", async () => {
    const { env, sid, token } = sandbox();
    expect(env).toMatchObject({
      TWILIO_ACCOUNT_SID: sid,
      TWILIO_AUTH_TOKEN: token,
      NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem'),
      SSL_CERT_FILE: join(caDir, 'ca.pem'),
    });
    expect(env['HTTP_PROXY']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env['HTTPS_PROXY']).toBe(env['HTTP_PROXY']);
    expect(env['JAVA_TOOL_OPTIONS']).toContain(`-Djavax.net.ssl.trustStore=${join(caDir, 'ca.jks')}`);
    const got = await getThrough(
      env['HTTPS_PROXY'] as string,
      'api.twilio.com',
      `/2010-04-01/Accounts/${env['TWILIO_ACCOUNT_SID']}.json`,
      readFileSync(env['NODE_EXTRA_CA_CERTS'] as string, 'utf8'),
      { authorization: basic(sid, token) },
    );
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body)).toMatchObject({ sid, friendly_name: 'intercepted' });
  });
});
