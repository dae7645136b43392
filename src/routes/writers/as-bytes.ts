import { RUN_MAX_ITEMS } from '../../cache/render-cache';
import type { ByteSink } from '../../format/byte-sink';
import { sendBuilt } from '../send-page';
import type { PageJob, PageWriter } from './page';

const COMMA = Buffer.from(',');

/**
 * Whether a page is written as bytes: JSON of a list whose wire writes bytes, in an order too
 * long to be kept as a run (mostly walked, each item shown once: looking each up in the item
 * cache first cost a walk of ten million calls 8%, measured).
 */
export const asBytesWanted = <R>(job: PageJob<R>): boolean =>
  job.format === 'json' && job.order.length > RUN_MAX_ITEMS && job.wire.itemBytes !== undefined;

/** The bytes written into `sink`, in a buffer of their own from `alloc`. */
function copyOut(sink: ByteSink, alloc: (bytes: number) => Buffer): Buffer {
  const body = alloc(sink.at);
  sink.buf.copy(body, 0, 0, sink.at);
  return body;
}

/**
 * Written as bytes: a walk's page is built once, and its items' text would be written only to
 * be copied out flat again (see `writeCallJson`). Built whole in the app's one sink, then copied
 * once into the body.
 */
export const asBytes: PageWriter = (job) => {
  const itemBytes = job.wire.itemBytes;
  if (itemBytes === undefined || !asBytesWanted(job)) return false;
  const { window, order, settings } = job;
  const sink = settings.caches.sink;
  sink.at = 0;
  sink.text(job.head);
  for (let k = 0; k < window.count; k++) {
    if (k > 0) sink.bytes(COMMA);
    const { record, accountSid } = order.item(window.offset + k);
    itemBytes(record(), accountSid, settings.fileBase, sink);
  }
  sink.text(job.tail);
  sendBuilt(job.res, job.format, (alloc) => copyOut(sink, alloc), job.warnings, job.keep);
  return true;
};
