import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CachedResponse } from '../cache/render-cache';
import type { WalkPage } from '../query/walk';

/**
 * One request as the front door saw it arrive, and what the route reports back: the URL split
 * once, the warnings the answer carried (for the journal), and, for a response the cache may
 * keep, where to hand it. Routes read and fill it; they never hang state on the response.
 */
export interface Exchange {
  method: string;
  /** The path as sent, before any decoding. */
  path: string;
  /** The path percent-decoded (as sent where it is not valid percent-encoding): what faults match. */
  decodedPath: string;
  /** The account sid of an API path, decoded, as express will read it; null elsewhere. */
  account: string | null;
  /** The raw query string, as sent (parameter names are case-sensitive: no parser touches it). */
  query: string;
  /** When the request arrived (performance.now(), ms; a double, no BigInt to allocate): for durations, never for data. */
  started: number;
  /** What production ignores or reads differently that this request relied on. */
  warnings: readonly string[];
  /** Set by the front door when the response may be cached: the route hands it a built response. */
  keep: ((response: CachedResponse) => void) | null;
  /** A page of a list, as a client walks it: set by the list route, kept by the journal. */
  walk: WalkPage | null;
  /**
   * Headers handed straight to `writeHead` (a cached answer, an injected one), which node does
   * not keep where `getHeaders()` finds them: the journal's detail reads them here.
   */
  sentHeaders: Readonly<Record<string, string | number>> | readonly string[] | null;
  /**
   * The body sent (a streamed page: its first chunk), as the sender had it: no copy is made on
   * the way out; the journal copies what it keeps of it when the response closes.
   */
  sentBody: Buffer | string | null;
  /** The body sent lives on elsewhere (the response cache holds it). */
  sentBodyShared: boolean;
}

/**
 * Where a request keeps its exchange: a symbol-keyed property of its own, not a WeakMap, whose
 * entries for tens of thousands of short-lived requests a second cost the collector more than
 * everything else the front door does.
 */
const EXCHANGE = Symbol('exchange');
type WithExchange = IncomingMessage & { [EXCHANGE]?: Exchange };
/**
 * The account segment under any mount (`/call`, `/restcomm`, none), also as `Accounts.json/{sid}`,
 * and under Twilio's `/2010-04-01` (`Accounts/{sid}.json` its account resource).
 */
const ACCOUNT_IN_PATH =
  /^(?:(?:\/call|\/restcomm)?\/2012-04-24|\/2010-04-01)\/Accounts(?:\.json)?\/([^/]+?)(?:\.json)?(?:\/|$)/;

/** Percent-decoded, or as it is when it is not valid percent-encoding (express answers that 400). */
function decoded(text: string): string {
  // Most paths hold no escape: the common request pays no decoding.
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The path of a request's URL as it stands now (the front door may have moved a `.json`), query cut off.
 * @example urlPath('/call/2012-04-24/Accounts/AC1/Calls.json?Page=1') // '/call/2012-04-24/Accounts/AC1/Calls.json'
 */
export function urlPath(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Opens the exchange of a request: called once, by the front door. */
export function openExchange(req: IncomingMessage): Exchange {
  const url = req.url ?? '/';
  const path = urlPath(url);
  const account = ACCOUNT_IN_PATH.exec(path)?.[1];
  const exchange: Exchange = {
    method: req.method ?? 'GET',
    path,
    decodedPath: decoded(path),
    account: account === undefined ? null : decoded(account),
    query: url.slice(path.length + 1),
    started: performance.now(),
    warnings: [],
    keep: null,
    walk: null,
    sentHeaders: null,
    sentBody: null,
    sentBodyShared: false,
  };
  (req as WithExchange)[EXCHANGE] = exchange;
  return exchange;
}

/**
 * Notes the body a response sends, for the journal's detail: by reference, so that sending pays
 * nothing for it; `shared` when it lives on elsewhere (the response cache keeps it). Responses
 * that no front door opened an exchange for are left alone.
 */
export function noteBody(res: ServerResponse, body: Buffer | string, shared = false): void {
  const exchange = (res.req as WithExchange | undefined)?.[EXCHANGE];
  if (exchange !== undefined && exchange.sentBody === null) {
    exchange.sentBody = body;
    exchange.sentBodyShared = shared;
  }
}

/** The request's exchange (opened now if the request did not come through the front door). */
export function exchangeOf(req: IncomingMessage): Exchange {
  return (req as WithExchange)[EXCHANGE] ?? openExchange(req);
}

/**
 * Header values must be visible ASCII; warnings quote what the client sent, so anything else is
 * escaped rather than allowed to break the response.
 * @example headerSafe('café') // 'caf\\u00e9'
 */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The header a write answers with its log version, and any request may send back (see the front door). */
export const VERSION_HEADER = 'X-Callrec-Version';
