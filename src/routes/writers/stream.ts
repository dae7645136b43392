import { STREAM_THRESHOLD, streamPage } from '../send-page';
import type { PageWriter } from './page';

/**
 * A page of more than a thousand items: rendered and streamed as is, over many turns of the
 * event loop, from the state its order was built for. It would flush the caches for one reader.
 */
export const streamed: PageWriter = async (job) => {
  const { window, order } = job;
  if (window.count <= STREAM_THRESHOLD) return false;
  await streamPage(job.res, job.format, job.head, job.tail, window.count, (k) =>
    job.render(order.item(window.offset + k)),
  );
  return true;
};
