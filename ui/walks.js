// @ts-check
import { admin } from './api.js';
import { h, table } from './dom.js';

/**
 * Each client's walks over the lists: pages, duplicates and missed records (offset paging over
 * a list that changes while it is walked).
 * @param {HTMLElement} main
 */
export async function renderWalks(main) {
  const { walks } = await admin('GET', '/walks');
  main.append(
    h('h2', null, 'Walks'),
    h(
      'p',
      null,
      'A walk is a client paging through a list with the same credentials, sort and filters. Duplicates and missed records are what offset paging does when the list changes under it.',
    ),
    table(
      `${walks.length} walks, oldest first`,
      ['Client', 'Account', 'List', 'Sort / filter', 'Pages', 'Complete', 'Items', 'Duplicates', 'Missed'],
      walks.map((/** @type {any} */ w) => [
        h('code', null, w.client.slice(0, 10)),
        h('code', { title: w.account }, `${w.account.slice(0, 8)}…`),
        w.list,
        [w.sort ?? 'default', w.filter || ''].filter(Boolean).join(' '),
        `${w.pages} (${w.first_page}–${w.last_page})`,
        w.complete ? 'yes' : 'no',
        String(w.items_served),
        h('span', { class: w.duplicates.length > 0 ? 'warn' : '' }, String(w.duplicates.length)),
        w.missed === null
          ? 'not checked'
          : h('span', { class: w.missed.length > 0 ? 'error' : '' }, String(w.missed.length)),
      ]),
      'No walks yet: page through a list (Calls, then Next).',
    ),
  );
}
