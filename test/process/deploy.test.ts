import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { OPTIONS } from '../../src/config';

/**
 * No Docker engine runs here, so the container files are checked against the code: the compose
 * file's services, ports, health checks and variables, and the Dockerfile's commands.
 */
const ROOT = resolve(__dirname, '..', '..');
const read = (f: string) => readFileSync(resolve(ROOT, f), 'utf8');
const compose = parse(read('docker-compose.yml')) as { services: Record<string, any> };
const dockerfile = read('Dockerfile');
const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
  files: string[];
};
const OPTION_VARS = new Set(OPTIONS.map((o) => o.env));

describe('docker-compose.yml', () => {
  const s = compose.services;

  test('has the emulator, an app that waits for it, replicas sharing a Redis write log, and a proxy', () => {
    expect(Object.keys(s).sort()).toEqual(['app', 'emulator', 'proxy', 'redis', 'replica']);
    expect(s['redis'].image).toMatch(/^redis:\d/);
    expect(s['redis'].command).toEqual(['redis-server', '--appendonly', 'yes']);
    expect(s['redis'].healthcheck.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(s['replica'].depends_on).toEqual({ redis: { condition: 'service_healthy' } });
    expect(s['replica'].environment.CALLREC_REDIS).toBe('redis://redis:6379');
    expect(s['app'].depends_on).toEqual({ emulator: { condition: 'service_healthy' } });
    expect(s['proxy'].depends_on).toEqual({ replica: { condition: 'service_healthy' } });
    expect(s['replica'].deploy.replicas).toBeGreaterThanOrEqual(2);
    // Each service that runs the image can build it: `up` on a fresh machine needs no prior build.
    expect([s['emulator'].build, s['replica'].build]).toEqual(['.', '.']);
    // The app reaches the admin API by the service's name, which the emulator must answer.
    expect(s['emulator'].environment.CALLREC_ADMIN_HOSTS).toBe('emulator');
  });

  test.each(['emulator', 'replica'])(
    '%s: every variable is a real option; seed, fixtures volume and public URL set; health checked',
    (name) => {
      const svc = s[name];
      for (const key of Object.keys(svc.environment)) expect(OPTION_VARS.has(key)).toBe(true);
      expect(svc.environment.CALLREC_SEED).toBe('compose-demo');
      expect(svc.environment.CALLREC_PUBLIC_URL).toMatch(/^http:\/\//);
      const fixtures = svc.environment.CALLREC_FIXTURES as string;
      const mount = (svc.volumes as string[]).find((v) => fixtures.startsWith(v.split(':')[1]!));
      expect(mount).toBeDefined();
      // The mounted folder holds the file the variable names.
      expect(read(fixtures.replace(mount!.split(':')[1]!, mount!.split(':')[0]!.replace('./', '')))).toContain(
        'accounts',
      );
      expect(svc.healthcheck.test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    },
  );

  test('the emulator publishes the port it listens on; the app reaches it by service name', () => {
    expect(s['emulator'].ports).toEqual([`${s['emulator'].environment.PORT}:${s['emulator'].environment.PORT}`]);
    expect(s['app'].environment.CALLREC_URL).toBe(`http://emulator:${s['emulator'].environment.PORT}`);
    expect(s['emulator'].environment.CALLREC_PUBLIC_URL).toBe(s['app'].environment.CALLREC_URL);
  });

  test('the proxy balances over the replicas on the port it publishes', () => {
    const conf = read('examples/compose-proxy/nginx.conf');
    expect(conf).toContain(`server replica:${s['replica'].environment.PORT};`);
    const [published] = (s['proxy'].ports as string[])[0]!.split(':');
    expect(conf).toContain(`listen ${published};`);
    expect(s['replica'].environment.CALLREC_PUBLIC_URL).toBe(`http://localhost:${published}`);
  });

  test('the app command runs a file that the volume provides', () => {
    const [host, inside] = (s['app'].volumes as string[])[0]!.split(':');
    const script = (s['app'].command as string[])[1]!;
    expect(script.startsWith(inside!)).toBe(true);
    expect(read(`${host!.replace('./', '')}${script.slice(inside!.length)}`)).toContain('next_page_uri');
  });
});

describe('Dockerfile', () => {
  test('builds with npm ci and npm run build, runs production dependencies only', () => {
    // A maintained LTS: Node 20 is past its end of life.
    expect(dockerfile).toMatch(/FROM node:24\S* AS build[\s\S]*RUN npm ci --ignore-scripts[\s\S]*RUN npm run build/);
    expect(dockerfile).toMatch(/FROM node:24\S* AS run[\s\S]*RUN npm ci --omit=dev/);
    // The build compiles beside dist/ and swaps it in (with node, which the image has): its script is copied first.
    expect(pkg.scripts['build']).toBe('node scripts/build.js');
    expect(dockerfile).toMatch(/COPY scripts\/build\.js \.\/scripts\/[\s\S]*RUN npm run build/);
    expect(read('scripts/build.js')).toContain("'tsconfig.build.json'");
  });

  test('starts the same command as npm start and the bin, on all interfaces, as a non-root user', () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    // npm start execs the same command (so npm's SIGTERM reaches the server).
    expect(`exec ${cmd.slice(0, 2).join(' ')}`).toBe(pkg.scripts['start']);
    expect(cmd[1]).toBe(pkg.bin['callrec-emulator']);
    expect(cmd.slice(2)).toEqual(['--host', '0.0.0.0']);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^EXPOSE 8080$/m);
    expect(dockerfile).toMatch(/PORT=8080/);
  });

  test('copies what the package ships', () => {
    for (const f of pkg.files.filter((x) => x.startsWith('fixtures/') || x.startsWith('ui/')))
      expect(dockerfile).toContain(f);
    expect(dockerfile).toContain('COPY --from=build /app/dist ./dist');
  });

  test('the health check is the compose one, and really tells up from down', async () => {
    const check = JSON.parse(/CMD (\["node", "-e", .*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(compose.services['emulator'].healthcheck.test.slice(1)).toEqual(check);
    const { startCli } = await import('../support/process');
    const em = await startCli([]);
    const port = new URL(em.url).port;
    const run = (p: string) =>
      promisify(execFile)(process.execPath, check.slice(1), { env: { PORT: p } }).then(
        () => 0,
        (e: { code: number }) => e.code,
      );
    try {
      expect(await run(port)).toBe(0);
    } finally {
      await em.stop();
    }
    expect(await run(port)).toBe(1);
  });
});
