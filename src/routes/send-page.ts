import type { Response } from 'express';
import type { CachedResponse } from '../cache/render-cache';

/** Pages with more items than this are streamed instead of built as one string. */
export const STREAM_THRESHOLD = 1000;
/** Items rendered per write while streaming. */
const CHUNK_ITEMS = 256;

/** The response's headers as node's flat [name, value, …] list, repeated names kept. */
function flatHeaders(res: Response): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    for (const v of Array.isArray(value) ? value : [value]) flat.push(name, String(v));
  }
  return flat;
}

/** Resolves when the socket wants more, or is gone; leaves no listener behind. */
function drainOrClose(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a list body: `head`, the items separated by commas, `tail`. A small page is sent as one
 * buffer with a Content-Length, and handed to `keep` for the response cache. A large one (production has no maximum PageSize, and its own
 * console asks for 99999999) is rendered and written in chunks, waiting for `drain` whenever the
 * socket is full, so memory stays flat and a slow reader slows the writer down.
 */
export async function sendPage(
  res: Response,
  head: string,
  tail: string,
  count: number,
  renderItem: (k: number) => string,
  keep?: (response: CachedResponse) => void,
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'application/json');
  if (count <= STREAM_THRESHOLD) {
    const items: string[] = new Array<string>(count);
    for (let k = 0; k < count; k++) items[k] = renderItem(k);
    const body = Buffer.from(head + items.join(',') + tail);
    res.setHeader('Content-Length', body.length);
    keep?.({ headers: flatHeaders(res), body });
    res.end(body);
    return;
  }
  if (res.req.method === 'HEAD') {
    res.end();
    return;
  }
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  res.write(head);
  for (let k = 0; k < count && !closed; k += CHUNK_ITEMS) {
    const stop = Math.min(count, k + CHUNK_ITEMS);
    let chunk = k === 0 ? '' : ',';
    for (let i = k; i < stop; i++) chunk += (i === k ? '' : ',') + renderItem(i);
    if (!res.write(chunk) && !closed) {
      await drainOrClose(res);
    }
  }
  if (!closed) res.end(tail);
}
