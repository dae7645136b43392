// @ts-check

import { renderAccounts } from './accounts.js';
import { admin, CLOCK_CHANGED } from './api.js';
import { renderCall } from './call.js';
import { button, focusedName, h, refocus, say } from './dom.js';
import { renderFaults } from './faults.js';
import { renderJournal } from './journal.js';
import { renderList } from './list.js';
import { renderState } from './state.js';
import { renderWalks } from './walks.js';

/**
 * A view draws into `main` from the route's parts and query; it may return a function that stops
 * what it started (the journal's polling).
 * @typedef {(main: HTMLElement, parts: string[], query: URLSearchParams) => Promise<(() => void) | void>} View
 */

/** @type {Record<string, View>} */
const VIEWS = {
  accounts: (main) => renderAccounts(main),
  calls: (main, parts, query) => renderList(main, 'calls', parts[0], query),
  recordings: (main, parts, query) => renderList(main, 'recordings', parts[0], query),
  notifications: (main, parts, query) => renderList(main, 'notifications', parts[0], query),
  call: (main, parts) => renderCall(main, parts[0] ?? '', parts[1] ?? ''),
  journal: renderJournal,
  faults: (main) => renderFaults(main),
  walks: renderWalks,
  state: renderState,
};

/** @type {(() => void) | void} */
let stop;
let drawing = 0;
/** Ends the "working on it" note of the drawing under way, if any. */
let endBusy = () => {};

/** Draws the view the location's hash names: `#/calls/AC…?PageSize=50`. */
async function route() {
  const hash = location.hash.replace(/^#\/?/, '') || 'accounts';
  const at = hash.indexOf('?');
  const parts = (at < 0 ? hash : hash.slice(0, at)).split('/').map(decodeURIComponent);
  const query = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  const name = parts.shift() ?? 'accounts';
  const view = VIEWS[name] ?? VIEWS['accounts'];
  if (typeof stop === 'function') stop();
  stop = undefined;
  const main = /** @type {HTMLElement} */ (document.getElementById('main'));
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.getAttribute('href') === `#/${name === 'call' ? 'calls' : name}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const mine = ++drawing;
  const focused = focusedName();
  const first = drawing === 1;
  const next = h('div', { class: 'view' });
  // A navigation that comes while another is worked on replaces its note.
  endBusy();
  endBusy = working(main, mine);
  try {
    const cleanup = await view?.(next, parts, query);
    // A later navigation won the race: this drawing is not shown.
    if (mine !== drawing) {
      if (typeof cleanup === 'function') cleanup();
      return;
    }
    stop = cleanup;
  } catch (err) {
    next.append(h('p', { class: 'error', role: 'alert' }, String(err instanceof Error ? err.message : err)));
  } finally {
    if (mine === drawing) endBusy();
  }
  if (mine !== drawing) return;
  main.replaceChildren(next);
  // On a navigation (not the first load), focus follows: the same control, or the new heading.
  if (!first) refocus(main, focused, true);
}

/** How long a view may take before it says it is working. */
const BUSY_AFTER_MS = 300;

/**
 * Says, when a view is slow to come (the first sort of ten million calls builds its order for
 * seconds), that work is under way and for how long, and offers to stop waiting: the view
 * shown stays usable meanwhile, and any other navigation leaves the wait too. Returns what ends it.
 * @param {HTMLElement} main
 * @param {number} mine the drawing it is for
 */
function working(main, mine) {
  const started = performance.now();
  /** @type {HTMLElement | null} */
  let note = null;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let tick;
  const show = setTimeout(() => {
    if (mine !== drawing) return;
    const elapsed = h('span', { class: 'elapsed' }, '');
    const update = () => {
      elapsed.textContent = `${((performance.now() - started) / 1000).toFixed(0)} s`;
    };
    update();
    tick = setInterval(update, 1000);
    note = h(
      'p',
      { class: 'busy', role: 'status' },
      'Working on it: the emulator builds this order once (a first sort or filter of a large account takes seconds), ',
      elapsed,
      ' so far. ',
      button('Stop waiting', () => {
        // The answer, when it comes, is not drawn; the view shown stays.
        drawing++;
        end();
        say('Stopped waiting; the emulator finishes the order, and the next visit is quick.');
      }),
    );
    main.setAttribute('aria-busy', 'true');
    main.prepend(note);
  }, BUSY_AFTER_MS);
  const end = () => {
    clearTimeout(show);
    clearInterval(tick);
    note?.remove();
    main.removeAttribute('aria-busy');
  };
  return end;
}

/** The world's clock in the header, with the presets to move it. */
export async function drawClock() {
  const section = document.getElementById('clock');
  if (section === null) return;
  const clock = await admin('GET', '/clock');
  const move = (/** @type {string} */ by, /** @type {string} */ label) =>
    button(
      label,
      async () => {
        const moved = await admin('POST', '/clock', { advance: by });
        say(`Clock moved ${label} to ${moved.now}.`);
        await drawClock();
        await route();
      },
      { 'aria-label': `Advance the clock ${label}` },
    );
  section.replaceChildren(
    h(
      'span',
      { class: 'now' },
      h('span', { class: 'label' }, 'Clock '),
      h('time', { datetime: clock.now, id: 'clock-now' }, clock.now),
    ),
    clock.deterministic ? '' : h('span', { class: 'badge' }, `follows wall time ×${clock.rate}`),
    move('PT1M', '+1 min'),
    move('PT1H', '+1 h'),
    move('P1D', '+1 day'),
  );
}

window.addEventListener('hashchange', () => {
  // The skip link's own hash is not a view (see below).
  if (location.hash !== '#main') void route();
});
// A write that sets the clock (a state import) redraws it in the header.
window.addEventListener(CLOCK_CHANGED, () => void drawClock());
window.addEventListener('DOMContentLoaded', () => {
  // "Skip to content" moves focus to the view, without going through the router.
  document.querySelector('a.skip')?.addEventListener('click', (event) => {
    event.preventDefault();
    document.getElementById('main')?.focus();
  });
  void drawClock();
  void route();
});
