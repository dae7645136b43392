import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { ApiError, messages } from '../errors';
import { ADMIN, adminRoutes } from '../format/uris';
import { methodNotAllowed } from '../http/error-handler';
import { exchangeOf } from '../http/exchange';
import type { AdminContext, AdminReply, AdminRequest } from './context';
import { ADMIN_ROUTES, type AdminRoute } from './routes';

/** The one body reader of the admin API: JSON, parsed when the Content-Type says JSON. */
const readJson = express.json({ limit: '64mb' });

function adminRequest(req: Request): AdminRequest {
  return {
    params: req.params as Record<string, string>,
    query: exchangeOf(req).query,
    body: () => {
      if (req.body === undefined) throw new ApiError(400, messages.badBody(messages.sendJson));
      return req.body as unknown;
    },
  };
}

function send(res: Response, reply: AdminReply): void {
  if ('bytes' in reply) {
    res.status(reply.status).setHeader('Content-Type', reply.type);
    res.end(reply.bytes);
  } else {
    res.status(reply.status).json(reply.json);
  }
}

/** With `--admin-token`, every admin call but the health check needs `Authorization: Bearer <token>`. */
function tokenGuard(token: string): RequestHandler {
  const expected = `Bearer ${token}`;
  return (req, res, next) => {
    // Container health checks call the health route without credentials.
    if (req.originalUrl === adminRoutes.health && (req.method === 'GET' || req.method === 'HEAD')) return next();
    if (req.get('authorization') !== expected) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="callrec-emulator admin"');
      throw new ApiError(401, messages.adminUnauthorized);
    }
    next();
  };
}

/**
 * Puts the admin route table on the app: each path's handlers, then a 405 naming the methods it
 * allows (GET implies HEAD).
 */
export function mountAdmin(app: Express, ctx: AdminContext, adminToken: string | null): void {
  if (adminToken !== null) app.use(ADMIN, tokenGuard(adminToken));
  const byPath = new Map<string, AdminRoute[]>();
  for (const r of ADMIN_ROUTES) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  for (const [path, routes] of byPath) {
    for (const { method, handler } of routes) {
      const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      app[verb](path, readJson, (req, res) => send(res, handler(ctx, adminRequest(req))));
    }
    const allowed = routes.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]));
    app.all(path, methodNotAllowed(allowed.join(', ')));
  }
}
