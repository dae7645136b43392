/**
 * Errors as data: one error type, one catalogue of messages. Handlers throw `ApiError`s built
 * from the catalogue; the single error handler in `routes/error-handler.ts` renders them.
 */

/** Every status code the emulator answers with on purpose. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 416 | 429 | 500;

export class ApiError extends Error {
  readonly status: ErrorStatus;
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: ErrorStatus, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.headers = headers;
  }
}

/**
 * The catalogue. Tests import it to assert messages, so wording lives here only.
 * The two SortBy messages are production's, byte for byte; the rest are ours (production sends
 * empty bodies there).
 */
export const messages = {
  sortMissingField: 'Error parsing the SortBy parameter: missing field to sort by',
  sortBadDirection:
    'Error parsing the SortBy parameter: sort direction needs to be either ASC or DESC',
  notInteger: (name: string, value: string) =>
    `${name} must be a base-10 integer from 0 to 2147483647, got ${JSON.stringify(value)}`,
  pageSizeZero: 'PageSize must be at least 1',
  pageSizeTooLarge: (value: number, max: number) =>
    `PageSize ${value} is larger than the maximum page size of this emulator (${max})`,
  pageBeyondLast: (page: number, lastPage: number) =>
    `Page ${page} is beyond the last page of this list (the last page is ${lastPage})`,
  unauthorized:
    'Authentication required: send HTTP Basic credentials with the account API token as the user name',
  forbidden: (accountSid: string) => `The API token does not grant access to account ${accountSid}`,
  notFound: (method: string, path: string) => `No resource at ${method} ${path}`,
  methodNotAllowed: (method: string, allowed: string) =>
    `Method ${method} is not allowed here; use ${allowed}`,
  notAcceptable:
    'This path answers JSON only when the Accept header contains "json" (production answers XML here); use the .json path',
  internal: 'Internal error in the emulator',
  badBody: (problem: string) => `The request body is not usable: ${problem}`,
  badField: (field: string, problem: string) => `${field}: ${problem}`,
  unknownField: (field: string, allowed: readonly string[]) => `${field}: unknown field (expected one of ${allowed.join(', ')})`,
  derivedField: (field: string) => `${field}: derived by the emulator, cannot be set`,
  noAccount: (sid: string) => `No account ${sid}`,
  noCall: (accountSid: string, sid: string) => `No call ${sid} in account ${accountSid}`,
  noRecording: (accountSid: string, sid: string) => `No recording ${sid} in account ${accountSid}`,
  rateLimited: (limit: number, windowS: number) => `Rate limit injected by the emulator: more than ${limit} requests in ${windowS} s`,
  injected: (status: number) => `Status ${status} injected by the emulator`,
  adminUnauthorized: 'The admin API needs Authorization: Bearer <admin token> (--admin-token)',
  badDay: (name: string, value: string) => `${name} must start with a date as yyyy-MM-dd, got ${JSON.stringify(value)}`,
  rangeNotSatisfiable: (size: number) => `The Range asks for bytes outside the ${size} of this file`,
  notFoundPrinted: (method: string, path: string, lacks: string, instead: string) =>
    `No resource at ${method} ${path}: the path lacks ${lacks}, as the URIs production prints do; request ${instead}`,
  noFault: (id: string) => `No fault ${id}`,
  unknownState: (name: string, known: readonly string[]) => `Unknown provider state ${JSON.stringify(name)}; the states file has ${known.map((k) => JSON.stringify(k)).join(', ')}`,
  duplicateSid: (field: string, sid: string) => `${field}: ${sid} is already taken`,
} as const;
