import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, type ErrorStatus, messages, ValidationError } from '../errors';
import { ERROR_BODIES, type ErrorBodyBuilder } from '../format/envelopes';
import {
  ADMIN,
  API_VERSION,
  adminRoutes,
  apiRoutes,
  DIALECTS,
  type DialectName,
  MOUNT,
  PRINTED_PATH,
  RESTCOMM_MOUNT,
  requestablePath,
  twilioRoutes,
} from '../format/uris';
import { nearestRoute } from '../input/nearest';
import { noteBody } from './exchange';

const CLIENT_STATUSES: readonly ErrorStatus[] = [400, 401, 403, 404, 405, 406, 408, 413, 415, 416, 417, 431];

/**
 * Unusable input is a 400 with its message. Errors thrown by express itself or its body parsers
 * carry a 4xx `status` and a message meant for the client (a bad percent-encoding, malformed
 * JSON): they stay 4xx. Anything else is ours: a 500.
 */
function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ValidationError) return new ApiError(400, err.message);
  const status =
    (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known = CLIENT_STATUSES.find((s) => s === status) ?? 400;
    return new ApiError(known, (err as Error).message || 'Bad request');
  }
  return new ApiError(500, messages.internal);
}

/**
 * Writes an error as `{"message": "..."}` with its status, on node's response alone: the one
 * error handler, and the list lane (routes/list-lane.ts), which answers without express.
 */
export function writeError(
  err: unknown,
  res: ServerResponse,
  onInternal: (err: unknown) => void,
  bodyOf: ErrorBodyBuilder = ERROR_BODIES.spec,
): void {
  const apiError = asApiError(err);
  if (apiError.status === 500) onInternal(err);
  if (res.headersSent) {
    // A streamed page failed half-way: the status is gone, so cut the connection rather than
    // let a truncated body pass as a whole one.
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
  const body = bodyOf(apiError.status, apiError.message, apiError.code, res.req?.url ?? '');
  res.statusCode = apiError.status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  noteBody(res, body);
  res.end(body);
}

/** The one error handler: every error leaves in its dialect's shape (`{"message": "..."}`, or Twilio's) with its status. */
export function errorHandler(
  onInternal: (err: unknown) => void,
  bodyOf: ErrorBodyBuilder = ERROR_BODIES.spec,
): ErrorRequestHandler {
  return (err, _req, res, _next) => writeError(err, res, onInternal, bodyOf);
}

/**
 * Unknown routes: 404 in the same shape as every other error. A path as production prints it in
 * `uri` values (no `/call`, and for the calls list no `.json`) is a 404 there too; the message
 * says what it lacks, so that a client's author sees why. A path of Restcomm Connect's own
 * (`/restcomm/2012-04-24/…`) is served only in its dialect: without it, the message names the flag.
 */
export const notFound = (dialect: DialectName): RequestHandler => {
  // The routes a near miss is measured against, listed once.
  const known = knownRoutes(dialect);
  return (req) => {
    // Twilio's own words for a path it has nothing at (twilio-node reads them into its RestException).
    if (dialect === 'twilio' && !req.path.startsWith(ADMIN)) throw new ApiError(404, messages.twilioNotFound(req.path));
    if (dialect !== 'restcomm' && req.path.startsWith(`${RESTCOMM_MOUNT}/${API_VERSION}/`)) {
      throw new ApiError(
        404,
        messages.notFoundRestcomm(req.method, req.path, `${MOUNT}${req.path.slice(RESTCOMM_MOUNT.length)}`),
      );
    }
    // A client that adds its base path to every printed link doubles it on the recordings list's links.
    for (const prefix of [MOUNT, RESTCOMM_MOUNT]) {
      if (req.path.startsWith(`${prefix}${prefix}/`)) {
        throw new ApiError(404, messages.notFoundDoubled(req.method, req.path, prefix, req.path.slice(prefix.length)));
      }
    }
    // A client that follows production's "null" neighbour link as if it were a path.
    if (/(^|\/)null$/.test(req.path)) throw new ApiError(404, messages.notFoundNull(req.method, req.path));
    if (PRINTED_PATH.test(req.path)) {
      const wanted = requestablePath(req.path);
      const lacks =
        wanted.endsWith('.json') && !req.path.endsWith('.json')
          ? 'the /call prefix and the .json suffix'
          : 'the /call prefix';
      throw new ApiError(404, messages.notFoundPrinted(req.method, req.path, lacks, wanted));
    }
    const near = nearestRoute(req.path, known);
    if (near !== undefined) throw new ApiError(404, messages.notFoundNear(req.method, req.path, near));
    throw new ApiError(404, messages.notFound(req.method, req.path));
  };
};

/** Every route pattern a dialect serves: the API under each of its mounts, and the admin API. */
function knownRoutes(dialect: DialectName): string[] {
  const api = DIALECTS[dialect].mounts.flatMap((m) => Object.values(apiRoutes(m)));
  if (dialect === 'twilio') api.push(...Object.values(twilioRoutes()));
  return [...api, ...Object.values(adminRoutes)];
}

/** A known path with a method it does not serve. */
export function methodNotAllowed(allowed: string): RequestHandler {
  return (req) => {
    throw new ApiError(405, messages.methodNotAllowed(req.method, allowed), { Allow: allowed });
  };
}
