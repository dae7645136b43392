import { type EnvelopeBuilder, errorBody, restcommEnvelope } from './envelope';
import { twilioEnvelope } from './twilio/envelope';
import { twilioErrorBody } from './twilio/error';
import type { DialectName } from './uris';

/**
 * Each dialect's envelope: the one place a list page's surrounding text is chosen. The service
 * as documented prints Restcomm's, as production does.
 * @example ENVELOPES.restcomm === restcommEnvelope // true
 */
export const ENVELOPES: Readonly<Record<DialectName, EnvelopeBuilder>> = {
  spec: restcommEnvelope,
  restcomm: restcommEnvelope,
  twilio: twilioEnvelope,
};

/** An error's body from its status, message and (a dialect's own) code. */
export type ErrorBodyBuilder = (status: number, message: string, code?: number) => string;

/**
 * Each dialect's error body: `{"message"}` as production's SortBy errors, or Twilio's
 * `{code, message, more_info, status}`.
 * @example ERROR_BODIES.spec(400, 'Bad') // '{"message":"Bad"}'
 */
export const ERROR_BODIES: Readonly<Record<DialectName, ErrorBodyBuilder>> = {
  spec: (_status, message) => errorBody(message),
  restcomm: (_status, message) => errorBody(message),
  twilio: twilioErrorBody,
};
