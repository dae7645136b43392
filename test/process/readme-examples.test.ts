import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docsText } from '../support/docs';
import { adminAccounts, ROOT, runCommand, type Spawned, startCli } from '../support/process';

/**
 * The shell examples of README and docs/, run as a reader would: in the order printed, against
 * one emulator on the default data, each block under `set -euo pipefail` with every curl made to
 * fail on a 4xx or 5xx, but a curl whose comment names the status it answers (`# 503`), which
 * must answer exactly that. A block that starts with `npm start -- <options>` gets its own
 * emulator so started. Blocks that install, clone, test, or need Docker are not examples of the
 * running emulator.
 */
const readme = docsText();
const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const examples = blocks.filter((b) => b.includes('127.0.0.1:8080') && !/docker|npm (install|test)|git clone/.test(b));

/** Every curl leaves its command line and its body in the log, and fails the block on an error status. */
const PRELUDE = `set -euo pipefail
curl() {
  printf '\\n### curl %s\\n' "$*" >> "$LOG"
  if [ -z "\${WANT:-}" ]; then command curl -sS -f "$@" | tee -a "$LOG"; return; fi
  local code
  code=$(command curl -sS -o "$LOG.body" -w '%{http_code}' "$@")
  cat "$LOG.body" >> "$LOG"
  [ "$code" = "$WANT" ] || { echo "curl $*: answered $code, not $WANT" >&2; return 1; }
}
`;

/** A curl line whose comment names a status (`curl … # 503`) runs with WANT set to it. */
const withWanted = (block: string) => block.replace(/^(\s*)(curl .*?)\s+# (\d{3})$/gm, '$1WANT=$3 $2');

/** The log's sections: the curl command line, then what it printed. */
function sections(log: string): { command: string; body: string }[] {
  return log
    .split('\n### curl ')
    .slice(1)
    .map((s) => {
      const nl = s.indexOf('\n');
      return { command: s.slice(0, nl), body: s.slice(nl + 1) };
    });
}

describe('README examples', () => {
  let em: Spawned;
  let dir: string;
  beforeAll(async () => {
    em = await startCli([]);
    dir = mkdtempSync(join(tmpdir(), 'readme-'));
  });
  afterAll(async () => {
    await em.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('there are examples to run: the API, the admin API, the Restcomm dialect', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  test('every shell example runs, in order, and leaves the default data as it found it', async () => {
    const before = await adminAccounts(em.url);
    const log = join(dir, 'curl.log');
    for (const block of examples) {
      const [first, ...rest] = block.split('\n');
      const own = /^npm start -- (.*)$/.exec(first ?? '');
      // An example's interception proxy and CA folder: any free port, and a folder of this run.
      const options = own?.[1] ?? '';
      const proxyPort = /--intercept (\d+)/.exec(options)?.[1];
      const caDir = /--ca-dir (\S+)/.exec(options)?.[1];
      const ownCa = join(dir, 'ca');
      const started = options.replace(/--intercept \d+/, '--intercept 0').replace(/--ca-dir \S+/, `--ca-dir ${ownCa}`);
      const target = own === null ? em : await startCli(started.split(' '));
      try {
        let body = withWanted(own === null ? block : rest.join('\n')).replaceAll('http://127.0.0.1:8080', target.url);
        if (proxyPort !== undefined) {
          const proxy = /^Intercepting .* at (http:\S+) /m.exec(target.stdout())?.[1] as string;
          body = body.replaceAll(`http://127.0.0.1:${proxyPort}`, proxy);
        }
        if (caDir !== undefined) body = body.replaceAll(caDir, ownCa);
        const script = PRELUDE + body;
        const run = await runCommand('bash', ['-c', script], { LOG: log }, dir);
        expect([run.code, run.out]).toEqual([0, expect.anything()]);
      } finally {
        if (target !== em) await target.stop();
      }
    }
    const ran = sections(readFileSync(log, 'utf8'));
    // Each example's curl ran (a block stops at its first failure, so all of them got 2xx).
    const printed = examples.join('\n').match(/(^|[ ($])curl /gm) ?? [];
    expect(ran.length).toBe(printed.length);
    // Every count an example states in its comment (`# 10 calls`) is what it answered.
    const text = examples.join('\n');
    // Each curl as the count above finds them, with the rest of its line.
    const curls = [...text.matchAll(/(^|[ ($])curl /gm)].map((m) => text.slice(m.index).split('\n')[0] as string);
    const stated = curls.flatMap((line, i) => {
      const m = /# (\d+) (calls|recordings|notifications)\b/.exec(line);
      return m === null ? [] : [{ i, count: Number(m[1]) }];
    });
    expect(stated.length).toBeGreaterThanOrEqual(2);
    for (const { i, count } of stated) {
      const found = JSON.parse(ran[i]!.body) as { total: number };
      expect([ran[i]!.command, found.total]).toEqual([ran[i]!.command, count]);
    }
    // The /seed example, and every write, is undone by what follows it.
    expect(await adminAccounts(em.url)).toEqual(before);
  });

  test('the callbacks example creates a call, gets its four callbacks on the clock and lists it completed', async () => {
    const run = await runCommand(
      'npx',
      ['--no-install', 'ts-node', 'examples/client/call-with-callbacks.ts', em.url],
      { npm_config_offline: 'true' },
      ROOT,
    );
    expect(run.code).toBe(0);
    const states = [...run.out.matchAll(/^callback (\d) (\w+) at /gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(states).toEqual(['0 initiated', '1 ringing', '2 answered', '3 completed']);
    const created = /^created (\S+): QUEUED$/m.exec(run.out)?.[1];
    expect(run.out).toMatch(new RegExp(`^listed ${created}: completed, \\d+ s$`, 'm'));
  });

  test("README's page walk runs as printed and counts every call of the account", async () => {
    const walk = /```js\n(\/\/ walk\.mjs[\s\S]*?)```/.exec(readme)?.[1];
    expect(walk).toContain("next_page_uri === 'null'");
    const file = join(dir, 'walk.mjs');
    writeFileSync(file, (walk as string).replaceAll('http://127.0.0.1:8080', em.url));
    const run = await runCommand(process.execPath, [file], {}, dir);
    expect([run.code, run.out.trim()]).toEqual([0, '448 calls']);
    expect(walk).toContain('// 448 calls');
  });

  test('the TypeScript example runs with the project ts-node, downloading nothing', async () => {
    const [a] = await adminAccounts(em.url);
    const run = await runCommand(
      'npx',
      ['--no-install', 'ts-node', 'examples/client/walk-calls.ts', em.url, a!.sid, a!.token],
      { npm_config_offline: 'true' },
      ROOT,
    );
    expect(run.code).toBe(0);
    expect(run.out).toContain(`total ${a!.calls}`);
  });
});
