/**
 * Errors as data: two error types and one catalogue of messages.
 * - `ApiError`: an answer with a status, thrown by routes and rendered by the one error handler.
 * - `ValidationError`: input that cannot be used (a fixtures file, an option, an admin body),
 *   naming where (`path`) and what is wrong (`problem`). It knows no status code: the error
 *   handler answers it with a 400, the CLI exits with code 2.
 */

/** Every status code the emulator answers with on purpose. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 408 | 409 | 413 | 415 | 416 | 417 | 429 | 431 | 500 | 503;

export class ApiError extends Error {
  readonly status: ErrorStatus;
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Readonly<Record<string, string>>;
  /** A dialect's own error code where it has one (Twilio's `code`); else the status's default. */
  readonly code: number | undefined;

  constructor(status: ErrorStatus, message: string, headers: Record<string, string> = {}, code?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.headers = headers;
    this.code = code;
  }
}

/**
 * Unusable input. `path` names the place: a file and field (`f.json: accounts[2].calls`), an
 * option (`--port`, `CALLREC_PORT`) or a body field (`body[1].duration`).
 * @example new ValidationError('body.calls', problems.intRange(0, 9, -1)).message // 'body.calls: must be an integer from 0 to 9, got -1'
 */
export class ValidationError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(path === '' ? problem : `${path}: ${problem}`);
    this.name = 'ValidationError';
  }
}

const q = JSON.stringify;

/**
 * What can be wrong with one input value: the second half of a ValidationError's message.
 * Every text that names a problem with input lives here.
 */
