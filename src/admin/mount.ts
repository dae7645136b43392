import type { Express, Request, RequestHandler, Response } from 'express';
import { ApiError, messages } from '../errors';
import { ADMIN } from '../format/uris';
import { methodNotAllowed } from '../http/error-handler';
import { exchangeOf } from '../http/exchange';
import { writeChunks } from '../http/stream';
import type { AdminContext, AdminReply, AdminRequest } from './context';
import { ADMIN_BODY_BYTES, adminGuard, bodyReader, type GuardOptions, scriptsOnly } from './guard';
import { ADMIN_ROUTES, type AdminRoute } from './routes';

function adminRequest(req: Request): AdminRequest {
  return {
    params: req.params as Record<string, string>,
    query: exchangeOf(req).query,
    body: () => {
      if (req.body === undefined) throw new ApiError(400, messages.badBody(messages.sendJson));
      return req.body as unknown;
    },
    hasBody: req.body !== undefined,
  };
}

async function send(res: Response, reply: AdminReply): Promise<void> {
  if ('chunks' in reply) {
    res.status(reply.status).setHeader('Content-Type', 'application/json; charset=utf-8');
    await writeChunks(res, reply.chunks);
  } else if ('bytes' in reply) {
    res.status(reply.status).setHeader('Content-Type', reply.type);
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    res.end(reply.bytes);
  } else {
    res.status(reply.status).json(reply.json);
  }
}

/**
 * Puts the admin route table on the app: each path's handlers, then a 405 naming the methods it
 * allows (GET implies HEAD).
 */
export function mountAdmin(app: Express, ctx: AdminContext, guard: GuardOptions): void {
  app.use(ADMIN, adminGuard(guard));
  const readers = new Map<number, RequestHandler[]>();
  const reader = (bytes: number) => readers.get(bytes) ?? readers.set(bytes, bodyReader(bytes)).get(bytes) ?? [];
  const writes = scriptsOnly(guard.token !== null);
  const byPath = new Map<string, AdminRoute[]>();
  for (const r of ADMIN_ROUTES) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  for (const [path, routes] of byPath) {
    for (const { method, handler, bodyBytes } of routes) {
      const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const checks = method === 'GET' ? [] : [writes];
      // Express 5 hands a rejected promise to the error handler, as it does a throw.
      app[verb](path, ...checks, ...reader(bodyBytes ?? ADMIN_BODY_BYTES), async (req, res) => {
        await send(res, await handler(ctx, adminRequest(req)));
      });
    }
    const allowed = routes.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]));
    app.all(path, methodNotAllowed(allowed.join(', ')));
  }
}
