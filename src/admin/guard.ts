import express, { type RequestHandler } from 'express';
import { ApiError, messages } from '../errors';
import { adminRoutes } from '../format/uris';
import { exchangeOf } from '../http/exchange';
import { basicCredentials } from '../input/credentials';
import { parseJson } from '../input/fields';
import { sameSecret } from '../input/secret';

/** The health check answers anyone: container and orchestrator probes call it bare. */
function isHealth(method: string, path: string): boolean {
  return path === adminRoutes.health && (method === 'GET' || method === 'HEAD');
}

/**
 * Reads a JSON body of at most `limit` bytes, parsed with the emulator's JSON limits (nesting
 * depth) into `req.body`; a body that is not JSON leaves it undefined, for the handler to say so.
 */
export function bodyReader(limit: number): RequestHandler[] {
  const raw = express.raw({ type: 'application/json', limit });
  const parse: RequestHandler = (req, _res, next) => {
    // No body, or an empty one, is none: the handler says how to send one if it needs it.
    req.body = Buffer.isBuffer(req.body) && req.body.length > 0 ? parseJson(req.body, 'body') : undefined;
    next();
  };
  return [
    (req, res, next) =>
      raw(req, res, (err?: unknown) => {
        if ((err as { type?: string } | undefined)?.type === 'entity.too.large') {
          next(new ApiError(413, messages.bodyTooLarge(limit)));
        } else {
          next(err);
        }
      }),
    parse,
  ];
}

/**
 * Whether a Host header names this machine: a loopback name or address, the listening
 * address, or a name given with `--admin-hosts`. A browser page on another name that resolves
 * here (DNS rebinding) sends its own name, and is refused.
 * @example hostAllowed('localhost:8080', new Set()) // true
 * @example hostAllowed('evil.test:8080', new Set()) // false
 */
export function hostAllowed(header: string | undefined, names: ReadonlySet<string>): boolean {
  // HTTP/1.0 clients may send none; browsers always do.
  if (header === undefined) return true;
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::\d+)?$/.exec(header.trim().toLowerCase());
  const host = (m?.[1] ?? m?.[2] ?? '').replace(/\.$/, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || names.has(host);
}

/**
 * Basic auth whose password is the admin token (any user name): what a browser sends once asked.
 * It changes nothing for cross-site requests: writes from other origins are refused (`scriptsOnly`).
 */
function basicWith(header: string, token: string): boolean {
  const given = basicCredentials(header);
  return given !== null && sameSecret(given.password, token);
}

export interface GuardOptions {
  /** Bearer token every admin call but the health check needs; null for none. */
  token: string | null;
  /** Host names besides loopback ones that the admin API answers. */
  hosts: ReadonlySet<string>;
}

/**
 * The admin API belongs to the test that drives it, not to any web page the same browser has
 * open: the Host must be this machine's (DNS rebinding), and with `--admin-token` every call but
 * the health check needs the bearer token (see also `scriptsOnly`).
 */
export function adminGuard(options: GuardOptions): RequestHandler {
  const expected = options.token === null ? null : `Bearer ${options.token}`;
  const token = options.token;
  return (req, res, next) => {
    const ex = exchangeOf(req);
    if (isHealth(req.method, ex.path)) return next();
    if (!hostAllowed(req.headers.host, options.hosts))
      throw new ApiError(403, messages.adminHost(req.headers.host ?? ''));
    // Any web page can make a browser GET an address (an <img>, a link prefetch): a report or an
    // export that costs the server seconds is no web page's to ask for. A browser marks such a
    // request cross-site; only following a link to the inspector (a navigation) is let through.
    const ui = ex.path === adminRoutes.ui || ex.path.startsWith(`${adminRoutes.ui}/`);
    if (req.headers['sec-fetch-site'] === 'cross-site' && !(ui && req.headers['sec-fetch-mode'] === 'navigate'))
      throw new ApiError(403, messages.adminCrossOrigin(req.headers.origin ?? 'another site'));
    const given = req.get('authorization') ?? '';
    if (expected !== null && token !== null && !sameSecret(given, expected) && !basicWith(given, token)) {
      // A browser opening the inspector cannot send a bearer token: it asks for a password, once.
      res.setHeader(
        'WWW-Authenticate',
        ui ? 'Basic realm="callrec-emulator admin"' : 'Bearer realm="callrec-emulator admin"',
      );
      throw new ApiError(401, messages.adminUnauthorized);
    }
    next();
  };
}

/**
 * Whether an `Origin` header names this emulator itself, as the Host it was asked by: the
 * inspector's own requests do; a page on any other origin (another port of localhost too) does
 * not, nor does `null` (sandboxed frames, files).
 * @example sameOrigin('http://127.0.0.1:8080', '127.0.0.1:8080') // true
 * @example sameOrigin('http://localhost:3000', '127.0.0.1:8080') // false
 */
export function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.trim().toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Admin writes (POST, PUT, DELETE) come from scripts and tests, and from the inspector, never
 * from another web page the same browser has open. A browser always says where a request
 * comes from: `Origin` on every POST, PUT and DELETE, `Sec-Fetch-Site` on every request of a
 * recent one. So a write whose Origin is not this emulator's own, or that a browser marks
 * `cross-site`, is a 403, whatever its body; one with neither (curl, an SDK) is a script's.
 * A bodyless POST needs no type (`curl -X POST …/__admin/reset`, as every mock server's users
 * type it); a body must be JSON, anything else is a 415.
 *
 * With `--admin-token` (and `--cors`), a page of another origin that sends the token as a Bearer
 * header writes: it had to hold the token, which no browser sends on its own. Basic auth with the
 * token is the inspector's, which a browser does send on its own, so it opens nothing.
 */
export function scriptsOnly(tokenGuarded: boolean): RequestHandler {
  return (req, _res, next) => {
    const origin = req.headers.origin;
    const crossOrigin =
      req.headers['sec-fetch-site'] === 'cross-site' || (origin !== undefined && !sameOrigin(origin, req.headers.host));
    // adminGuard, before this, has checked the token the header carries.
    const bearer = tokenGuarded && /^Bearer /i.test(req.headers.authorization ?? '');
    if (crossOrigin && !bearer) throw new ApiError(403, messages.adminCrossOrigin(origin ?? 'another site'));
    bodyTyped(req);
    next();
  };
}

/** A body must say it is JSON; no body needs no type. */
function bodyTyped(req: Parameters<RequestHandler>[0]): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const length = req.headers['content-length'];
  const bodyless = req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
  if (type === '' ? !bodyless : type !== 'application/json')
    throw new ApiError(415, messages.adminJsonOnly(req.method));
}
