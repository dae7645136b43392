import { runPage } from '../../cache/rendered-run';
import { between, sendBuilt } from '../send-page';
import { cachedText, type PageWriter } from './page';

/**
 * An order of a small account asked for again is kept whole as a run (its items joined), and
 * its pages are slices of it: paging and sorting what a test seeded costs a copy, not fifty
 * lookups. JSON only (XML is the Restcomm dialect's second form, asked for rarely), seeded items
 * only (inserted ids come back after a reset with other records).
 */
export const wholeRun: PageWriter = (job) => {
  const { order, format } = job;
  if (order.key === null || format !== 'json') return false;
  const run = job.settings.cache.run(order.key, order.length, between(format), (position) => {
    const item = order.item(position);
    return item.seeded ? cachedText(job, item) : null;
  });
  if (run === null) return false;
  const { offset, count } = job.window;
  sendBuilt(job.res, format, (alloc) => runPage(job.head, run, offset, count, job.tail, alloc), job.warnings, job.keep);
  return true;
};
