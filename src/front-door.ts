import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { FleetLink, Gathered } from './admin/log-transport';
import type { WriteLog } from './admin/write-log';
import type { RenderCache } from './cache/render-cache';
import { ApiError, messages, problems } from './errors';
import type { FaultAction, Faults } from './faults/faults';
import type { ErrorBodyBuilder } from './format/envelopes';
import { ADMIN } from './format/uris';
import { writeError } from './http/error-handler';
import { type Exchange, openExchange } from './http/exchange';
import { METRICS_PATH, type Metrics, routeOf } from './http/metrics';
import type { Journal } from './journal/journal';
import type { RequestLogger } from './logger';
import type { Lane } from './routes/list-lane';
import type { World } from './store/world';

/** The header the inspector sends on its API requests (any value): see the front door. */
export const INSPECTOR_HEADER = 'x-emulator-inspector';
/** The inspector's pages: what the `Referer` of an `<audio>` it plays (which sends no header of ours) names. */
const INSPECTOR_PAGE = `${ADMIN}/ui`;

/** Whether the inspector sent a request: its header, or (for media elements) a page of it as the referrer. */
function fromInspector(req: IncomingMessage): boolean {
  if (req.headers[INSPECTOR_HEADER] !== undefined) return true;
  const referer = req.headers.referer;
  if (referer === undefined) return false;
  const at = referer.indexOf(INSPECTOR_PAGE);
  // The referrer's path, right after its origin, is an inspector page (`http://host:port/__admin/ui…`).
  return at > 0 && referer.startsWith('http') && referer.indexOf('/', referer.indexOf('//') + 2) === at;
}

export interface FrontDoorDeps {
  /** Where every request that gets through goes: the express app. */
  next: RequestListener;
  /** What may serve a request before express (the list lane), or null. */
  lane: Lane | null;
  world: World;
  journal: Journal;
  faults: Faults;
  cache: RenderCache;
  /** Request logs; none when null. */
  logger: RequestLogger | null;
  /** Counts every request, and answers `GET /metrics`. */
  metrics: Metrics;
  /** The write log: a request carrying X-Callrec-Version waits for this replica to apply it. */
  log: WriteLog;
  /** How long it waits before a 503. */
  versionWaitMs: number;
  /** The fleet this process is one of, when there is one: a scrape answers for all of it. */
  fleet: FleetLink | null;
  /** Where an error of the emulator's own is reported (the one error writer's). */
  onInternal: (err: unknown) => void;
  /** The dialect's error body (default: `{"message"}`). */
  errorBody?: ErrorBodyBuilder;
}

/** The request header naming the log version a request must see (a write's answer gave it). */
const VERSION_WANTED = 'x-callrec-version';

/**
 * What a list response depends on besides the state: the method, the whole URL (path and raw
 * query), the credentials, and the Accept header on a path without `.json`. Null for requests
 * that are never cached.
 * @example responseKey(req, exchange) // 'GET\u0000/call/2012-04-24/Accounts/AC…/Calls.json?Page=1\u0000Basic Y2Rj…\u0000'
 */
export function responseKey(req: IncomingMessage, ex: Exchange): string | null {
  if (ex.method !== 'GET' || ex.path.startsWith(ADMIN)) return null;
  const accept = ex.path.endsWith('.json') ? '' : (req.headers.accept ?? '');
  return `GET\u0000${req.url ?? ''}\u0000${req.headers.authorization ?? ''}\u0000${accept}`;
}

/**
 * Production's AcceptFilter strips `.json` from every path segment and then answers JSON, so
 * `…/Calls.json/{CallSid}` is the call, as two Restcomm SDKs build it. The same here: a `.json`
 * on a segment before the last moves to the last, which routes (and negotiates) as production
 * resolves it. Null when there is nothing to move.
 * @example acceptPath('/call/2012-04-24/Accounts/AC1/Calls.json/ID1-CA2') // '/call/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json'
 */
