import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Journal } from '../journal/journal';
import { LeafMint, loadCa } from './ca';
import type { InterceptPlace } from './client-env';
import { hostRule } from './hosts';
import { type RunningIntercept, startIntercept } from './proxy';

/** What `--intercept` needs of the running emulator. */
export interface InterceptSettings {
  port: number;
  host: string;
  dialect: 'twilio' | 'restcomm';
  /** A Restcomm deployment's host names. */
  hosts: readonly string[];
  caDir: string;
  maxConnections: number;
  server: Server;
  serve: (req: IncomingMessage, res: ServerResponse) => void;
  journal: Journal;
  emulatorUrl: string;
}

/** A running proxy, where it is, and what it answers for. */
export interface Intercepting extends RunningIntercept, InterceptPlace {
  /** The hosts it answers for, as the banner names them. */
  hosts: string;
}

/**
 * Loads (or makes) the CA in `caDir` and starts the proxy for the dialect's provider hosts.
 * Throws a ValidationError naming `--ca-dir` when its CA cannot serve them.
 */
export async function intercept(s: InterceptSettings): Promise<Intercepting> {
  const rule = hostRule(s.dialect, s.hosts);
  // The wall clock dates certificates only: they never shape data.
  const ca = loadCa(s.caDir, rule.caNames, Date.now());
  const running = await startIntercept({
    port: s.port,
    host: s.host,
    rule,
    mint: new LeafMint(ca, Date.now),
    server: s.server,
    serve: s.serve,
    journal: s.journal,
    maxConnections: s.maxConnections,
    emulatorUrl: s.emulatorUrl,
  });
  return {
    ...running,
    proxyUrl: running.url,
    certFile: ca.certFile,
    javaTrustStoreFile: ca.javaTrustStoreFile,
    hosts: rule.shown,
  };
}
