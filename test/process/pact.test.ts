import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { docsText } from '../support/docs';
import { ROOT, runCommand, type Spawned, startCli } from '../support/process';

const PACT = resolve(__dirname, '..', 'pacts', 'callrec-client-callrec-emulator.json');
const VERIFY = resolve(__dirname, '..', 'support', 'verify-pact.js');

/**
 * A consumer's pact, verified against the running emulator as a provider pipeline would:
 * Pact's verifier replays each interaction after asking /__admin/provider-states to set its state.
 */
describe('Pact provider verification', () => {
  let em: Spawned;
  beforeAll(async () => {
    em = await startCli([]);
  });
  afterAll(async () => {
    await em.stop();
  });

  test('every interaction of test/pacts passes, with provider states', async () => {
    const run = await runCommand(process.execPath, [VERIFY, em.url, PACT]);
    expect(run.out).toContain('pact verification passed');
    expect(run.code).toBe(0);
  }, 60_000);

  test("the docs' verification block runs as printed, in a file of its own", async () => {
    const block = /```js\n(\/\/ verify-pact\.js\n[\s\S]*?)```/.exec(docsText())?.[1];
    expect(block).toContain('async function main()');
    // A project of its own that has the package, as the README says; only the address is this run's.
    const dir = mkdtempSync(join(tmpdir(), 'callrec-pact-'));
    symlinkSync(resolve(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'verify-pact.js'), (block as string).replaceAll('http://127.0.0.1:8080', em.url));
    const run = await runCommand(process.execPath, [join(dir, 'verify-pact.js')], {}, ROOT);
    expect(run.out).toContain('pact verification passed');
    expect(run.code).toBe(0);
  }, 60_000);

  test('a pact the emulator breaks fails verification (the check is real)', async () => {
    const broken = JSON.parse(readFileSync(PACT, 'utf8')) as {
      interactions: { response: { body?: Record<string, unknown> } }[];
    };
    broken.interactions[1]!.response.body!['total'] = 5;
    const file = resolve(mkdtempSync(resolve(tmpdir(), 'pact-')), 'broken.json');
    writeFileSync(file, JSON.stringify(broken));
    const run = await runCommand(process.execPath, [VERIFY, em.url, file]);
    expect(run.code).toBe(1);
  }, 60_000);
});
