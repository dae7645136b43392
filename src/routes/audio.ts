import type { Express, RequestHandler } from 'express';
import { ApiError, messages } from '../errors';
import { parseRange, WAV_HEADER_BYTES, wavBytes, wavHeader } from '../format/wav';
import { recordingAudio, SAMPLE_RATE } from '../generators/audio';
import { methodNotAllowed } from '../http/error-handler';
import { nextTurn, runSliced } from '../http/slices';
import { drainOrClose } from '../http/stream';
import type { Work } from '../store/order';
import type { World } from '../store/world';

/** Bytes rendered per write: memory stays flat however long the recording. */
const CHUNK_BYTES = 64 * 1024;
/** Bytes made between yields: a quarter of a chunk, about half a millisecond of samples. */
const PIECE_BYTES = 16 * 1024;

/** Bytes `start`..`end` of the file into `into`, a piece at a time (see `wavBytes`). */
function* fill(header: Buffer, sample: (n: number) => number, start: number, end: number, into: Buffer): Work<Buffer> {
  for (let b = start; b <= end; b += PIECE_BYTES) {
    wavBytes(header, sample, b, Math.min(end, b + PIECE_BYTES - 1), into.subarray(b - start));
    if (b + PIECE_BYTES <= end) yield;
  }
  return into.subarray(0, end - start + 1);
}

/**
 * `GET`/`HEAD …/Recordings/{RecordingSid}.wav`: the recording's audio, a PCM WAVE file (8 kHz,
 * mono, 16-bit) as long as its `duration`, to the sample. No auth, as production leaves this
 * path open. One byte range is honoured (206); a file is never held whole in memory. `paths`
 * are the routes it answers at (`:accountSid` and `:recordingSid` in each).
 */
export function mountAudio(app: Express, world: World, paths: readonly string[]): void {
  const serve: RequestHandler = async (req, res) => {
    const accountSid = String(req.params['accountSid']);
    const sid = String(req.params['recordingSid']);
    const account = world.account(accountSid);
    const id = account?.recordings.find(sid);
    if (account === undefined || id === undefined) throw new ApiError(404, messages.noRecording(accountSid, sid));
    const rec = account.recordings.get(id);
    const audio = recordingAudio(rec.sid);
    // A production row's NULL duration (an HSQLDB script may hold one) is an empty file.
    const samples = audio.samples(Number.isFinite(rec.duration) ? Math.max(0, rec.duration) : 0);
    const header = wavHeader(samples, SAMPLE_RATE);
    const size = WAV_HEADER_BYTES + samples * 2;
    const range = parseRange(req.get('range'), size);
    if (range === 'unsatisfiable') {
      throw new ApiError(416, messages.rangeNotSatisfiable(size), { 'Content-Range': `bytes */${size}` });
    }
    const start = range === null ? 0 : range.start;
    const end = range === null ? size - 1 : range.end;
    res.status(range === null ? 200 : 206);
    res.setHeader('Content-Type', 'audio/wav');
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Length', end - start + 1);
    if (range !== null) res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    let closed = false;
    const gone = new Promise<void>((done) =>
      res.once('close', () => {
        closed = true;
        done();
      }),
    );
    // Two buffers in turn: one is being written while the other is filled, and a buffer is
    // refilled only once its previous write has been flushed. Memory stays at 128 KB a download.
    const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
    const flushed: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
    for (let b = start, k = 0; b <= end && !closed; b += CHUNK_BYTES, k ^= 1) {
      await Promise.race([flushed[k], gone]);
      if (closed) break;
      // Made as work in slices, so that all downloads together take their share of a turn
      // (about 8 ms, with every order build), not a chunk each: 32 at once held health 765 ms.
      const chunk = await runSliced(
        fill(header, audio.sample, b, Math.min(end, b + CHUNK_BYTES - 1), buffers[k] as Buffer),
      );
      flushed[k] = new Promise((done) => res.write(chunk, () => done()));
      // Write callbacks and 'drain' come on process.nextTick, which lets no other connection
      // in: take a turn of the event loop after every chunk.
      if (res.writableNeedDrain && !closed) await drainOrClose(res);
      await nextTurn();
    }
    await Promise.race([Promise.all(flushed), gone]);
    if (!closed) res.end();
  };
  for (const path of paths) {
    app.get(path, serve);
    app.all(path, methodNotAllowed('GET, HEAD'));
  }
}
