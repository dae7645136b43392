import type { IncomingMessage } from 'node:http';
import type { CachedResponse } from '../cache/render-cache';

/**
 * One request as the front door saw it arrive, and what the route reports back: the URL split
 * once, the warnings the answer carried (for the journal), and, for a response the cache may
 * keep, where to hand it. Routes read and fill it; they never hang state on the response.
 */
export interface Exchange {
  method: string;
  /** The path as sent, before any decoding. */
  path: string;
  /** The raw query string, as sent (parameter names are case-sensitive: no parser touches it). */
  query: string;
  /** What production ignores or reads differently that this request relied on. */
  warnings: readonly string[];
  /** Set by the front door when the response may be cached: the route hands it a built response. */
  keep: ((response: CachedResponse) => void) | null;
}

const exchanges = new WeakMap<IncomingMessage, Exchange>();

/** Opens the exchange of a request: called once, by the front door. */
export function openExchange(req: IncomingMessage): Exchange {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const exchange: Exchange = {
    method: req.method ?? 'GET',
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? '' : url.slice(q + 1),
    warnings: [],
    keep: null,
  };
  exchanges.set(req, exchange);
  return exchange;
}

/** The request's exchange (opened now if the request did not come through the front door). */
export function exchangeOf(req: IncomingMessage): Exchange {
  return exchanges.get(req) ?? openExchange(req);
}