export const problems = {
  object: 'must be a JSON object',
  array: 'must be an array',
  emptyArray: 'is an empty array',
  tooMany: (max: number, got: number) => `holds ${got} items, more than the ${max} one request may name`,
  needed: 'is needed',
  notJson: (detail: string) => `not valid JSON (${detail})`,
  tooDeep: (limit: number) => `is nested more than ${limit} levels deep`,
  notUtf8: 'is not valid UTF-8',
  string: (what: string, got: unknown) => `must be ${what}, got ${q(got)}`,
  oneOf: (values: readonly string[], got: unknown) => `must be one of ${values.join(', ')}, got ${q(got)}`,
  intBetween: (min: number, max: number) => `must be an integer from ${min} to ${max}`,
  intRange: (min: number, max: number, got: unknown) => `must be an integer from ${min} to ${max}, got ${q(got)}`,
  numberRange: (min: number, max: number, got: unknown) => `must be a number from ${min} to ${max}, got ${q(got)}`,
  fixed: (expected: string, got: unknown) => `must be ${q(expected)}, got ${q(got)}`,
  unknownField: (allowed: readonly string[]) => `unknown field (expected one of ${allowed.join(', ')})`,
  derived: 'derived by the emulator, cannot be set',
  taken: (value: string) => `${value} is already taken`,
  sameAs: (key: string, earlier: string) => `the same ${key} as ${earlier}`,
  nonEmpty: 'must not be empty',
  nonEmptyString: 'must be a non-empty string',
  flag: (got: string) => `must be true, false, 1 or 0, got ${q(got)}`,
  boolean: 'must be true or false',
  startAlone:
    'goes alone: {"start": true} takes the seed, clock and fixtures the emulator started with (for its fixtures alone, "fixtures": "start")',
  instant: (got: unknown) => `must be an ISO 8601 instant with a zone, such as 2025-06-01T12:00:00Z, got ${q(got)}`,
  httpUrl: (got: string) => `must be an absolute http(s) URL, got ${q(got)}`,
  redisUrl: (got: string) =>
    `must be a Redis URL (redis://host:port, rediss:// for TLS, /N for a database), got ${q(got)}`,
  redisUnreachable: (where: string, ms: number, why: string) => `${where} did not answer within ${ms} ms (${why})`,
  otherFleet: (where: string, conflict: string) =>
    `${where} holds the write log of emulators started otherwise: ${conflict}; start every replica with the same options, or give this one another database (redis://host:port/N)`,
  httpUrlPlain: (got: string) => `must be an http(s) URL without query or fragment, got ${q(got)}`,
  adminToken: 'must be 1 to 256 visible ASCII characters',
  hostName: (got: string) => `must be a host name or IP address, got ${q(got)}`,
  cannotRead: (what: string, code: string) => `cannot read the ${what} file (${code})`,
  consoleNeedsRestcomm: "Restcomm's console talks to Restcomm's API: start with --dialect restcomm",
  // Interception (--intercept): which hosts it answers for follows the dialect.
  interceptNeedsProvider:
    'the documented service has no production host to answer for: add --dialect twilio (api.twilio.com), or --dialect restcomm with --intercept-host NAME',
  interceptNeedsHost:
    "names Restcomm's host: with --dialect restcomm, add --intercept-host NAME (the deployment's host name)",
  interceptHostNeedsRestcomm:
    "names a Restcomm deployment's host: use it with --dialect restcomm (Twilio's hosts are answered for without it)",
  interceptHostNeedsIntercept: 'names a host for the interception proxy: add --intercept PORT',
  interceptHostNotName: (got: string) =>
    `must be host names, not addresses (a certificate names a host), got ${q(got)}`,
  caUnusable: (file: string, why: string) =>
    `${file} does not hold this emulator's CA (${why}): remove the folder's files to make a new CA, then trust the new one`,
  caNotFor: (file: string, host: string, names: readonly string[]) =>
    `the CA in ${file} may vouch only for ${names.join(', ')} and their sub-domains, not for ${host}: give another --ca-dir, or remove the folder's files to make a new CA, then trust the new one`,
  caExpired: (file: string) =>
    `the CA in ${file} has expired: remove the folder's files to make a new CA, then trust the new one`,
  caCannotWrite: (dir: string, code: string) => `cannot keep the CA in ${dir} (${code})`,
  consoleNoIndex: (dir: string) =>
    `${JSON.stringify(dir)} has no index.html: give the webapp folder of Restcomm's console (restcomm/restcomm.ui/src/main/webapp)`,
  notRegularFile: (what: string) => `the ${what} file must be a regular file (not a pipe, device or directory)`,
  fileTooLarge: (what: string, max: number) => `the ${what} file is larger than ${max} bytes`,
  // Fixtures and accounts.
  fixturesTop: 'must be an object with an "accounts" array',
  rowNull: 'is NULL, and the column is NOT NULL',
  rowColumns: (values: number, columns: number) => `holds ${values} values, and its table has ${columns} columns`,
  rowValue: (got: unknown) => `must be a text, a number, a boolean or null, got ${q(got)}`,
  rowAccount: (account: string, got: string) => `belongs to account ${got}, not to ${account}, whose rows these are`,
  rowTaken: (table: string, sid: string, earlier: string) =>
    `${table} already has a row of sid ${sid} (${earlier}): it is the table's PRIMARY KEY`,
  rowText: (got: unknown) => `must be a text, got ${q(got)}`,
  rowLength: (max: number, got: string) =>
    `holds ${[...got].length} characters, more than its VARCHAR(${max}) takes: ${q(got.length > 60 ? `${got.slice(0, 60)}…` : got)}`,
  rowInteger: (type: string, min: number, max: number, got: unknown) =>
    `must be an ${type}, from ${min} to ${max}, got ${q(got)}`,
  rowBoolean: (got: unknown) => `must be a BOOLEAN (TRUE, FALSE, 1 or 0), got ${q(got)}`,
  rowDouble: (got: unknown) => `must be a DOUBLE, got ${q(got)}`,
  rowDateTime: (got: unknown) => `must be a DATETIME as 'YYYY-MM-DD HH:MM:SS[.fraction]', got ${q(got)}`,
  friendlyName: 'must be a non-empty string of at most 200 characters',
  countRange: (max: number, why: string, got: unknown) => `must be an integer from 0 to ${max}${why}, got ${q(got)}`,
  mergeTooLarge: (n: number, limit: number) =>
    `This order would merge ${n.toLocaleString('en-US')} records of live traffic and writes, and the emulator merges at most ${limit.toLocaleString('en-US')} (without writes, the default order and DateCreated take any number): move the clock less far, lower calls_per_hour, or reset the account's writes and sort by DateCreated`,
  scanTooLarge: (n: number, limit: number) =>
    `This filter would scan ${n.toLocaleString('en-US')} records, and the emulator scans at most ${limit.toLocaleString('en-US')}: move the clock less far or lower calls_per_hour`,
  notificationCapacity: (calls: number, cap: number) =>
    ` (${calls} calls hold at most ${cap} notifications: 1 per 8 calls)`,
  recordingCapacity: (calls: number, cap: number) => ` (${calls} calls hold at most ${cap} recordings: 6 per 8 calls)`,
  token: 'must be 1 to 128 visible ASCII characters without ":"',
  serverZone: (got: string) =>
    `must be a time zone: an IANA name (Europe/Madrid), UTC, or an offset (+09:00), got ${q(got)}`,
  accountSidShape: '"AC" and 32 lower-case hex digits',
  accountSid: 'must be "AC" and 32 lower-case hex digits',
  sameUnderSeed: (key: string, earlier: string, seed: string) => `the same ${key} as ${earlier} under seed ${q(seed)}`,
  parentUnknown: (sid: string) => `no account ${sid} to be the parent (a parent is created, or listed, first)`,
  parentSelf: 'an account cannot be its own parent',
  parentCycle: (sid: string) => `the parents loop back to ${sid}`,
  parentDepth: (levels: number) =>
    `Restcomm allows ${levels} levels of accounts: the parent is already a sub-account of a sub-account`,
  // Calls.
  phoneNumberSid: '"PN" and 32 lower-case hex digits',
  instanceId: '"ID" and 32 lower-case hex digits',
  callSid: '"ID…-CA…" with 32 lower-case hex digits each',
  sidInstance: (instanceId: string) => `must start with the InstanceId ${instanceId}`,
  startTime: (got: string) =>
    `must be an ISO 8601 instant with a zone in whole seconds (date_created has no milliseconds), such as 2013-07-05T22:15:53Z or 2013-07-05T22:15:53.000Z, got ${q(got)}`,
  callCreated: (got: string) =>
    `must be like Fri, 5 Jul 2013 22:15:53 +0000 (calls are written in +0000), got ${q(got)}`,
  sameInstant: (what: string, date: string) => `must be the ${what}'s instant, ${date}`,
  callUpdated: (got: string) => `must be like Fri, 5 Jul 2013 22:15:53 +0000, got ${q(got)}`,
  notBeforeStart: 'must not be before the start',
  durationSpan: (computed: number) => `must be the whole seconds from start_time to end_time, ${computed}`,
  zeroDuration: (status: string, got: number) => `must be 0 for a call that is ${status}, got ${got}`,
  endSecond: (date: string) => `must be the end_time's second, ${date}`,
  notBeforeCreated: 'must not be before date_created: start_time moves from the creation to the answer',
  ringSpan: (computed: number) => `must be the whole seconds it rang, ${computed}`,
  noEndTime: (status: string) =>
    `production writes no end_time for an outbound call that ends ${status}: give date_updated for when it ended`,
  noDuration: (status: string) => `production writes no duration for an outbound call that ends ${status}`,
  noRing: (status: string) =>
    `production writes ring_duration only on outbound calls, once answered or busy, not on ${status}`,
  answeredBy: (to: string) => `is the callee of an answered outbound call, its to: ${to}`,
  inboundQueued: 'an inbound call is created ringing: production never queues one',
  // Recordings.
  recordingSid: '"RE" and 32 lower-case hex digits',
  noCallInAccount: (sid: string, accountSid: string) => `no call ${sid} in account ${accountSid}`,
  noAnsweredCall: 'is needed: the account has no answered call to default to',
  tooShortCall: (sid: string) => `call ${sid} talked under a second: no recording fits in it`,
  unansweredCall: (sid: string) => `call ${sid} was not answered: a recording lies in a call's talk`,
  recordingCreated: (got: string) => `must be like Mon, 6 Jan 2014 08:51:07 +0900, got ${q(got)}`,
  insideCall: (sid: string, after: string, until: string) =>
    `must lie inside call ${sid}: after ${after} and no later than ${until}`,
  equalsCreated: (date: string) => `must equal date_created, ${date}`,
  recordingDuration: (got: unknown) => `must be a positive decimal, as "14.70275" or 7, got ${q(got)}`,
  recordingRoom: (room: string) =>
    `must be at most ${room}: the time from the call's answer (start_time) to date_created, within its duration`,
  // State, faults, provider states.
  stateFormat: (format: number) => `must be ${format}`,
  clockMove: 'give one of advance (a duration) or to (an instant)',
  liveDerived:
    'follows from the life of a call inserted live (status queued, ringing or in-progress); give end_time only',
  liveEnd:
    'a call inserted live (status queued, ringing or in-progress) needs the end_time it ends at, at least a second after its start',
  sandboxFrom: 'must be the sid of the account to fork, or a state (GET /__admin/accounts/{sid}/state)',
  oneAccountState: (n: number) =>
    `must hold one account to fork, not ${n}: export the one you want with GET /__admin/accounts/{sid}/state`,
  runId: 'must be a test run id: 1 to 200 visible ASCII characters',
  ownClockOfSandbox: 'only a sandbox (sandbox_of) has a clock or seed of its own',
  trafficRate: 'must be a number of calls an hour, over 0 and at most 3600 (one a second)',
  outcomeWeight: 'must be a weight: a number, 0 or more',
  probability: 'must be a probability: a number from 0 to 1',
  callbackUrl: 'must be an absolute http or https URL',
  callbacksNeedTraffic: "needs traffic: only live traffic calls the account's numbers",
  createdAt: (created: string) => `must be an ISO 8601 instant within the second of date_created (${created})`,
  createdCall: 'is for calls made by POST Calls.json: direction outbound-api, with a final status',
  createdMethod: 'needs status_callback',
  needsRecord: 'needs record: true',
  outcomeWeights: 'must give at least one outcome a weight above 0',
  restartOrder: (now: string) =>
    `must be an instant no earlier than the restart before it and no later than the account's clock (${now})`,
  hazardsNeedTraffic: 'hazards shape live traffic: give the account traffic too ({"calls_per_hour": N})',
  clockAdvance:
    'must be an ISO 8601 duration in weeks, days, hours, minutes and seconds (PT5M, P1DT2H, PT0.5S) or a number of seconds, at least 0; years and months have no fixed length',
  clockBackwards: (now: string) =>
    `must not be before the clock, now ${now}: the clock never goes back (POST /__admin/reset returns it to its start)`,
  clockRange: 'must not be past 9999-12-31T23:59:59.999Z',
  clockRate: (got: string) => `must be a number over 0 and at most 1000000 (1 follows wall time), got ${q(got)}`,
  insertCounter: (atLeast: number) => `must be an integer from ${atLeast} (the inserts listed) to 67108863`,
  noSuchRecord: (sid: unknown) => `no such record: ${q(sid)}`,
  path: 'a path starting with "/"',
  goesWith: (other: string) => `goes with ${other}`,
  needsEffect: 'needs an effect: delay_ms, delay, status, fault or rate_limit',
  excludeEachOther: (fields: string) => `${fields} exclude each other`,
  distribution: 'must be uniform or lognormal',
  setupOrTeardown: 'must be setup or teardown',
  headerCount: (max: number) => `must have at most ${max} headers`,
  headerName:
    "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-) other than those that frame the answer (Content-Length, Transfer-Encoding, Connection, …)",
  headerValue: 'must be a string of at most 1024 visible ASCII characters or spaces',
  placeholderDefaults: (missing: readonly string[]) =>
    `has no default for ${missing.map((m) => `{{${m}}}`).join(', ')}, which the state uses: give each placeholder a default value here`,
  notPlaceholder: (state: string, used: readonly string[]) =>
    `is not a parameter of state ${q(state)}, which uses ${used.length === 0 ? 'no placeholders' : used.map((u) => `{{${u}}}`).join(', ')}`,
  aString: 'must be a string',
  namedStates: 'must be an object of named states',
  paging: (got: string) => `must be production or documented, got ${q(got)}`,
  dialect: (got: string) => `must be spec, restcomm or twilio, got ${q(got)}`,
} as const;

