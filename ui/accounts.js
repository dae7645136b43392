// @ts-check
import { accounts, admin, curlOf, requestable, sandboxes } from './api.js';
import { button, copy, field, h, redrawView, say, table } from './dom.js';

/**
 * Accounts and sandboxes: sid, token (a click copies a ready curl line), counts, clock and
 * traffic; create, fork, reset, delete.
 * @param {HTMLElement} main where to draw
 * @param {HTMLElement} [home] where the view lives, for its redraws (main, unless drawn off-page first)
 */
export async function renderAccounts(main, home = main) {
  const [all, forks] = await Promise.all([accounts(), sandboxes()]);
  const forkOf = new Map(forks.map((s) => [s.sid, s]));
  // Redrawn in place: the new content's own redraws go to the same element.
  const redraw = () => redrawView(home, renderAccounts);

  const rows = all.map((a) => {
    const fork = forkOf.get(a.sid);
    const list = requestable(`/2012-04-24/Accounts/${a.sid}/Calls?PageSize=10`);
    const name = a.friendly_name;
    return [
      h(
        'span',
        null,
        h('strong', null, name),
        fork ? h('span', { class: 'badge' }, `sandbox of ${short(fork.from)}`) : null,
      ),
      h('code', { title: a.sid }, a.sid),
      h(
        'span',
        { class: 'nowrap' },
        h('code', { title: a.token }, `${a.token.slice(0, 8)}…`),
        ' ',
        button('Copy curl', () => copy(curlOf(list, a.token), `a curl line for ${name}`), {
          'aria-label': `Copy curl for ${name}, with its token`,
        }),
      ),
      h('a', { href: `#/calls/${a.sid}` }, String(a.calls)),
      h('a', { href: `#/recordings/${a.sid}` }, String(a.recordings)),
      // One list request brings every account's clock and traffic (?detail=true), never its export.
      h('time', { datetime: a.now }, a.now),
      a.traffic ? `${a.traffic.calls_per_hour}/h` : 'none',
      hazardsOf(a),
      h(
        'span',
        { class: 'actions' },
        button(
          'Fork',
          async () => {
            const made = await admin('POST', '/sandboxes', { from: a.sid });
            say(`Forked ${name} into ${made.sid}.`);
            await redraw();
          },
          { 'aria-label': `Fork ${name} into a sandbox` },
        ),
        fork
          ? button(
              '+1 h',
              async () => {
                const moved = await admin('POST', `/sandboxes/${a.sid}/clock`, { advance: 'PT1H' });
                say(`${name}'s clock is now ${moved.now}.`);
                await redraw();
              },
              // The visible label is part of the name (WCAG 2.5.3): "+1 h" is what a voice user says.
              { 'aria-label': `Advance ${name}'s own clock +1 h` },
            )
          : null,
        a.traffic
          ? button(
              'Restart',
              async () => {
                const done = await admin('POST', `/accounts/${a.sid}/restart`, {});
                say(`Restarted every node of ${name}: ${done.swept} live calls now completed.`);
                await redraw();
              },
              { 'aria-label': `Restart every node of ${name}, as production's start-up sweeps live calls` },
            )
          : null,
        button(
          'Reset',
          async () => {
            await admin('POST', `/accounts/${a.sid}/reset`);
            say(`${name} is back to ${fork ? 'what it was forked with' : 'its seeded records'}.`);
            await redraw();
          },
          { 'aria-label': `Reset ${name}` },
        ),
        button(
          'Delete',
          async () => {
            if (!window.confirm(`Delete ${name} (${a.sid})?`)) return;
            await admin('DELETE', fork ? `/sandboxes/${a.sid}` : `/accounts/${a.sid}`);
            say(`Deleted ${name}.`);
            await redraw();
          },
          { 'aria-label': `Delete ${name}`, class: 'danger' },
        ),
      ),
    ];
  });

  main.append(
    h('h2', null, 'Accounts and sandboxes'),
    table(
      `${all.length} accounts, ${forks.length} of them sandboxes`,
      ['Name', 'Sid', 'Token', 'Calls', 'Recordings', 'Clock', 'Traffic', 'Hazards', 'Actions'],
      rows,
    ),
    createForm(redraw),
  );
}

/**
 * An account's hazards in a few words, the nodes' skews in the title: what a run that passes
 * here was up against.
 * @param {import('./api.js').Account} a
 */
function hazardsOf(a) {
  const parts = [];
  if (a.hazards !== null && a.hazards.commit_lag_s > 0) parts.push(`lag < ${a.hazards.commit_lag_s} s`);
  if (a.hazards !== null && a.hazards.instances.length > 0) parts.push(`${a.hazards.instances.length} nodes`);
  if (a.restarts.length > 0) parts.push(`${a.restarts.length} restarts`);
  const nodes = (a.hazards?.instances ?? []).map((n) => `${n.instance_id}: ${n.skew_ms} ms`).join('\n');
  return parts.length === 0 ? 'none' : h('span', nodes === '' ? null : { title: nodes }, parts.join(', '));
}

/** @param {string} sid */
const short = (sid) => `${sid.slice(0, 8)}…`;

/**
 * The form that creates an account: name, counts, and live traffic.
 * @param {() => Promise<void>} redraw
 */
function createForm(redraw) {
  const name = /** @type {HTMLInputElement} */ (
    h('input', { required: true, value: 'Inspector account', maxlength: 200 })
  );
  const calls = /** @type {HTMLInputElement} */ (h('input', { type: 'number', min: 0, value: 20 }));
  const recordings = /** @type {HTMLInputElement} */ (h('input', { type: 'number', min: 0, value: 5 }));
  const traffic = /** @type {HTMLInputElement} */ (h('input', { type: 'number', min: 0, max: 3600, value: 0 }));
  const form = h(
    'form',
    { class: 'inline', 'aria-label': 'Create an account' },
    h('h3', null, 'Create an account'),
    field('Name', name),
    field('Calls', calls),
    field('Recordings', recordings),
    field('Traffic (calls an hour, 0 for none)', traffic),
    h('button', { type: 'submit' }, 'Create'),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const rate = Number(traffic.value);
      const made = await admin('POST', '/accounts', {
        friendly_name: name.value,
        calls: Number(calls.value),
        recordings: Number(recordings.value),
        ...(rate > 0 ? { traffic: { calls_per_hour: rate } } : {}),
      });
      say(`Created ${made.friendly_name} (${made.sid}).`);
      await redraw();
    } catch (err) {
      say(String(err instanceof Error ? err.message : err), true);
    }
  });
  return form;
}
