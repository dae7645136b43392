import { request as httpRequest } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';

/** What a proxy answered a CONNECT with, and the socket (open when it said 200). */
export interface Tunnel {
  status: number;
  /** The proxy's answer, head and any body, as sent. */
  answer: string;
  socket: Socket;
}

/** Sends `CONNECT authority` to the proxy and resolves with its answer's head (and body, for a refusal). */
export function connectThrough(proxyUrl: string, authority: string): Promise<Tunnel> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(port), hostname, () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
    );
    let got = '';
    const onData = (d: Buffer) => {
      got += d.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = Number(got.slice(9, 12));
      if (status === 200) {
        socket.off('data', onData);
        resolve({ status, answer: got, socket });
      }
    };
    socket.on('data', onData);
    socket.on('end', () => resolve({ status: Number(got.slice(9, 12)), answer: got, socket }));
    socket.on('error', reject);
  });
}

/** TLS over an open tunnel, as a client that asks for `host` and trusts `ca` (or only the system's). */
export function tlsOver(socket: Socket, host: string, ca?: string): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({ socket, servername: host, ...(ca === undefined ? {} : { ca }) }, () => resolve(tls));
    tls.once('error', reject);
  });
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP/1.1 request on an open (TLS) connection; resolves with the answer. */
export function requestOn(
  socket: Socket,
  host: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host, path, method, headers: { host, ...headers }, createConnection: () => socket },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A whole HTTPS GET for `https://host{path}` through the proxy, trusting `ca`. */
export async function getThrough(
  proxyUrl: string,
  host: string,
  path: string,
  ca: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const tunnel = await connectThrough(proxyUrl, `${host}:443`);
  if (tunnel.status !== 200) throw new Error(`CONNECT ${host}: ${tunnel.answer}`);
  const tls = await tlsOver(tunnel.socket, host, ca);
  try {
    return await requestOn(tls, host, path, headers);
  } finally {
    tls.destroy();
  }
}

/** A plain proxy request: an absolute URL sent to the proxy itself. */
export function getViaProxy(proxyUrl: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port: Number(port), path: url, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Basic credentials. */
export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
