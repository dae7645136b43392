import { type EnvelopeBuilder, restcommEnvelope } from './envelope';
import type { DialectName } from './uris';

/**
 * Each dialect's envelope: the one place a list page's surrounding text is chosen. The service
 * as documented prints Restcomm's, as production does.
 * @example ENVELOPES.restcomm === restcommEnvelope // true
 */
export const ENVELOPES: Readonly<Record<DialectName, EnvelopeBuilder>> = {
  spec: restcommEnvelope,
  restcomm: restcommEnvelope,
};
