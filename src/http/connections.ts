import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { messages } from '../errors';
import { errorBody } from '../format/envelope';

/** Headers must arrive within this: a slow-header client (slowloris) holds its socket no longer. */
export const HEADERS_TIMEOUT_MS = 10_000;

/** A whole response written on a socket node has given up on, or took from HTTP (no request object exists). */
export function rawAnswer(socket: Socket, status: number, reason: string, message: string): void {
  const body = errorBody(message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

/**
 * What node answers on its own (malformed requests, headers over 16 KB, headers too slow, an
 * unsupported Expect) is answered in the emulator's `{"message"}` shape instead of node's
 * bare status lines.
 */
export function answerNodeErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_HEADER_OVERFLOW')
      rawAnswer(socket, 431, 'Request Header Fields Too Large', messages.headersTooLarge);
    else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      rawAnswer(socket, 408, 'Request Timeout', messages.requestTimeout);
    else rawAnswer(socket, 400, 'Bad Request', messages.badRequest);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = errorBody(messages.expectation(req.headers.expect ?? ''));
    res.writeHead(417, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    res.end(body);
  });
}

/**
 * At most `max` open connections. When one more arrives, the oldest connection with no request
 * in flight (idle keep-alive, or still sending its headers) is dropped to make room: a flood of
 * slow connections cannot crowd out clients that are being served, and new clients still get in.
 * Only when every connection has a request in flight is the newcomer refused. Returns the way to
 * stop counting a socket the server no longer serves (a proxy's tunnel, handed on).
 */
export function capConnections(server: Server, max: number): (socket: Socket) => void {
  const open = new Set<Socket>();
  const busy = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      busy.delete(socket);
    });
    if (open.size <= max) return;
    for (const s of open) {
      if (!busy.has(s) && s !== socket) {
        s.destroy();
        return;
      }
    }
    socket.destroy();
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    busy.add(req.socket);
    res.once('close', () => busy.delete(req.socket));
  });
  return (socket) => {
    open.delete(socket);
    busy.delete(socket);
  };
}

/**
 * A server with the emulator's guards: header timeout (checked every second, so a connection
 * past it goes within a second), `{"message"}` answers for what node refuses on its own, and at
 * most `maxConnections` open. Returns it with the way to stop counting a socket handed on.
 */
export function guardedServer(maxConnections: number): { server: Server; handedOn: (socket: Socket) => void } {
  const server = createServer({ connectionsCheckingInterval: 1000, headersTimeout: HEADERS_TIMEOUT_MS });
  answerNodeErrors(server);
  return { server, handedOn: capConnections(server, maxConnections) };
}

/**
 * Listens and resolves with the URL a client on this machine would use: a wildcard address is
 * reachable as localhost. Rejects with the listen error (EADDRINUSE and its port).
 * @example await listenOn(server, 0, '127.0.0.1') // 'http://127.0.0.1:40123'
 */
export function listenOn(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
      resolve(`http://${shown}:${(server.address() as AddressInfo).port}`);
    });
  });
}
