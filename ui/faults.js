// @ts-check
import { accounts, admin } from './api.js';
import { button, field, h, redrawView, say, table } from './dom.js';

/** Templates: what a fault does. The scope (path, account, times) comes from the form. */
const TEMPLATES = [
  { label: 'Latency 1.5 s', spec: { delay_ms: 1500 } },
  { label: '500 error', spec: { status: 500 } },
  // Fires on the next request, as a person trying it expects (a rate limit would let the first pass).
  { label: '429 with Retry-After', spec: { status: 429, headers: { 'Retry-After': '30' } } },
  { label: 'Connection reset', spec: { fault: 'connection_reset' } },
];

/**
 * Faults: the list with how often each matched and applied, created from templates, deleted.
 * @param {HTMLElement} main where to draw
 * @param {HTMLElement} [home] where the view lives, for its redraws (main, unless drawn off-page first)
 */
export async function renderFaults(main, home = main, chosen = { path: '/call/', account: '', times: '' }) {
  const [{ faults }, all] = await Promise.all([admin('GET', '/faults'), accounts()]);
  // Redrawn in place: the new content's own redraws go to the same element.
  // The form keeps what was chosen across its redraws: a second fault for the same account is one click.
  const redraw = () =>
    redrawView(home, (m, hm) => renderFaults(m, hm, { path: path.value, account: account.value, times: times.value }));
  const path = /** @type {HTMLInputElement} */ (h('input', { value: chosen.path, size: 30 }));
  const account = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      null,
      h('option', { value: '' }, 'any account'),
      ...all.map((a) => h('option', { value: a.sid, selected: a.sid === chosen.account }, a.friendly_name)),
    )
  );
  const times = /** @type {HTMLInputElement} */ (
    h('input', { type: 'number', min: 1, placeholder: 'every time', value: chosen.times })
  );
  const scope = () => ({
    ...(path.value !== '' ? { path: path.value } : {}),
    ...(account.value !== '' ? { account: account.value } : {}),
    ...(times.value !== '' ? { times: Number(times.value) } : {}),
  });
  main.append(
    h('h2', null, 'Faults'),
    table(
      `${faults.length} faults`,
      ['Id', 'Does', 'On', 'Matched', 'Applied', 'Actions'],
      faults.map((/** @type {any} */ f) => {
        const { id, matched, applied, path: p, account: a, method, times: t, ...does } = f;
        return [
          h('code', null, id),
          JSON.stringify(does),
          [method, p ?? 'any path', a ? `account ${a.slice(0, 8)}…` : null, t ? `${t} times` : null]
            .filter(Boolean)
            .join(', '),
          String(matched),
          String(applied),
          button(
            'Delete',
            async () => {
              await admin('DELETE', `/faults/${encodeURIComponent(id)}`);
              say(`Deleted fault ${id}.`);
              await redraw();
            },
            { 'aria-label': `Delete fault ${id}`, class: 'danger' },
          ),
        ];
      }),
      'No faults: every request is answered as production would.',
    ),
    h(
      'form',
      { class: 'inline', 'aria-label': 'New fault' },
      h('h3', null, 'New fault'),
      field('Path (a prefix, or * for any run)', path),
      field('Account', account),
      field('Times', times),
      h(
        'span',
        { class: 'actions' },
        ...TEMPLATES.map((t) =>
          button(t.label, async () => {
            const made = await admin('POST', '/faults', { ...scope(), ...t.spec });
            say(`Added fault ${made.id}: ${t.label}.`);
            await redraw();
          }),
        ),
      ),
    ),
  );
}
