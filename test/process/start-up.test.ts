import { resolve } from 'node:path';
import { get, startCli } from '../support/process';

const HOOK = resolve(__dirname, '..', 'support', 'modules-at-first-answer.js');

/** The packages the hook listed last at a moment ("at the first answer", "now", "at exit"). */
function packagesAt(stderr: string, moment: string): string[] {
  const lines = [...stderr.matchAll(new RegExp(`packages ${moment}: (.*)`, 'g'))];
  const line = lines[lines.length - 1];
  if (line === undefined) throw new Error(`no "${moment}" line in: ${stderr}`);
  return (line[1] ?? '').split(' ').filter((p) => p !== '');
}

describe('start-up', () => {
  // What a start-up costs is measured in `npm run bench` (spawn to the first 200); what is
  // tested here is what makes it short: the first page needs none of these packages.
  test('the first list page is served before express, the log writer or faker load; express loads right after, unasked', async () => {
    const em = await startCli([], { NODE_OPTIONS: `--require ${HOOK}` });
    const m = /Try: curl -u (\S+): (\S+)/.exec(em.stdout());
    if (m === null) throw new Error(`no curl line in: ${em.stdout()}`);
    const [, token = '', url = ''] = m;
    const page = await get(url, token);
    expect(page.status).toBe(200);
    expect(JSON.parse(page.text)).toMatchObject({ page: 0, page_size: 50 });
    const first = packagesAt(em.stderr(), 'at the first answer');
    expect(first).toContain('seedrandom');
    for (const late of ['express', 'body-parser', 'sonic-boom', '@faker-js/faker']) expect(first).not.toContain(late);
    // Loaded once the first answer has gone, with no other request to ask for it. Asked every
    // 25 ms for up to 15 s: a busy runner may take a while to load it, and no time is judged.
    let now: string[] = [];
    for (let i = 0; i < 600 && !now.includes('express'); i++) {
      em.proc.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 25));
      if (em.stderr().includes('packages now:')) now = packagesAt(em.stderr(), 'now');
    }
    expect(now).toEqual(expect.arrayContaining(['express', 'body-parser']));
    // Nothing logs at the default level when all goes well: its writer has not been loaded.
    expect(now).not.toContain('sonic-boom');
    expect(await em.stop()).toBe(0);
  });

  test('an admin request first waits for express, then is answered as always', async () => {
    const em = await startCli([], { NODE_OPTIONS: `--require ${HOOK}` });
    const [health, missing] = await Promise.all([get(`${em.url}/__admin/health`), get(`${em.url}/no/such/path`)]);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toHaveProperty('message');
    expect(await em.stop()).toBe(0);
  });
});
