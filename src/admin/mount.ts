import type { Express, Request, RequestHandler, Response } from 'express';
import { ADMIN } from '../format/uris';
import { methodNotAllowed } from '../http/error-handler';
import { exchangeOf, VERSION_HEADER } from '../http/exchange';
import { writeChunks } from '../http/stream';
import { ADMIN_BODY_BYTES } from './body-limits';
import type { AdminContext } from './context';
import { adminGuard, bodyReader, type GuardOptions, scriptsOnly } from './guard';
import { type AdminReply, adminRequestOf } from './reply';
import { ADMIN_ROUTES, type AdminRoute } from './routes';
import { isWrite, routeKey } from './write-handlers';

export { VERSION_HEADER } from '../http/exchange';

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
    for (const r of routes) {
      const { method, handler, bodyBytes } = r;
      const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const checks = method === 'GET' ? [] : [writes];
      const key = routeKey(r);
      const params = (req: Request) => req.params as Record<string, string>;
      const body = (req: Request) => (req.body === undefined ? undefined : { value: req.body as unknown });
      // Express 5 hands a rejected promise to the error handler, as it does a throw.
      const answer: RequestHandler = isWrite(r)
        ? async (req, res) => {
            // Every write goes through the log, here too: this process applies it in its turn.
            const { version, reply } = await ctx.log.write(key, params(req), exchangeOf(req).query, body(req));
            await reply.settle;
            res.setHeader(VERSION_HEADER, version);
            await send(res, reply);
          }
        : async (req, res) => {
            // What the read saw: a client may wait for it on another replica.
            res.setHeader(VERSION_HEADER, ctx.log.version);
            await send(res, await handler(ctx, adminRequestOf(params(req), exchangeOf(req).query, body(req))));
          };
      app[verb](path, ...checks, ...reader(bodyBytes ?? ADMIN_BODY_BYTES), answer);
    }
    const allowed = routes.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]));
    app.all(path, methodNotAllowed(allowed.join(', ')));
  }
}
