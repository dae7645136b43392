import type { Response } from 'express';

/** Pages with more items than this are streamed instead of built as one string. */
export const STREAM_THRESHOLD = 1000;
/** Items rendered per write while streaming. */
const CHUNK_ITEMS = 256;

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
 * string with a Content-Length. A large one (production has no maximum PageSize, and its own
 * console asks for 99999999) is rendered and written in chunks, waiting for `drain` whenever the
 * socket is full, so memory stays flat and a slow reader slows the writer down.
 */
export async function sendPage(
  res: Response,
  head: string,
  tail: string,
  count: number,
  renderItem: (k: number) => string,
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'application/json');
  if (count <= STREAM_THRESHOLD) {
    const items: string[] = new Array<string>(count);
    for (let k = 0; k < count; k++) items[k] = renderItem(k);
    const body = head + items.join(',') + tail;
    res.setHeader('Content-Length', Buffer.byteLength(body));
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
