import type { ServerResponse } from 'node:http';
import { nextTurn } from './slices';

/** Resolves when the socket wants more, or is gone; leaves no listener behind. */
export function drainOrClose(res: ServerResponse): Promise<void> {
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
 * Writes a body made a chunk at a time by `chunks` (which does the work of each chunk when asked
 * for it), waiting for `drain` whenever the socket is full and taking a turn of the event loop
 * after every chunk: memory stays flat, a slow reader slows the writer, and other requests are
 * answered meanwhile. A client that leaves stops it.
 * @example await writeChunks(res, (function* () { yield '['; yield ']'; })())
 */
export async function writeChunks(res: ServerResponse, chunks: Iterator<string>): Promise<void> {
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  for (let step = chunks.next(); step.done !== true && !closed; step = chunks.next()) {
    if (!res.write(step.value) && !closed) await drainOrClose(res);
    await nextTurn();
  }
  if (!closed) res.end();
}
