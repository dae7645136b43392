#!/usr/bin/env node
import cluster from 'node:cluster';
import { banner } from './banner';
import { type Config, loadConfig } from './config';
import { ValidationError } from './errors';
import { loadInputs } from './load';
import { type RunningEmulator, serve } from './server';

/** Whether this process is a worker of `--workers`. */
const isWorker = () => cluster.isWorker;

/** The cluster's side, loaded only with --workers: a single emulator's start-up needs none of it. */
const fleet = () => require('./fleet/cluster') as typeof import('./fleet/cluster');

/** Exit codes: 2 for unusable options or files, 1 when the port cannot be had. */
function fail(message: string, code: number): void {
  process.stderr.write(`callrec-emulator: ${message}\n`);
  process.exitCode = code;
  // A worker of --workers: the channel to the primary would keep it alive; the primary sees the code.
  if (isWorker() && process.connected) process.disconnect();
}

async function main(): Promise<void> {
  let config: Readonly<Config>;
  let em: RunningEmulator;
  try {
    const loaded = loadConfig(process.argv.slice(2));
    if (loaded.kind !== 'config') {
      process.stdout.write(loaded.text);
      return;
    }
    config = loaded.config;
  } catch (err) {
    if (err instanceof ValidationError) return fail(err.message, 2);
    throw err;
  }
  const worker = isWorker();
  if (config.workers > 1 && !worker) {
    try {
      // Unusable files fail here, once, rather than in every worker.
      loadInputs(config);
    } catch (err) {
      if (err instanceof ValidationError) return fail(err.message, 2);
      throw err;
    }
    warnIfOpen(config);
    // --workers: this process forks the workers, orders the write log and prints their banner.
    process.exitCode = await fleet().runPrimary(config.workers, config.redis === null, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      now: () => Date.now(),
    });
    return;
  }
  try {
    em = await serve(config, { clusterWorker: worker && config.redis === null });
  } catch (err) {
    if (err instanceof ValidationError) return fail(err.message, 2);
    const e = err as NodeJS.ErrnoException & { port?: number };
    // The port that failed: the interception proxy's, or the emulator's own.
    const proxy = config.intercept !== null && config.intercept !== 0 && e.port === config.intercept;
    const [port, flagName, env] = proxy
      ? [config.intercept, '--intercept', 'CALLREC_INTERCEPT']
      : [config.port, '--port', 'PORT'];
    // The usual cause, said with its way out: another emulator (or app) already has the port.
    const hint =
      e.code === 'EADDRINUSE'
        ? `: port ${port} is in use; pick another with ${flagName} N (or ${env}=N), or ${flagName} 0 for any free one`
        : '';
    return fail(`cannot listen on ${config.host}:${port} (${e.code ?? e.message})${hint}`, 1);
  }
  if (worker) {
    fleet().serveAsWorker(banner(em, config), () => em.close());
    return;
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`callrec-emulator: ${signal}, stopping\n`);
    // The grace (2 s) and the closing of the log's connections, then whatever still holds the
    // event loop (a receiver, a Redis that does not answer its QUIT) does not hold the stop.
    setTimeout(() => process.exit(0), 5000).unref();
    void em.close().then(() => {
      process.exitCode = 0;
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  warnIfOpen(config);
  // Printed last: whoever waits for this line (a test runner, a script) may signal at once.
  process.stdout.write(banner(em, config));
}

function warnIfOpen(config: Readonly<Config>): void {
  const loopback = /^(127\.|::1$|localhost$)/.test(config.host);
  if (!loopback && config.adminToken === null) {
    process.stderr.write(
      `callrec-emulator: warning: listening on ${config.host} with an open admin API; anyone who reaches it can change or wipe the data (set --admin-token)\n`,
    );
  }
}

void main();
