import { type PageSource, pageThreads } from '../../cache/page-threads';
import { isSeededId } from '../../store/overlay';
import { sendBuilt } from '../send-page';
import { asBytesWanted } from './as-bytes';
import type { PageJob, PageWriter } from './page';

/** `head`, `items` and `tail` in one buffer from `alloc`. */
function framed(head: string, items: Buffer, tail: string, alloc: (bytes: number) => Buffer): Buffer {
  const headBytes = Buffer.byteLength(head);
  const body = alloc(headBytes + items.length + Buffer.byteLength(tail));
  body.write(head, 0);
  items.copy(body, headBytes);
  body.write(tail, headBytes + items.length);
  return body;
}

/**
 * What a page thread needs to write a page of one account's records, from the ids the walk notes
 * (made once), or null when any of them is not seeded: an insert or an arrival lives in this
 * thread alone.
 */
function threadSource<R>(job: PageJob<R>, ids: Uint32Array): PageSource | null {
  const { account, order, window } = job;
  // The walk's ids, read once already: asking the order for each item again costs a look-up and an object per item.
  for (let k = 0; k < ids.length; k++) if (!isSeededId(ids[k] as number)) return null;
  const { seed, clockMs } = account.context;
  return {
    seed,
    clockMs,
    dataOf: account.profile.dataOf,
    accountSid: account.profile.sid,
    ids,
    firstSid: () => (order.item(window.offset).record() as { sid: string }).sid,
  };
}

/**
 * A page of one account's seeded records, of a list whose wire page threads can write (calls),
 * written by a page thread while this one serves (see cache/page-threads.ts). Declines when the
 * threads are busy past their backlog, or any item is not seeded: the next writer writes it here.
 */
export const onPageThread: PageWriter = async (job) => {
  const walk = job.walk;
  if (walk === null || job.wire.pageThreads !== true || !asBytesWanted(job)) return false;
  const threaded = pageThreads.offer(job.window.count, () => threadSource(job, walk.ids));
  const done = threaded === null ? null : await threaded;
  if (done === null) return false;
  sendBuilt(job.res, job.format, (alloc) => framed(job.head, done.bytes, job.tail, alloc), job.warnings, job.keep);
  done.release();
  return true;
};
