#!/usr/bin/env node
import { ConfigError, loadConfig, type Config } from './config';
import { callsListPath } from './format/uris';
import { serve, type RunningEmulator } from './server';
import { FixtureError } from './store/fixtures';

/** The start-up text: where it listens, the accounts and their tokens, one curl to paste. */
export function banner(em: RunningEmulator, config: Readonly<Config>): string {
  const rows = em.world.accounts().map((a) => [a.profile.sid, a.profile.token, String(a.calls.count), String(a.recordings.count), a.profile.friendlyName]);
  const head = ['account sid', 'token (Basic user name)', 'calls', 'recordings', 'name'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ')}`.trimEnd();
  const first = em.world.accounts().find((a) => a.calls.count > 0) ?? em.world.accounts()[0];
  const lines = [
    `callrec-emulator listening on ${em.url} (seed ${JSON.stringify(config.seed)}, paging ${config.paging}, fixtures ${config.fixturesPath})`,
    line(head),
    ...rows.map(line),
  ];
  if (first !== undefined) {
    lines.push(`Try: curl -u ${first.profile.token}: ${em.url}${callsListPath(first.profile.sid)}`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  let config: Readonly<Config>;
  try {
    const loaded = loadConfig(process.argv.slice(2));
    if (loaded.kind === 'help') {
      process.stdout.write(loaded.text);
      return;
    }
    config = loaded.config;
  } catch (err) {
    if (err instanceof ConfigError || err instanceof FixtureError) {
      process.stderr.write(`callrec-emulator: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
  let em: RunningEmulator;
  try {
    em = await serve(config);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e instanceof FixtureError) {
      process.stderr.write(`callrec-emulator: ${config.fixturesPath}: ${e.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`callrec-emulator: cannot listen on ${config.host}:${config.port} (${e.code ?? e.message})\n`);
    process.exitCode = 1;
    return;
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`callrec-emulator: ${signal}, stopping\n`);
    void em.close().then(() => {
      process.exitCode = 0;
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const loopback = /^(127\.|::1$|localhost$)/.test(config.host);
  if (!loopback && config.adminToken === null) {
    process.stderr.write(
      `callrec-emulator: warning: listening on ${config.host} with an open admin API; anyone who reaches it can change or wipe the data (set --admin-token)\n`,
    );
  }
  // Printed last: whoever waits for this line (a test runner, a script) may signal at once.
  process.stdout.write(banner(em, config));
}

void main();
