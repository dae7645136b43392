import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { messages } from '../errors';
import { errorBody } from '../format/envelope';
import { guardedServer, HEADERS_TIMEOUT_MS, listenOn, rawAnswer } from '../http/connections';
import type { Journal } from '../journal/journal';
import type { LeafMint } from './ca';
import { connectTarget, type HostRule, hostOf, isAddress } from './hosts';

/**
 * The interception proxy (`--intercept PORT`): clients that hard-code the provider's host reach
 * the emulator through it. A CONNECT for one of the provider's hosts is answered here: TLS ends
 * in this process, with a certificate for that host from the local CA, and the decrypted
 * connection is handed to the emulator's own server, which serves it as any connection it took
 * (its limits, timeouts, journal). A plain proxy request (absolute URL) for the same hosts is
 * served as well. Nothing is ever forwarded: this module opens no connection of its own.
 */
export interface InterceptOptions {
  port: number;
  host: string;
  rule: HostRule;
  mint: LeafMint;
  /** The emulator's server, which a tunnel's decrypted connection is handed to. */
  server: Server;
  /** The emulator's request listener, for plain proxy requests (their URL made origin-form). */
  serve: (req: IncomingMessage, res: ServerResponse) => void;
  /** Where refusals are written, naming the host. */
  journal: Journal;
  maxConnections: number;
  /** The emulator's own URL, for the answer to a request that was not a proxy's. */
  emulatorUrl: string;
  /** The wall clock, for the journal's entries (never shapes data). */
  now?: () => number;
}

export interface RunningIntercept {
  /** The proxy's URL, e.g. http://127.0.0.1:8443. */
  url: string;
  /** Stops listening and drops tunnels still waiting for their handshake. */
  close(): Promise<void>;
}

/** A tunnel's TLS handshake must end within this, as a request's headers must. */
const HANDSHAKE_MS = HEADERS_TIMEOUT_MS;

/**
 * Why a host is refused, or null when the proxy answers for it: an address is refused with its
 * own words, since a certificate names a host and a client that knows the provider asks by name.
 */
function refusal(host: string, rule: HostRule): string | null {
  if (isAddress(host)) return messages.interceptAddress(host);
  return rule.answers(host) ? null : messages.interceptRefused(host);
}

/** Listens on loopback and answers for the provider's hosts; resolves once it listens. */
export async function startIntercept(o: InterceptOptions): Promise<RunningIntercept> {
  const now = o.now ?? Date.now;
  const pending = new Set<Socket>();
  const { server: proxy, handedOn } = guardedServer(o.maxConnections);

  /** A refusal is journaled like any answer, under the method and the host asked for. */
  const journalRefusal = (method: string, target: string, status: number, message: string, arrivedMs: number) =>
    o.journal.add({
      method,
      path: target,
      query: '',
      account: null,
      status,
      duration_ms: now() - arrivedMs,
      fault: null,
      arrivedMs,
      warnings: [message],
      body: errorBody(message),
    });

  proxy.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // Node's HTTP side let go of the socket: its errors (a client's reset) are ours to catch.
    socket.on('error', () => socket.destroy());
    const arrivedMs = now();
    const authority = req.url ?? '';
    const refuse = (message: string) => {
      journalRefusal('CONNECT', authority, 403, message, arrivedMs);
      rawAnswer(socket, 403, 'Forbidden', message);
    };
    const target = connectTarget(authority);
    if (target === null) return refuse(messages.interceptRefused(authority));
    const why = refusal(target.host, o.rule);
    if (why !== null) return refuse(why);
    tunnel(socket, head, target.host);
  });

  /** Ends TLS for `host` on the socket, then hands the decrypted connection to the emulator. */
  const tunnel = (socket: Socket, head: Buffer, host: string) => {
    pending.add(socket);
    const timer = setTimeout(() => socket.destroy(), HANDSHAKE_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      pending.delete(socket);
    });
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    const tls = new TLSSocket(socket, {
      isServer: true,
      secureContext: o.mint.contextFor(host),
      ALPNProtocols: ['http/1.1'],
    });
    // A client that does not trust the CA aborts the handshake: its socket goes, nothing is answered.
    tls.on('error', () => tls.destroy());
    tls.once('secure', () => {
      clearTimeout(timer);
      pending.delete(socket);
      handedOn(socket);
      o.server.emit('connection', tls);
    });
  };

  proxy.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const arrivedMs = now();
    const raw = req.url ?? '';
    let url: URL | null = null;
    if (/^https?:\/\//i.test(raw)) {
      try {
        url = new URL(raw);
      } catch {
        // Answered below as not a proxy's request.
      }
    }
    if (url === null) {
      answer(res, 400, messages.interceptNotProxied(o.emulatorUrl));
      return;
    }
    const why = refusal(hostOf(url.hostname), o.rule);
    if (why !== null) {
      journalRefusal(req.method ?? 'GET', url.host, 403, why, arrivedMs);
      answer(res, 403, why);
      return;
    }
    // The emulator reads the path as a server reads it; the proxy's own header is not the API's.
    req.url = `${url.pathname}${url.search}`;
    delete req.headers['proxy-connection'];
    delete req.headers['proxy-authorization'];
    o.serve(req, res);
  });

  const url = await listenOn(proxy, o.port, o.host);
  // A CONNECT inside a tunnel (or sent to the emulator's own port) reaches the emulator's server.
  o.server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    rawAnswer(socket, 405, 'Method Not Allowed', messages.interceptNested(url));
  });
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        for (const s of pending) s.destroy();
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      }),
  };
}

function answer(res: ServerResponse, status: number, message: string): void {
  const body = errorBody(message);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
