import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, startCli } from '../support/process';

describe('npm run build beside a running server', () => {
  test('a server started from dist/ keeps answering while the suite rebuilds it, even a first request that loads express then', async () => {
    // Started and never asked anything: express and the admin API load with the first request.
    const em = await startCli(['--log-level', 'silent']);
    try {
      const build = spawn(process.execPath, [join(ROOT, 'scripts', 'build.js')], { cwd: ROOT, stdio: 'ignore' });
      const built = new Promise<number | null>((resolve) => build.on('exit', resolve));
      // Well inside the compile (seconds long): the old build emptied dist/ first.
      await new Promise((r) => setTimeout(r, 500));
      const first = await fetch(`${em.url}/__admin/accounts`);
      expect(first.status).toBe(200);
      expect(await built).toBe(0);
      const after = await fetch(`${em.url}/__admin/health`);
      expect(after.status).toBe(200);
    } finally {
      await em.stop();
    }
  }, 120_000);
});
