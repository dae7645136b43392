import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type EmulatorApp } from './app';
import type { Config } from './config';
import { ValidationError } from './errors';
import { answerNodeErrors, capConnections, HEADERS_TIMEOUT_MS } from './http/connections';
import { loadInputs, loadUi } from './load';
import { createLogger } from './logger';
import { World } from './store/world';

export interface RunningEmulator {
  /** The request listener, with its journal and faults. */
  app: EmulatorApp;
  /** Where it listens, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Base of `file_uri`. */
  publicUrl: string;
  /** Where the accounts came from: a fixtures file, or `options.fixtures`. */
  fixturesLabel: string;
  world: World;
  server: Server;
  /** Stops accepting, lets requests in flight finish for up to `graceMs`, then closes the rest. */
  close(graceMs?: number): Promise<void>;
}

/** The URL a client on this machine would use: a wildcard address is reachable as localhost. */
function listeningUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/**
 * Reads the config's files, builds the world and listens. Throws a ValidationError (naming the
 * file) for unusable input, and the listen error otherwise. The app is made once the port is
 * known, because with `--port 0` the default public URL (and so every `file_uri`) depends on it.
 */
export async function serve(config: Readonly<Config>): Promise<RunningEmulator> {
  const inputs = loadInputs(config);
  let world: World;
  try {
    world = new World({ seed: config.seed, clockMs: config.clockMs, accounts: inputs.accounts });
    // Opt-in, for a local stand-in: the one place the wall clock can move data.
    if (config.clockRate !== null) world.followWall(config.clockRate, () => Date.now());
  } catch (err) {
    // Two accounts the seed gives the same sid or token: a problem of the fixtures file.
    if (err instanceof ValidationError) throw new ValidationError(`${inputs.fixturesLabel}: ${err.path}`, err.problem);
    throw err;
  }
  // Checked every second, so that a connection past its header timeout goes within a second.
  const server = createServer({ connectionsCheckingInterval: 1000, headersTimeout: HEADERS_TIMEOUT_MS });
  answerNodeErrors(server);
  capConnections(server, config.maxConnections);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = listeningUrl(config.host, port);
  const publicUrl = config.publicUrl ?? url;
  const started = process.uptime();
  const app = createApp({
    world,
    paging: config.paging,
    dialect: config.dialect,
    maxPageSize: config.maxPageSize,
    publicUrl,
    journalSize: config.journalSize,
    strict: config.strict,
    serverZone: config.serverZone,
    adminToken: config.adminToken,
    // The listening address is this machine's too (a wildcard one is not a name a client sends).
    adminHosts: ['0.0.0.0', '::'].includes(config.host) ? config.adminHosts : [...config.adminHosts, config.host],
    states: inputs.states,
    ui: loadUi(),
    restcommConsole: config.restcommConsole,
    cors: config.cors,
    logger: createLogger(config.logLevel, process.stdout.isTTY === true),
    cache: { itemBytes: (config.cacheMb * 2 ** 20) / 3, responseBytes: (config.cacheMb * 2 ** 20 * 2) / 3 },
    uptime: () => process.uptime() - started,
  });
  server.on('request', app);
  const close = (graceMs = 2000): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeIdleConnections();
    });
  return { app, url, publicUrl, fixturesLabel: inputs.fixturesLabel, world, server, close };
}
