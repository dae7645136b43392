import type { IncomingMessage, ServerResponse } from 'node:http';

/** The methods a preflight allows: the API's and the admin API's. */
const METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/**
 * `--cors`: any origin may call, with a fixed `*` (so the headers are the same for every
 * request, and cached responses stay right); a preflight (`OPTIONS`) is answered 204 at once,
 * allowing the headers it asks for (credentials travel in Authorization). Eleven lines of
 * headers: the `cors` package's options were one set, always the same.
 * @example allowAnyOrigin(['X-Emulator-Warning'])(req, res, next) // Access-Control-Allow-Origin: *
 */
export function allowAnyOrigin(exposed: readonly string[]) {
  const expose = exposed.join(',');
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method !== 'OPTIONS') {
      res.setHeader('Access-Control-Expose-Headers', expose);
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Methods', METHODS);
    const asked = req.headers['access-control-request-headers'];
    if (asked !== undefined) {
      res.setHeader('Access-Control-Allow-Headers', asked);
      res.setHeader('Vary', 'Access-Control-Request-Headers');
    }
    res.statusCode = 204;
    res.setHeader('Content-Length', '0');
    res.end();
  };
}
