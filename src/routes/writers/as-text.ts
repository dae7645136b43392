import { RUN_MAX_ITEMS } from '../../cache/render-cache';
import { joinedBytes } from '../../cache/rendered-run';
import { between, sendBuilt } from '../send-page';
import { cachedText, type PageWriter } from './page';

/**
 * Any page the others declined: each item's text, joined. Only the seeded items of orders that
 * could be runs go through the item cache (a longer order is mostly walked, each item shown once).
 */
export const asText: PageWriter = (job) => {
  const { window, order, format } = job;
  const keep = format === 'json' && order.length <= RUN_MAX_ITEMS;
  const items = new Array<string>(window.count);
  for (let k = 0; k < window.count; k++) {
    const item = order.item(window.offset + k);
    items[k] = keep && item.seeded ? cachedText(job, item) : job.render(item);
  }
  const gap = between(format);
  sendBuilt(
    job.res,
    format,
    (alloc) => joinedBytes(job.head, items, gap, job.tail, undefined, alloc),
    job.warnings,
    job.keep,
  );
  return true;
};
