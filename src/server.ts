import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { LogTransport } from './admin/log-transport';
import { localTransport } from './admin/write-log';
import { createApp, type EmulatorApp } from './app';
import type { Config } from './config';
import { ValidationError } from './errors';
import { genesisOf } from './fleet/genesis';
import { guardedServer, listenOn } from './http/connections';
import type { DumpReport } from './input/restcomm-dump';
import type { Intercepting } from './intercept/start';
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
  /** What `--data` loaded, where it was given. */
  data?: DumpReport;
  world: World;
  server: Server;
  /** The interception proxy (`--intercept`), when on. */
  intercept?: Intercepting;
  /** Stops accepting, lets requests in flight finish for up to `graceMs`, then closes the rest. */
  close(graceMs?: number): Promise<void>;
}

export interface ServeOptions {
  /** This process is a worker of `--workers` (cli.ts): the write log is the primary's. */
  clusterWorker?: boolean;
}

/** How often a running clock (--clock-rate) is brought up to wall time for status callbacks. */
const PUMP_MS = 250;

/**
 * Reads the config's files, builds the world and listens. Throws a ValidationError (naming the
 * file) for unusable input, and the listen error otherwise. The app is made once the port is
 * known, because with `--port 0` the default public URL (and so every `file_uri`) depends on it.
 */
export async function serve(config: Readonly<Config>, fleet: ServeOptions = {}): Promise<RunningEmulator> {
  const inputs = loadInputs(config);
  const replica = `${hostname()}:${process.pid}`;
  // Where the write log is: Redis (many replicas), the primary (--workers), or this process.
  // The Redis client is loaded only when asked for: it is a sixth of a start-up otherwise.
  const transport: LogTransport =
    config.redis !== null
      ? await (await import('./fleet/redis-log')).redisTransport(
          config.redis,
          genesisOf(config, inputs, Date.now()),
          replica,
        )
      : fleet.clusterWorker === true
        ? await (await import('./fleet/cluster')).workerTransport(replica)
        : localTransport();
  try {
    return await serveOn(config, inputs, replica, transport);
  } catch (err) {
    // A start that fails after Redis was reached must not leave its connections holding the process.
    await transport.close().catch(() => undefined);
    throw err;
  }
}

async function serveOn(
  config: Readonly<Config>,
  inputs: ReturnType<typeof loadInputs>,
  replica: string,
  transport: LogTransport,
): Promise<RunningEmulator> {
  let log: EmulatorApp['log'] | undefined;
  let world: World;
  try {
    world = new World({ seed: config.seed, clockMs: config.clockMs, accounts: inputs.accounts });
    // Opt-in, for a local stand-in: the one place the wall clock can move data. A clock move
    // the log applies anchors at the wall time of its entry, so every replica anchors alike.
    if (config.clockRate !== null) {
      const wall = () => log?.applyingWallMs ?? Date.now();
      world.followWall(config.clockRate, wall, transport.genesisWallMs ?? Date.now());
    }
  } catch (err) {
    // Two accounts the seed gives the same sid or token: a problem of the fixtures file.
    if (err instanceof ValidationError) throw new ValidationError(`${inputs.fixturesLabel}: ${err.path}`, err.problem);
    throw err;
  }
  const { server } = guardedServer(config.maxConnections);
  const url = await listenOn(server, config.port, config.host);
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
    // A quarter for items, a quarter for runs (orders of small accounts, joined), half for responses.
    cache: {
      itemBytes: (config.cacheMb * 2 ** 20) / 4,
      runBytes: (config.cacheMb * 2 ** 20) / 4,
      responseBytes: (config.cacheMb * 2 ** 20) / 2,
    },
    uptime: () => process.uptime() - started,
    log: transport,
    replica,
    checkpointEvery: config.checkpointEvery,
    callbackHosts: config.callbackHosts,
    callbackTimeoutMs: config.callbackTimeoutMs,
    callbacksInBackground: config.callbacksInBackground,
  });
  log = app.log;
  app.log.onHalt = (reason) => process.stderr.write(`callrec-emulator: ${reason}\n`);
  // A replica answers once it has applied the log as it found it: requests that come sooner wait.
  let caughtUp = false;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (caughtUp) app(req, res);
    else void app.log.ready.then(() => app(req, res));
  });
  try {
    await app.log.ready;
  } catch (err) {
    server.close();
    throw err;
  }
  caughtUp = true;
  let proxy: Intercepting | undefined;
  if (config.intercept !== null && config.dialect !== 'spec') {
    try {
      // Loaded only when asked for: certificates and their schemas are no part of a plain start.
      proxy = await (await import('./intercept/start')).intercept({
        port: config.intercept,
        host: config.host,
        dialect: config.dialect,
        hosts: config.interceptHosts,
        caDir: config.caDir,
        maxConnections: config.maxConnections,
        server,
        serve: (req, res) => server.emit('request', req, res),
        journal: app.journal,
        emulatorUrl: url,
      });
    } catch (err) {
      server.close();
      throw err;
    }
  }
  // Express loads when a request first needs it, or once the first answer has gone: a client's
  // first page is served by the list lane without waiting for it, and the rest soon after. A
  // load that fails is tried again, and reported, by the request that needs it.
  server.once('request', (_req: IncomingMessage, res: ServerResponse) =>
    res.once('close', () => setImmediate(() => app.warm().catch(() => undefined))),
  );
  // --clock-rate: status callbacks follow the running clock, a tick every quarter second.
  const pump = config.clockRate === null ? null : setInterval(() => app.pumpCallbacks(), PUMP_MS);
  pump?.unref();
  const close = (graceMs = 2000): Promise<void> =>
    new Promise((resolve) => {
      if (pump !== null) clearInterval(pump);
      void proxy?.close();
      // Past the grace, requests still open (a clock move waiting on a slow receiver) are cut, and
      // so are the callbacks they wait for: nothing a receiver does can hold a stop.
      const timer = setTimeout(() => {
        app.closeCallbacks();
        server.closeAllConnections();
      }, graceMs);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        app.closeCallbacks();
        void transport.close().then(resolve);
      });
      server.closeIdleConnections();
    });
  return {
    app,
    url,
    publicUrl,
    fixturesLabel: inputs.fixturesLabel,
    ...(inputs.data === undefined ? {} : { data: inputs.data }),
    world,
    server,
    ...(proxy === undefined ? {} : { intercept: proxy }),
    close,
  };
}