export function acceptPath(path: string): string | null {
  if (path.startsWith(ADMIN)) return null;
  const segments = path.split('/');
  const inner = segments.slice(0, -1);
  // A trailing slash is another path (a 404), as before: nothing to move it to.
  if (segments[segments.length - 1] === '' || !inner.some((s) => s.endsWith('.json'))) return null;
  const last = (segments[segments.length - 1] ?? '').replace(/\.json$/, '');
  return [...inner.map((s) => s.replace(/\.json$/, '')), `${last}.json`].join('/');
}

/**
 * A path as production's servlet container maps it: consecutive slashes merged (Tomcat's and
 * JBoss Web's normalization), so `/restcomm//2012-04-24/Accounts/AC1/Calls.json` is the list.
 * @example containerPath('/call//2012-04-24/Accounts/AC1//Calls.json') // '/call/2012-04-24/Accounts/AC1/Calls.json'
 */
export function containerPath(path: string): string {
  return path.includes('//') ? path.replace(/\/{2,}/g, '/') : path;
}

/** Milliseconds since the request arrived, to the hundredth. */
const elapsedMs = (ex: Exchange) => Math.round((performance.now() - ex.started) * 100) / 100;

/** The one line a request leaves: `GET /call/… 200 1.2 ms`, then its warnings. */
function requestLine(ex: Exchange, status: number, ms: number): string {
  const warned = ex.warnings.length === 0 ? '' : ` (${ex.warnings.join('; ')})`;
  // The query as sent (Page=1 and Page=2 are told apart), cut as the journal cuts it.
  const query = ex.query === '' ? '' : `?${ex.query.length > 1024 ? `${ex.query.slice(0, 1024)}…` : ex.query}`;
  return `${ex.method} ${ex.path}${query} ${status} ${ms} ms${warned}`;
}

/**
 * A request log a person can read and a collector can parse: one entry a request when it ends,
 * its level by what happened (5xx, or no response at all, error; 4xx or a warning warn; the rest
 * info), and only the fields that say what happened. Nothing is built for a level that is off,
 * and headers are never logged: writing every header was most of the log's cost, and no token
 * can leak from what is not written. Null when there is no logger.
 * @example requestLog(logger)?.(req, res, ex) // {"level":30,"req":{"id":1,"method":"GET","url":"/call/…"},"res":{"statusCode":200},"responseTime":1.2,"msg":"GET /call/… 200 1.2 ms"}
 */
function requestLog(logger: RequestLogger | null) {
  if (logger === null) return null;
  let ids = 0;
  return (req: IncomingMessage, res: ServerResponse, ex: Exchange): void => {
    const id = ++ids;
    const status = res.writableFinished ? res.statusCode : 0;
    const level = status >= 500 || status === 0 ? 'error' : status >= 400 || ex.warnings.length > 0 ? 'warn' : 'info';
    if (!logger.enabled(level)) return;
    const ms = elapsedMs(ex);
    logger.log(level, { id, method: ex.method, url: req.url ?? '', status, ms, msg: requestLine(ex, status, ms) });
  };
}

/** Writes an injected response or cuts the connection, as a fault says. */
function act(action: FaultAction, req: IncomingMessage, res: ServerResponse, ex: Exchange, proceed: () => void): void {
  if (action.cut === 'connection_reset') {
    // An RST, as a crashed or overloaded upstream gives: the client sees ECONNRESET.
    req.socket.resetAndDestroy();
  } else if (action.cut === 'empty_response') {
    // The connection closes with no byte of a response.
    req.socket.end();
  } else if (action.respond !== undefined) {
    const { status, body, headers } = action.respond;
    ex.sentHeaders = { ...headers, 'Content-Length': Buffer.byteLength(body) };
    res.writeHead(status, ex.sentHeaders);
    ex.sentBody = body;
    res.end(body);
  } else {
    proceed();
  }
}

/**
 * `GET /metrics` (or HEAD): Prometheus's text format, or OpenMetrics when the scraper's Accept
 * asks for it, as Prometheus itself negotiates. Any other method is a 405.
 */
