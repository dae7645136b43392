import { type EnvelopeBuilder, errorBody, restcommEnvelope } from './envelope';
import { twilioEnvelope } from './twilio/envelope';
import { twilioErrorBody } from './twilio/error';
import { type DialectName, TWILIO_VERSION } from './uris';

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

/**
 * An error's body from its status, message, (a dialect's own) code, and the path it answers
 * (absent: the dialect's own API).
 */
export type ErrorBodyBuilder = (status: number, message: string, code?: number, path?: string) => string;

/**
 * Each dialect's error body: `{"message"}` as production's SortBy errors, or, under Twilio's
 * `/2010-04-01` paths, Twilio's `{code, message, more_info, status}`. The admin API and the
 * service's own API answer `{"message"}` in every dialect.
 * @example ERROR_BODIES.spec(400, 'Bad') // '{"message":"Bad"}'
 * @example ERROR_BODIES.twilio(400, 'Bad', undefined, '/__admin/reset') // '{"message":"Bad"}'
 */
export const ERROR_BODIES: Readonly<Record<DialectName, ErrorBodyBuilder>> = {
  spec: (_status, message) => errorBody(message),
  restcomm: (_status, message) => errorBody(message),
  twilio: (status, message, code, path) =>
    path === undefined || path.startsWith(`/${TWILIO_VERSION}/`)
      ? twilioErrorBody(status, message, code)
      : errorBody(message),
};
