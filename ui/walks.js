// @ts-check
import { admin } from './api.js';
import { h, table } from './dom.js';

/**
 * Each client's walks over the lists: pages, duplicates and missed records (offset paging over
 * a list that changes while it is walked).
 * @param {HTMLElement} main
 */
export async function renderWalks(main) {
  const { walks, syncs } = await admin('GET', '/walks');
  main.append(
    h('h2', null, 'Walks'),
    h(
      'p',
      null,
      'A walk is a client paging through a list with the same credentials, sort and filters. Duplicates and missed records are what offset paging does when the list changes under it.',
    ),
    table(
      `${walks.length} walks, oldest first`,
      ['Client', 'Account', 'List', 'Sort / filter', 'Pages', 'Complete', 'Items', 'Duplicates', 'Missed', 'Causes'],
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
        causesOf(w.causes),
      ]),
      'No walks yet: page through a list (Calls, then Next).',
    ),
    h('h3', null, 'Syncs'),
    h(
      'p',
      null,
      "A sync is a client's walks of one list in date order whose filters differ only in StartTime and EndTime (its watermark). Missed: records dated within what it was served that no walk served.",
    ),
    table(
      `${syncs.length} syncs`,
      ['Client', 'Account', 'List', 'Filter', 'Walks', 'Served', 'From', 'To', 'Missed', 'Causes'],
      syncs.map((/** @type {any} */ s) => [
        h('code', null, s.client.slice(0, 10)),
        h('code', { title: s.account }, `${s.account.slice(0, 8)}…`),
        s.list,
        s.filter || '',
        String(s.walks),
        String(s.served),
        s.from ?? '',
        s.to ?? '',
        s.missed === null
          ? 'not checked'
          : h('span', { class: s.missed.length > 0 ? 'error' : '' }, String(s.missed.length)),
        causesOf(s.causes),
      ]),
      'No syncs yet: walk one list twice in date order.',
    ),
  );
}

/**
 * How many listed records each cause accounts for, e.g. "commit_lag 12, offset_repeat 1".
 * @param {Record<string, string>} causes
 */
function causesOf(causes) {
  const counts = new Map();
  for (const cause of Object.values(causes)) counts.set(cause, (counts.get(cause) ?? 0) + 1);
  return [...counts].map(([cause, n]) => `${cause} ${n}`).join(', ');
}