/**
 * The catalogue of answers. Tests import it to assert messages, so wording lives here only.
 * The two SortBy messages are production's, byte for byte; the rest are ours (production sends
 * empty bodies there).
 */
export const messages = {
  sortMissingField: 'Error parsing the SortBy parameter: missing field to sort by',
  sortBadDirection: 'Error parsing the SortBy parameter: sort direction needs to be either ASC or DESC',
  notInteger: (name: string, value: string) =>
    `${name} must be a base-10 integer from 0 to 2147483647, got ${JSON.stringify(value)}`,
  // One message for every unusable PageSize (0, negative, not a number): the range is 1 up.
  pageSizeInvalid: (value: string) =>
    `PageSize must be a base-10 integer from 1 to 2147483647, got ${JSON.stringify(value)}`,
  pageSizeTooLarge: (value: number, max: number) =>
    `PageSize ${value} is larger than the maximum page size of this emulator (${max})`,
  pageBeyondLast: (page: number, lastPage: number) =>
    `Page ${page} is beyond the last page of this list (the last page is ${lastPage})`,
  unauthorized: 'Authentication required: send HTTP Basic credentials with the account API token as the user name',
  unauthorizedSid:
    'Authentication required: the user name is an account sid, but this service takes the account API token as the user name (Restcomm clients send AccountSid:AuthToken; send the token instead, or start the emulator with --dialect restcomm)',
  unauthorizedRestcomm:
    'Authentication required: send HTTP Basic credentials, AccountSid:AuthToken (or the account email as the user), or the API token as the user name',
  unknownToken:
    'Authentication failed: the user name is not the API token of any account of this emulator (GET /__admin/accounts lists them; a new seed changes them)',
  unknownCredentialsRestcomm:
    'Authentication failed: these credentials log in to no account of this emulator (AccountSid or email with its AuthToken, or an API token as the user name; GET /__admin/accounts lists them)',
  forbidden: (accountSid: string) => `The API token does not grant access to account ${accountSid}`,
  accountNotActive: (sid: string, status: string) =>
    `Provided Account is not active (${sid} is ${status}: production answers this 403 to every request it makes)`,
  roleRefused: (role: string, permission: string) =>
    `The role ${JSON.stringify(role)} does not have ${permission} (Restcomm's restcomm.xml: Administrator has every permission, Developer its list, any other role none)`,
  hasSubAccounts: (sid: string, children: readonly string[]) =>
    `Account ${sid} has sub-accounts (${children.join(', ')}): delete them first, so that none is left without its parent`,
  forbiddenRecord: (sid: string) => `The API token does not grant access to ${sid}: it belongs to another account`,
  notFound: (method: string, path: string) => `No resource at ${method} ${path}`,
  notFoundNear: (method: string, path: string, near: string) =>
    `No resource at ${method} ${path}; did you mean ${near}?`,
  notFoundNull: (method: string, path: string) =>
    `No resource at ${method} ${path}: "null" is what production puts in previous_page_uri and next_page_uri when there is no such page, not a link; stop there`,
  methodNotAllowed: (method: string, allowed: string) => `Method ${method} is not allowed here; use ${allowed}`,
  notAcceptable:
    'This path answers JSON only when the Accept header contains "json" (production answers XML here); use the .json path',
  notAcceptableRestcomm:
    'Restcomm answers JSON (a .json path, or an Accept containing "json") or XML (an Accept that admits application/xml, or none); this Accept admits neither',
  internal: 'Internal error in the emulator',
  badBody: (problem: string) => `The request body is not usable: ${problem}`,
  sendJson: 'send JSON with Content-Type: application/json',
  noAccount: (sid: string) => `No account ${sid}`,
  noCall: (accountSid: string, sid: string) => `No call ${sid} in account ${accountSid}`,
  noRecording: (accountSid: string, sid: string) => `No recording ${sid} in account ${accountSid}`,
  noNotification: (accountSid: string, sid: string) => `No notification ${sid} in account ${accountSid}`,
  rateLimited: (limit: number, windowS: number) =>
    `Rate limit injected by the emulator: more than ${limit} requests in ${windowS} s`,
  injected: (status: number) => `Status ${status} injected by the emulator`,
  adminUnauthorized:
    'The admin API needs Authorization: Bearer <admin token> (--admin-token); a browser may give it as the password of Basic auth',
  adminHost: (host: string) =>
    `The admin API answers only requests for this machine (Host ${JSON.stringify(host)} is not a loopback name, the listening address or one given with --admin-hosts)`,
  adminJsonOnly: (method: string) =>
    `Admin ${method} requests take a JSON body (Content-Type: application/json), or none at all`,
  adminCrossOrigin: (origin: string) =>
    `Admin writes are refused from web pages of other origins (this one came from ${origin}): call the admin API from a script or test, or use the inspector at /__admin/ui`,
  badRequest: 'The request is not valid HTTP/1.1',
  // The interception proxy's refusals: it answers for the provider's hosts and never goes out.
  interceptRefused: (host: string) =>
    `The interception proxy answers only for the provider's hosts and never connects anywhere else; ${JSON.stringify(host)} is not one`,
  interceptAddress: (host: string) =>
    `The interception proxy answers for host names only; ${JSON.stringify(host)} is an address (a client that knows the provider's host asks for it by name)`,
  interceptNotProxied: (url: string) =>
    `This port is the interception proxy: send it requests for the provider's host (an absolute URL, or CONNECT); the emulator itself is at ${url}`,
  interceptNested: (proxyUrl: string) =>
    `CONNECT is answered by the interception proxy alone (${proxyUrl}), neither inside a tunnel nor on the emulator's own port`,
  headersTooLarge: 'The request headers are larger than this server takes (16 KB)',
  requestTimeout: 'The request did not arrive in time',
  expectation: (expect: string) => `Expect: ${JSON.stringify(expect)} is not supported; only 100-continue is`,
  bodyTooLarge: (limit: number) => `The request body is larger than this endpoint takes (${limit} bytes)`,
  // Production's own words for a create missing one of its three required parameters (`CallsEndpoint.validate`).
  createMissing: (name: 'From' | 'To' | 'Url') => `${name} can not be null.`,
  createTimeout: (value: string) =>
    `Timeout must be an integer number of seconds, got ${JSON.stringify(value)} (production lets Integer.parseInt's exception out: a 500)`,
  createUrl: (value: string) =>
    `Url is not a URI Java can read, got ${JSON.stringify(value)} (production lets URI.create's exception out: a 500)`,
  createNotForm: (type: string) =>
    `Create a call with a form body (Content-Type: application/x-www-form-urlencoded), as production reads it; got ${type === '' ? 'no Content-Type' : type}`,
  createUnread: (name: string) =>
    `Production reads no parameter ${JSON.stringify(name)} when it creates a call (it reads From, To, Url, Method, FallbackUrl, FallbackMethod, Username, Password, Timeout, StatusCallback, StatusCallbackMethod, StatusCallbackEvent): ignored`,
  tooManyCallbacks: (calls: number, most: number) =>
    `This move would pass the status callbacks of ${calls} calls of live traffic, more than the ${most} one move may send: move the clock in smaller steps, or take status_callback off the account`,
  callbackHostRefused: (host: string) =>
    `StatusCallback host ${host} is refused: the emulator sends callbacks to loopback addresses and to the hosts named by --callback-hosts only`,
  badDay: (name: string, value: string) => `${name} must start with a date as yyyy-MM-dd, got ${JSON.stringify(value)}`,
  rangeNotSatisfiable: (size: number) => `The Range asks for bytes outside the ${size} of this file`,
  notFoundPrinted: (method: string, path: string, lacks: string, instead: string) =>
    `No resource at ${method} ${path}: the path lacks ${lacks}, as the URIs production prints do; request ${instead}`,
  notFoundDoubled: (method: string, path: string, prefix: string, instead: string) =>
    `No resource at ${method} ${path}: the path has the ${prefix} prefix twice (the recordings list's links carry it already); request ${instead}`,
  notFoundRestcomm: (method: string, path: string, instead: string) =>
    `No resource at ${method} ${path}: paths under /restcomm are Restcomm Connect's own, served with --dialect restcomm (CALLREC_DIALECT=restcomm); this service's are under /call, as ${instead}`,
  insertRaced:
    'Other writes to this account kept landing while the batch was being built: nothing was inserted; send it again',
  noFault: (id: string) => `No fault ${id}`,
  noSandbox: (sid: string) => `No sandbox ${sid}`,
  noUi: 'The inspector is not in this build: its files (ui/) were not found beside dist/',
  noConsoleFile: (path: string) => `No file ${JSON.stringify(path)} in Restcomm's console (--restcomm-console)`,
  noUiFile: (name: string) => `No file ${JSON.stringify(name)} in the inspector`,
  noJournalEntry: (id: string) =>
    `No journal entry ${JSON.stringify(id)}: it may have left the journal (see GET /__admin/requests for those held)`,
  endsSandboxes: (what: string, sids: readonly string[], retry: string) =>
    `${what} would end the ${sids.length} live sandbox${sids.length === 1 ? '' : 'es'} (${sids.join(', ')}): delete them, or ${retry}?force=true`,
  // The write log (one process, --workers, --redis): a write that cannot be ordered changes nothing.
  logUnavailable: (where: string, why: string) =>
    `The write was not applied: the write log (${where}) cannot be reached (${why}); reads go on, send the write again once it is back`,
  logOutcomeUnknown: (where: string, why: string) =>
    `The write was sent to the write log (${where}) and no answer came (${why}): it may yet be applied. Check before sending it again (GET what it writes, or the journal)`,
  logEntryUnusable: (where: string, version: number, problem: string) =>
    `Entry ${version} of the write log (${where}) cannot be applied: ${problem}. This replica stopped applying the log there; remove the entry's writer and start the fleet on a new log`,
  logCheckpointUnusable: (where: string, version: string, problem: string) =>
    `The checkpoint of the write log (${where}) at version ${version} cannot be applied: ${problem}. Start this replica with the build and options the fleet runs.`,
  logHalted: (reason: string) => `The write was not applied: this replica stopped applying the write log. ${reason}`,
  logNoRoute: (route: string) => `The write log names no write ${JSON.stringify(route)} of this build`,
  logDiverged: (where: string, has: number, applied: number) =>
    `The write was not applied: the write log (${where}) holds ${has} entries but this replica applied ${applied} (the log was lost or emptied); restart every replica on a new log`,
  versionNotReached: (wanted: number, applied: number, waitedMs: number) =>
    `This replica has applied the write log up to version ${applied}, not yet ${wanted} (X-Callrec-Version), after waiting ${waitedMs} ms; try again`,
  versionAhead: (wanted: number, head: number) =>
    `X-Callrec-Version ${wanted} is beyond the write log's last version (${head}): it names no write made here`,
  unknownState: (name: string, known: readonly string[]) =>
    `Unknown provider state ${JSON.stringify(name)}; the states file has ${known.map((k) => JSON.stringify(k)).join(', ')}`,
  // Twilio's dialect: its own words where Twilio's are known (twilio-python #395, its 401 and 404).
  twilioAuthenticate: 'Authenticate',
  twilioNotFound: (path: string) => `The requested resource ${path} was not found`,
  twilioPageTokenRequired: 'PageToken is required for paging.',
  twilioPageSize: (got: string) => `PageSize must be an integer from 1 to 1000, got ${q(got)}`,
  twilioPage: (got: string) => `Page must be a non-negative integer, got ${q(got)}`,
  twilioPageToken: (got: string, prefix: string) =>
    `Invalid PageToken ${q(got)}: this list's cursors are PA or PB and the sid of one of its ${prefix} records`,
  twilioDate: (name: string, got: string) =>
    `${name} must be a date (YYYY-MM-DD) or a date and time (2009-07-06T20:30:00Z, with an offset, or without a zone for UTC), got ${q(got)}`,
  twilioEnum: (name: string, values: readonly string[], got: string) =>
    `${name} must be one of ${values.join(', ')}, got ${q(got)}`,
  twilioBoolean: (name: string, got: string) => `${name} must be true or false, got ${q(got)}`,
  twilioCreateTo: "No 'To' number is specified",
  twilioCreateFrom: "No 'From' number is specified",
  twilioCreateUrl: "A 'Url', 'Twiml' or 'ApplicationSid' parameter is required",
  twilioRecordingInProgress:
    'RecordingStatusCallbackEvent in-progress is not emulated yet: the emulator calls back on completed and absent',
  twilioUpdateStatus: (got: string) => `Status must be canceled or completed, got ${q(got)}`,
  twilioNotInProgress: 'Call is not in-progress. Cannot redirect.',
  twilioMp3:
    "A recording's audio as MP3 is not emulated yet: ask for it as .wav or with no suffix (WAV, Twilio's default)",
  // Warnings: what production ignores or reads differently, said in a header and the journal.
  repeatedParameter: (name: string) => `Parameter ${name} is given more than once; the first value counts`,
  caseSensitiveParameter: (name: string, meant: string) =>
    `Parameter ${JSON.stringify(name)} is ignored: names are case-sensitive (did you mean ${meant}?)`,
  afterSidOther: (given: string, follows: string | undefined) =>
    `AfterSid ${JSON.stringify(given)} is ignored, as in production: only Page and PageSize select the page, and this page ${follows === undefined ? 'is the first' : `follows ${follows}`}`,
  subAccountsNotTrue: (got: string) =>
    `SubAccounts=${got} is read as false, as in production: only true (any case) includes the sub-accounts' records`,
  unknownParameter: (name: string, known: readonly string[]) =>
    `Parameter ${JSON.stringify(name)} is ignored: this list reads ${known.join(', ')}`,
  emptySortBy: 'Empty SortBy is ignored; the default order (date_created descending) applies',
  unknownSortAttribute: (field: string, attributes: readonly string[], meant: string | undefined) =>
    `SortBy attribute ${JSON.stringify(field)} is not one of ${attributes.join(', ')}` +
    `${meant === undefined ? '' : ` (attribute names are case-sensitive: did you mean ${meant}?)`}` +
    '; production ignores it and uses the default order',
} as const;
