import { accountView } from './admin/account-view';
import { type AccountView, connect, type EmulatorClient } from './client';
import { type Config, configFromOptions } from './config';
import { ValidationError } from './errors';
import { interceptEnv } from './intercept/client-env';
import { type RunningEmulator, serve } from './server';

/** Options of an in-process emulator: the CLI's options, with fixtures as a file or as data. */
export interface EmulatorOptions {
  /** Default 0: any free port. */
  port?: number;
  host?: string;
  seed?: string;
  /** A fixtures file, or the fixtures themselves: `{accounts: [{friendly_name, calls, recordings, token?, sid?}]}`. */
  fixtures?: string | { accounts: unknown[] };
  paging?: 'production' | 'documented';
  /** `restcomm`: clients written for a plain Restcomm Connect work unchanged (see docs/clients.md); `twilio`: Twilio's helper libraries (docs/twilio.md). */
  dialect?: 'spec' | 'restcomm' | 'twilio';
  publicUrl?: string;
  /** ISO 8601 with a zone. */
  clock?: string;
  /** The clock follows wall time at this rate (not deterministic; see docs/clock.md). */
  clockRate?: number;
  maxPageSize?: number;
  cacheMb?: number;
  journalSize?: number;
  strict?: boolean;
  /** The server's time zone, in which StartTime and EndTime name days (default UTC). */
  serverZone?: string;
  adminToken?: string;
  /** Host names besides loopback ones that /__admin answers. */
  adminHosts?: string[];
  /** Default `silent` in-process (the CLI's default is `warn`). */
  logLevel?: 'silent' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  cors?: boolean;
  maxConnections?: number;
  /** A provider states file. */
  states?: string;
  /** Restcomm's admin console (its webapp folder), served at /restcomm-management/ (dialect restcomm). */
  restcommConsole?: string;
  /** Hosts besides loopback that status callbacks may go to (`*.example.com` for sub-domains). */
  callbackHosts?: string[];
  /** A status callback's connect and read timeout, ms (default 6000, production's). */
  callbackTimeoutMs?: number;
  /** A clock move answers before its status callbacks are delivered. */
  callbacksInBackground?: boolean;
  /** An HTTPS proxy answering for the provider's hosts on this port (0: any free one); see docs/intercept.md. */
  intercept?: number;
  /** With `dialect: 'restcomm'`: the deployment's host names the proxy answers for. */
  interceptHosts?: string[];
  /** Where the interception CA is kept (default ~/.callrec-emulator/ca). */
  caDir?: string;
}

/** The interception proxy of an in-process emulator, and what a client sets to go through it. */
export interface InterceptView {
  /** The proxy, e.g. http://127.0.0.1:40125. */
  url: string;
  /** The CA's certificate (PEM) and Java trust store (JKS, password `changeit`). */
  certFile: string;
  javaTrustStoreFile: string;
  /** The environment for every client family at once (see docs/intercept.md). */
  env: Record<string, string>;
}

/** A running emulator, for test runners: the admin client, with the accounts at hand and a way to stop. */
export interface EmulatorHandle extends Omit<EmulatorClient, 'accounts'> {
  /** The accounts now, with their tokens (read in-process, at once). */
  readonly accounts: AccountView[];
  /** The interception proxy, when `intercept` is set. */
  readonly intercept?: InterceptView;
  /** Stops listening; requests in flight get up to `graceMs` to finish. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts an emulator in this process, on a free port unless told otherwise, and resolves once it
 * listens. Options are validated as the CLI's are (the environment is not read); a bad one
 * rejects with its message.
 * @example const em = await startEmulator({ seed: 'ci' }); … await em.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  let em: RunningEmulator;
  let config: Readonly<Config>;
  try {
    config = configFromOptions({ ...options });
    em = await serve(config);
  } catch (err) {
    if (err instanceof ValidationError) throw new Error(`callrec-emulator: ${err.message}`);
    throw err;
  }
  const client = connect(em.url, config.adminToken === null ? {} : { adminToken: config.adminToken });
  const proxy = em.intercept;
  return {
    ...client,
    ...(proxy === undefined
      ? {}
      : {
          intercept: {
            url: proxy.url,
            certFile: proxy.certFile,
            javaTrustStoreFile: proxy.javaTrustStoreFile,
            env: interceptEnv(proxy),
          },
        }),
    get accounts() {
      return em.world.accounts().map(accountView);
    },
    close: (graceMs) => em.close(graceMs),
  };
}