async function scrape(
  metrics: Metrics,
  fleet: FleetLink | null,
  req: IncomingMessage,
  res: ServerResponse,
  refuse: (res: ServerResponse, err: ApiError) => void,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return refuse(
      res,
      new ApiError(405, messages.methodNotAllowed(req.method ?? '', 'GET, HEAD'), { Allow: 'GET, HEAD' }),
    );
  const open = /application\/openmetrics-text/.test(req.headers.accept ?? '');
  const { AggregatorRegistry, Registry } = await import('prom-client');
  const registry = await metrics.registry();
  const type = open ? Registry.OPENMETRICS_CONTENT_TYPE : Registry.PROMETHEUS_CONTENT_TYPE;
  // The registry reads its format as metrics() begins: a scrape of the other kind meanwhile cannot mix them.
  registry.setContentType(type);
  let body: string;
  if (fleet === null) {
    body = await registry.metrics();
  } else {
    // A fleet's scrape is the fleet's: any worker (or replica) behind the port answers the same
    // sums, so counters never seem to reset as scrapes land on one process, then another.
    let gathered: Gathered[];
    try {
      gathered = await fleet.gather('metrics', '');
    } catch (err) {
      return refuse(res, err instanceof ApiError ? err : new ApiError(503, String(err)));
    }
    const all = AggregatorRegistry.aggregate(
      gathered.map((g) => g.answer as MetricObjectWithValues<MetricValue<string>>[]),
    );
    all.setContentType(type);
    body = await all.metrics();
  }
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * The front door: every request passes here first, and in this order meets the request log, the
 * journal (which notes each API request when it closes), injected faults, and the response cache
 * (a list response already rendered for the same URL, credentials and state is written straight
 * back: routing costs more than the write), then the list lane (a list page served without
 * express, which costs more than rendering it). Everything else goes on to express. Admin requests
 * are logged but neither journaled nor faulted.
 */
export function frontDoor(deps: FrontDoorDeps): RequestListener {
  const { next, world, journal, faults, cache, metrics } = deps;
  // Every error answer leaves through the one writer (http/error-handler.ts), as express's do.
  const refuse = (res: ServerResponse, err: ApiError) => writeError(err, res, deps.onInternal, deps.errorBody);
  const log = requestLog(deps.logger);
  const count = (req: IncomingMessage, res: ServerResponse, ex: Exchange) =>
    metrics.observe(
      routeOf(ex.path),
      req.method ?? '',
      res.writableFinished ? res.statusCode : 0,
      elapsedMs(ex) / 1000,
    );

  const proceed = (req: IncomingMessage, res: ServerResponse, ex: Exchange): void => {
    cache.sync(world.version);
    const key = responseKey(req, ex);
    if (key !== null) {
      const hit = cache.responses.get(key);
      if (hit !== undefined) {
        cache.sighted(hit);
        ex.warnings = hit.warnings;
        ex.walk = hit.walk ?? null;
        ex.sentHeaders = hit.headers;
        ex.sentBody = hit.body;
        ex.sentBodyShared = true;
        res.writeHead(200, hit.headers);
        res.end(hit.body);
        return;
      }
      if (cache.admits(key)) {
        // A page is built from the state it was asked of. One that waited (an order built in
        // slices, a page thread) while a write went by and another request emptied the cache
        // would otherwise be kept, as it was, for a state it does not show.
        const version = world.version;
        ex.keep = (response) => {
          if (world.version !== version) return;
          // What the entry holds: the body, the key (two bytes a character at most), the ids the
          // walks report reads, the headers and warnings (counted, where they were not before).
          let bytes = response.body.length + 2 * key.length + 4 * (ex.walk?.ids.length ?? 0) + 256;
          for (const h of response.headers) bytes += 2 * h.length + 32;
          for (const w of response.warnings) bytes += 2 * w.length + 32;
          cache.keep(key, { ...response, walk: ex.walk }, bytes);
        };
      }
    }
    if (deps.lane === null || !deps.lane(req, res)) next(req, res);
  };

  const enter = (req: IncomingMessage, res: ServerResponse): void => {
    // --clock-rate: the clock catches up with wall time before anything reads it.
    world.tick();
    const ex = openExchange(req);
    // The journal keeps the path as sent; routing (and the response cache) sees production's:
    // its container's (slashes merged), then its AcceptFilter's.
    const path = containerPath(ex.path);
    const accepted = acceptPath(path) ?? (path === ex.path ? null : path);
    if (accepted !== null) req.url = ex.query === '' ? accepted : `${accepted}?${ex.query}`;
    if (path === METRICS_PATH) {
      // A scrape is not a client's request: neither journaled, faulted nor counted.
      void scrape(metrics, deps.fleet, req, res, refuse);
      return;
    }
    if (path.startsWith(ADMIN)) {
      res.on('close', () => {
        log?.(req, res, ex);
        count(req, res, ex);
      });
      next(req, res);
      return;
    }
    // Wall-clock time is for the journal and rate windows only; it never shapes data.
    const arrivedMs = Date.now();
    // The inspector's own requests are a person looking, not the client under test: no fault
    // meant for the client is spent on them, and no walk is made of them.
    const inspector = fromInspector(req);
    const claimed = inspector
      ? null
      : faults.claim({ method: ex.method, path: ex.decodedPath, account: ex.account }, arrivedMs);
    let action: FaultAction | null = null;
    res.on('close', () => {
      log?.(req, res, ex);
      count(req, res, ex);
      journal.add({
        arrivedMs,
        method: ex.method,
        path: ex.path,
        query: ex.query,
        account: ex.account,
        status: res.writableFinished ? res.statusCode : 0,
        duration_ms: elapsedMs(ex),
        warnings: ex.warnings,
        fault: action === null ? null : { id: action.id, effect: action.effect },
        walk: res.statusCode === 200 && !inspector ? ex.walk : null,
        credentials: ex.walk === null || inspector ? null : (req.headers.authorization ?? ''),
        inspector,
        requestHeaders: req.rawHeaders,
        // A copy (node hands one out): the answer's headers as they went, for the journal's detail.
        responseHeaders: res.headersSent ? (ex.sentHeaders ?? res.getHeaders()) : undefined,
        // A HEAD answer sends no body, whatever the route wrote.
        body: ex.method === 'HEAD' ? null : ex.sentBody,
        bodyShared: ex.sentBodyShared,
      });
    });
    const go = (a: FaultAction | null) => {
      action = a;
      if (a === null) {
        proceed(req, res, ex);
      } else if (a.delayMs > 0) {
        setTimeout(() => act(a, req, res, ex, () => proceed(req, res, ex)), a.delayMs);
      } else {
        act(a, req, res, ex, () => proceed(req, res, ex));
      }
    };
    if (!(claimed instanceof Promise)) {
      go(claimed);
      return;
    }
    // A fleet's fault counters are elsewhere: a request a fault may touch waits on them, and
    // when they cannot be reached it is told so (a fault the test set is never silently skipped).
    claimed.then(go, (err: unknown) =>
      refuse(
        res,
        err instanceof ApiError ? err : new ApiError(503, messages.logUnavailable('the fault counters', String(err))),
      ),
    );
  };

  // Read-your-write across replicas: a request naming a version is let in once this replica has
  // applied it, so a client that sends back what its write answered never sees the world before.
  return (req, res) => {
    const wanted = req.headers[VERSION_WANTED];
    if (wanted === undefined) return enter(req, res);
    const text = Array.isArray(wanted) ? (wanted[0] ?? '') : wanted;
    if (!/^[0-9]{1,15}$/.test(text)) {
      return refuse(
        res,
        new ApiError(400, `X-Callrec-Version: ${problems.intRange(0, Number.MAX_SAFE_INTEGER, text)}`),
      );
    }
    const version = Number(text);
    if (deps.log.version >= version) return enter(req, res);
    void deps.log.waitFor(version, deps.versionWaitMs).then((reached) => {
      if (reached) enter(req, res);
      else refuse(res, new ApiError(503, messages.versionNotReached(version, deps.log.version, deps.versionWaitMs)));
    });
  };
}
