import { ApiError, messages } from '../errors';

/** One admin request, as a handler sees it: no express. */
export interface AdminRequest {
  /** Path parameters by name (`sid`, `callSid`, `id`, …). */
  params: Readonly<Record<string, string>>;
  /** The raw query string, as sent. */
  query: string;
  /** The JSON body, or a 400 saying how to send one. */
  body(): unknown;
  /** Whether a body was sent: for endpoints whose body is optional. */
  readonly hasBody: boolean;
  /**
   * Whether this process took the request (a replica applying another's write from the log did
   * not): only the taker sets its timers and sends its callbacks.
   */
  readonly takenHere: boolean;
}

/**
 * A request as a handler reads it, from its parts: what the admin route takes from express, and
 * what a replica applying the write log takes from an entry (`takenHere`: whether this process
 * took it, so that only one replica sets its timers and sends its callbacks).
 */
export function adminRequestOf(
  params: Readonly<Record<string, string>>,
  query: string,
  body: { value: unknown } | undefined,
  takenHere = true,
): AdminRequest {
  return {
    params,
    query,
    takenHere,
    body: () => {
      if (body === undefined) throw new ApiError(400, messages.badBody(messages.sendJson));
      return body.value;
    },
    hasBody: body !== undefined,
  };
}

/**
 * What a handler answers: JSON with a status, or bytes of a type. `settle`: work the answer waits
 * for after the write is applied (a clock move's callbacks), outside the write log's turn.
 */
export type AdminReply =
  /** 503: the health check of a replica that stopped applying the write log (containers read the status). */
  (
    | { status: 200 | 201 | 503; json: unknown }
    | { status: 200 | 201 | 204; bytes: Buffer; type: string; headers?: Readonly<Record<string, string>> }
    /** A large JSON body, made a chunk at a time as the socket takes it (see writeChunks). */
    | { status: 200 | 201; chunks: Iterator<string> }
  ) & { settle?: Promise<void> };

export const ok = (json: unknown): AdminReply => ({ status: 200, json });
export const created = (json: unknown): AdminReply => ({ status: 201, json });
