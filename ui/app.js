// @ts-check

import { renderAccounts } from './accounts.js';
import { admin, CLOCK_CHANGED, lastMove } from './api.js';
import { renderCall } from './call.js';
import { renderCallbacks } from './callbacks.js';
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
  callbacks: renderCallbacks,
  state: renderState,
};

/** @type {(() => void) | void} */
let stop;
let drawing = 0;
/** The location of the view shown: where a wait that is left goes back to. */
let shownHash = '';
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
  shownHash = location.hash;
  // What is drawn, for whoever waits on it (a test, a script driving the page).
  main.dataset['shown'] = shownHash;
  // On a navigation (not the first load), focus follows: the same control, or the new heading.
  if (!first) refocus(main, focused, true);
}

/** How long a view may take before it says it is working. */
const BUSY_AFTER_MS = 300;
/** How often a slow view asks how far the build it waits for is. */
const PROGRESS_EVERY_MS = 500;

/**
 * Says, when a view is slow to come (the first sort of ten million calls builds its order for
 * seconds), that work is under way: the step the emulator is at and how far along it is (from
 * `GET /__admin/builds`), and offers to stop waiting. The view shown stays usable meanwhile, and
 * any other navigation leaves the wait too. Returns what ends it.
 * @param {HTMLElement} main
 * @param {number} mine the drawing it is for
 */
function working(main, mine) {
  const started = performance.now();
  /** @type {HTMLElement | null} */
  let note = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let poll;
  let ended = false;
  const show = setTimeout(() => {
    if (mine !== drawing) return;
    const bar = /** @type {HTMLProgressElement} */ (h('progress', { 'aria-label': 'Progress of the step under way' }));
    // Says something at once; the step and its count come with the first answer of /builds.
    const text = h('span', { class: 'step' }, '0 s so far.');
    const update = async () => {
      /** @type {{ builds: { step: string | null, step_number: number, done: number, total: number }[] } | undefined} */
      let now;
      try {
        now = await admin('GET', '/builds');
      } catch {
        now = undefined;
      }
      if (ended) return;
      const seconds = `${((performance.now() - started) / 1000).toFixed(0)} s so far`;
      const build = now?.builds.find((b) => b.step !== null);
      if (build === undefined) {
        bar.removeAttribute('value');
        text.textContent = `${seconds}.`;
      } else {
        bar.max = build.total;
        bar.value = build.done;
        const share = build.total > 0 ? ` (${Math.floor((100 * build.done) / build.total)}%)` : '';
        text.textContent = `step ${build.step_number}, ${build.step}: ${build.done.toLocaleString('en-US')} of ${build.total.toLocaleString('en-US')}${share}; ${seconds}.`;
      }
      poll = setTimeout(update, PROGRESS_EVERY_MS);
    };
    // Not a live region: its count changes twice a second. The progress bar carries it to
    // assistive technology, and the status line says once that work is under way.
    note = h(
      'div',
      { class: 'busy' },
      h(
        'p',
        null,
        'Working on it: the emulator builds this order once (a first sort or filter of a large account takes seconds), ',
        text,
      ),
      bar,
      button('Stop waiting (Esc)', () => leave(true)),
    );
    main.setAttribute('aria-busy', 'true');
    main.prepend(note);
    document.addEventListener('keydown', onEscape);
    say('Working on it: the emulator builds this order once. Escape stops waiting.');
    void update();
  }, BUSY_AFTER_MS);
  /**
   * The answer, when it comes, is not drawn; the view shown stays. The focus stays where it is,
   * unless it was on the note's button, which goes with it: then the view's heading has it.
   * @param {boolean} fromButton
   */
  const leave = (fromButton) => {
    drawing++;
    end();
    // The address names the view shown again (no navigation): asking for the same view later is a new visit.
    history.replaceState(null, '', shownHash === '' ? location.pathname : shownHash);
    if (fromButton) {
      const heading = main.querySelector('h2');
      heading?.setAttribute('tabindex', '-1');
      (heading ?? main).focus();
    }
    say('Stopped waiting; the emulator finishes the order, and the next visit is quick.');
  };
  /** Escape leaves the wait from wherever the focus is (the header just pressed, most often). */
  const onEscape = (/** @type {KeyboardEvent} */ event) => {
    if (event.key === 'Escape') leave(false);
  };
  const end = () => {
    ended = true;
    document.removeEventListener('keydown', onEscape);
    clearTimeout(show);
    clearTimeout(poll);
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
        lastMove.since = clock.now;
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
// A write that sets the clock (a state import) redraws it in the header; the view that sent the
// event waits for the redraw before it says it is done, so the header never shows the old clock then.
window.addEventListener(CLOCK_CHANGED, (event) => {
  const redrawn = drawClock();
  if (event instanceof CustomEvent && event.detail !== null && typeof event.detail === 'object')
    event.detail.redrawn = redrawn;
});
window.addEventListener('DOMContentLoaded', () => {
  // "Skip to content" moves focus to the view, without going through the router.
  document.querySelector('a.skip')?.addEventListener('click', (event) => {
    event.preventDefault();
    document.getElementById('main')?.focus();
  });
  void drawClock();
  void route();
});
