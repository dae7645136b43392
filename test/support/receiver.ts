import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a receiver got: method, path with query, headers and body, in arrival order. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A node:http receiver on a free loopback port; `behave` answers (200 "OK", no Date, by default). */
export async function receiver(
  behave?: Behaviour,
): Promise<{ url: string; got: Received[]; close: () => Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      got.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.sendDate = false;
      if (behave === undefined) res.end('OK');
      else behave(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    got,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a receiver's callbacks said: each one's `CallStatus`, in arrival order. */
export function statusesOf(got: readonly Received[]): (string | null)[] {
  return got.map((g) => new URLSearchParams(g.body).get('CallStatus'));
}
