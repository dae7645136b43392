// @ts-check
import { accounts, admin } from './api.js';
import { button, dl, field, h, table } from './dom.js';

/** A count with separators: 12,345. @param {number} n */
const fmt = (n) => n.toLocaleString('en-US');

/** How often the journal is asked again while shown. */
const POLL_MS = 1000;

/**
 * The request journal, live (polled), newest first: status, duration, warnings and faults
 * highlighted; an entry opens to its request and answer headers; filters by account and status.
 * @param {HTMLElement} main
 * @param {string[]} _parts
 * @param {URLSearchParams} query `account`, `status`
 */
export async function renderJournal(main, _parts, query) {
  const all = await accounts();
  const account = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      null,
      h('option', { value: '' }, 'all accounts'),
      ...all.map((a) => h('option', { value: a.sid, selected: a.sid === query.get('account') }, a.friendly_name)),
    )
  );
  const status = /** @type {HTMLInputElement} */ (
    h('input', { type: 'number', min: 0, max: 599, value: query.get('status') ?? '' })
  );
  const path = /** @type {HTMLInputElement} */ (
    h('input', { type: 'text', value: query.get('path') ?? '', size: 28, placeholder: '/call/2012-04-24/Accounts/' })
  );
  const mine = /** @type {HTMLInputElement} */ (
    h('input', { type: 'checkbox', checked: query.get('inspector') === 'true' })
  );
  const live = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', 'aria-pressed': 'true' }, 'Live'));
  const body = h('div', { 'aria-live': 'off' });
  const detail = h('div', { class: 'detail' });
  let paused = false;
  let last = '';
  /** The newest entry shown so far: entries past it are new, and marked so. */
  let newest = Number.POSITIVE_INFINITY;

  const refresh = async () => {
    const q = new URLSearchParams({ limit: '200' });
    if (account.value !== '') q.set('account', account.value);
    if (status.value !== '') q.set('status', status.value);
    if (path.value !== '') q.set('path', path.value);
    // The inspector's own requests (its pages, a waveform's ranges) are left out unless asked for.
    if (mine.checked) q.set('inspector', 'true');
    const answer = await admin('GET', `/requests?${q}`);
    const key = JSON.stringify(answer.requests.map((/** @type {any} */ r) => r.id));
    if (key === last) return;
    last = key;
    const seen = newest;
    newest = Math.max(0, ...answer.requests.map((/** @type {any} */ r) => r.id));
    const shown = table(
      `${fmt(answer.requests.length)} of ${fmt(answer.matched)} matching, ${fmt(answer.held)} held (${fmt(answer.seen)} seen), newest first`,
      ['Time', 'Request', 'Status', 'ms', 'Account', 'Notes'],
      answer.requests.map((/** @type {any} */ r) => [
        h('time', { datetime: r.time }, r.time.slice(11, 23)),
        // Named by what it shows, the request line (a name that differs from the text misleads
        // a person who speaks it to a voice control); the title says what it does.
        button(`${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`, () => open(r.id), {
          class: 'link',
          title: `Details of request ${r.id}`,
        }),
        h('span', { class: `status s${Math.floor(r.status / 100)}` }, r.status === 0 ? 'cut' : String(r.status)),
        r.duration_ms.toFixed(1),
        r.account ? h('code', { title: r.account }, `${r.account.slice(0, 8)}…`) : '',
        h(
          'span',
          null,
          r.id > seen ? h('span', { class: 'badge new' }, 'new') : null,
          r.inspector ? h('span', { class: 'badge' }, 'inspector') : null,
          r.fault ? h('span', { class: 'badge fault' }, `fault: ${r.fault.effect}`) : null,
          ...r.warnings.map((/** @type {string} */ w) => h('span', { class: 'badge warn', title: w }, `warning: ${w}`)),
        ),
      ]),
      'No requests yet: send one to the API.',
    );
    shown.classList.add('journal');
    body.replaceChildren(shown);
  };
  const open = async (/** @type {number} */ id) => {
    const e = await admin('GET', `/requests/${id}`);
    detail.replaceChildren(
      h('h3', { tabindex: -1, id: 'request-detail' }, `Request ${e.id}: ${e.method} ${e.path} → ${e.status}`),
      dl([
        ['time', e.time],
        ['query', e.query || '(none)'],
        ['account', e.account ?? '(none)'],
        ['duration', `${e.duration_ms} ms`],
        ['fault', e.fault ? `${e.fault.effect} (${e.fault.id})` : '(none)'],
        ['warnings', e.warnings.join(' | ') || '(none)'],
      ]),
      table(
        'Request headers',
        ['Name', 'Value'],
        e.request_headers.map((/** @type {[string, string]} */ [k, v]) => [k, v]),
      ),
      table(
        'Answer headers',
        ['Name', 'Value'],
        Object.entries(e.response_headers).map(([k, v]) => [k, String(v)]),
      ),
      h('h4', null, e.response_body_truncated ? 'Answer body (its first 2 KB)' : 'Answer body'),
      e.response_body === null
        ? h('p', null, '(none kept: audio, a HEAD, or no answer)')
        : h('pre', { class: 'body', tabindex: 0, role: 'region', 'aria-label': 'Answer body' }, e.response_body),
    );
    document.getElementById('request-detail')?.focus();
  };

  const filters = h(
    'form',
    { class: 'inline', 'aria-label': 'Journal filters' },
    field('Account', account),
    field('Status', status),
    field('Path starts with', path),
    field("The inspector's own requests", mine),
    live,
    button(
      'Clear journal',
      async () => {
        await admin('DELETE', '/requests');
        await refresh();
      },
      { class: 'danger' },
    ),
  );
  filters.addEventListener('change', () => {
    last = '';
    void refresh();
  });
  filters.addEventListener('submit', (event) => event.preventDefault());
  live.addEventListener('click', () => {
    paused = !paused;
    live.setAttribute('aria-pressed', String(!paused));
    live.textContent = paused ? 'Paused' : 'Live';
  });
  main.append(h('h2', null, 'Journal'), filters, h('div', { class: 'split' }, body, detail));
  await refresh();
  const timer = setInterval(() => {
    if (!paused && document.visibilityState === 'visible') void refresh().catch(() => undefined);
  }, POLL_MS);
  return () => clearInterval(timer);
}
