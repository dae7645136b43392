import type { ServerResponse } from 'node:http';
import { bodies } from '../cache/body-pool';
import type { CachedResponse } from '../cache/render-cache';
import { noteBody } from '../http/exchange';
import { nextTurn } from '../http/slices';
import { drainOrClose } from '../http/stream';

/** Pages with more items than this are streamed instead of built in memory. */
export const STREAM_THRESHOLD = 1000;
/** Items rendered per write while streaming. */
const CHUNK_ITEMS = 256;

/** The body's format: JSON, or (Restcomm dialect, no `.json`) production's XML. */
export type WireFormat = 'json' | 'xml';

/** Each format's media type and what stands between two items of a list. */
const FORMATS: Readonly<Record<WireFormat, { type: string; between: string }>> = {
  json: { type: 'application/json', between: ',' },
  // XStream writes each item on its own line, indented: nothing goes between them.
  xml: { type: 'application/xml', between: '' },
};

/** What stands between two items of a list in this format. @example between('json') // ',' */
export function between(format: WireFormat): string {
  return FORMATS[format].between;
}

/** A whole body, complete, with the type production sends for its format. */
export function sendBody(res: ServerResponse, format: WireFormat, body: string): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', FORMATS[format].type);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  noteBody(res, body);
  res.end(body);
}

/** The response's headers as node's flat [name, value, …] list, repeated names kept. */
function flatHeaders(res: ServerResponse): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    for (const v of Array.isArray(value) ? value : [value]) flat.push(name, String(v));
  }
  return flat;
}

/** A pooled buffer of `bytes` bytes (see body-pool.ts). */
const pooled = (bytes: number) => bodies.take(bytes);

/**
 * Sends a page built in memory (its items joined, or a slice of a run: see rendered-run.ts) with
 * a Content-Length. `build` writes it into the buffer `alloc` gives. The response goes to `keep`,
 * for the response cache, and its body then lives on; a body sent once is built in a buffer of
 * the pool, given back once the socket is done with it and the journal has noted it.
 */
export function sendBuilt(
  res: ServerResponse,
  format: WireFormat,
  build: (alloc: (bytes: number) => Buffer) => Buffer,
  warnings: readonly string[],
  keep: ((response: CachedResponse) => void) | null,
): void {
  const body = build(keep === null ? pooled : Buffer.allocUnsafe);
  res.statusCode = 200;
  res.setHeader('Content-Type', FORMATS[format].type);
  res.setHeader('Content-Length', body.length);
  keep?.({ headers: flatHeaders(res), body, warnings });
  noteBody(res, body, keep !== null);
  if (keep !== null) {
    res.end(body);
    return;
  }
  // 'finish' follows the socket's callback for the last write: the bytes were written, or the
  // write was cancelled as the socket closed; either way it holds the buffer no longer. An answer
  // that never began (queued behind one cut short) never finishes, and is left to the collector.
  // The buffer goes back at 'close', after the journal has copied what it keeps of it: given back
  // at 'finish', the next page built before 'close' could take it and write over it.
  res.end(body, () => res.once('close', () => bodies.give(body)));
}

/**
 * Streams a large page (production has no maximum PageSize, and its own console asks for
 * 99999999): items are rendered and written in chunks, waiting for `drain` whenever the socket is
 * full, so memory stays flat and a slow reader slows the writer down. A client that leaves stops it.
 */
export async function streamPage(
  res: ServerResponse,
  format: WireFormat,
  head: string,
  tail: string,
  count: number,
  renderItem: (k: number) => string,
): Promise<void> {
  res.statusCode = 200;
  res.setHeader('Content-Type', FORMATS[format].type);
  if (res.req.method === 'HEAD') {
    res.end();
    return;
  }
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  noteBody(res, head);
  res.write(head);
  for (let k = 0; k < count && !closed; k += CHUNK_ITEMS) {
    const stop = Math.min(count, k + CHUNK_ITEMS);
    const { between } = FORMATS[format];
    let chunk = k === 0 ? '' : between;
    for (let i = k; i < stop; i++) chunk += (i === k ? '' : between) + renderItem(i);
    if (!res.write(chunk) && !closed) await drainOrClose(res);
    // A fast reader drains the socket at once, and 'drain' comes on process.nextTick, which lets
    // no other connection in: take a turn of the event loop after every chunk, drained or not.
    await nextTurn();
  }
  if (!closed) res.end(tail);
}
