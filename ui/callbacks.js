// @ts-check
import { admin } from './api.js';
import { h, table } from './dom.js';

/**
 * The status callbacks of created calls, in the order they were due: what was sent where, and
 * what came back (or why nothing did). A row's details hold the request and the response as
 * they went.
 * @param {HTMLElement} main
 * @param {string[]} _parts
 * @param {URLSearchParams} query
 */
export async function renderCallbacks(main, _parts, query) {
  const account = query.get('account');
  const { callbacks, pending } = await admin(
    'GET',
    `/callbacks${account === null ? '' : `?account=${encodeURIComponent(account)}`}`,
  );
  main.append(
    h('h2', null, 'Callbacks'),
    h(
      'p',
      null,
      'Calls made by POST Calls.json with a StatusCallback post their states as production does, when the clock passes them. Nothing is retried: an error or a timeout is the outcome.',
    ),
    table(
      `${callbacks.length} callbacks${pending > 0 ? `, ${pending} under way` : ''}, oldest first`,
      ['#', 'Call', 'State', 'Due', 'Fault', 'Sent to', 'Outcome', 'ms'],
      callbacks.map((/** @type {any} */ c) => [
        String(c.seq),
        h('code', { title: c.call_sid }, `…${c.call_sid.slice(-8)}`),
        `${c.sequence_number} ${c.event}`,
        c.due,
        c.fault === null ? '' : h('span', { class: 'warn' }, c.fault),
        c.request === null ? '' : `${c.request.method} ${c.request.url.split('?')[0]}`,
        outcomeOf(c),
        c.elapsed_ms === null ? '' : String(c.elapsed_ms),
      ]),
      'No callbacks yet: create a call with a StatusCallback, then move the clock.',
    ),
    ...callbacks
      .filter((/** @type {any} */ c) => c.request !== null)
      .slice(-20)
      .map((/** @type {any} */ c) =>
        h(
          'details',
          null,
          h('summary', null, `#${c.seq} ${c.event}: the request and its answer`),
          h('pre', null, `${c.request.method} ${c.request.url}\n${c.request.body}`),
          h('pre', null, c.response === null ? c.error : `${c.response.status}\n${c.response.body}`),
        ),
      ),
  );
}

/**
 * The status, or the error, of a delivery.
 * @param {any} c
 */
function outcomeOf(c) {
  if (c.state === 'pending') return 'under way';
  if (c.response !== null)
    return h('span', { class: c.response.status >= 400 ? 'error' : '' }, String(c.response.status));
  return h('span', { class: 'error', title: c.error ?? '' }, (c.error ?? '').split(':')[0]);
}
