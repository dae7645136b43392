// @ts-check
import { admin, CLOCK_CHANGED } from './api.js';
import { button, field, h, say } from './dom.js';

/**
 * State: the current hash, an export to a file, an import from one.
 * @param {HTMLElement} main
 */
export async function renderState(main) {
  const { hash } = await admin('GET', '/state/hash');
  const shown = h('code', { id: 'state-hash' }, hash);
  const file = /** @type {HTMLInputElement} */ (h('input', { type: 'file', accept: 'application/json,.json' }));
  const submit = h('button', { type: 'submit' }, 'Import');
  const form = h('form', { class: 'inline', 'aria-label': 'Import a state' }, field('State file', file), submit);
  /** Where a refused import says why, and offers to import anyway. */
  const refusal = h('div', { class: 'refusal' });
  const importFile = async (/** @type {File} */ chosen, force = false) => {
    refusal.replaceChildren();
    try {
      const done = await admin('PUT', force ? '/state?force=true' : '/state', await chosen.text());
      shown.textContent = done.hash;
      /** @type {{ redrawn?: Promise<void> }} */
      const header = {};
      window.dispatchEvent(new CustomEvent(CLOCK_CHANGED, { detail: header }));
      await header.redrawn;
      say(`Imported ${chosen.name}: hash ${done.hash}.`);
      return true;
    } catch (err) {
      const message = String(err instanceof Error ? err.message : err);
      // Live sandboxes would end with the import: never silently, but one key away once said.
      if (/** @type {{ status?: number }} */ (err).status === 409 && !force) {
        const again = button('Import anyway, ending the live sandboxes', async () => {
          // The button goes with the refusal: the focus goes back to Import first.
          submit.focus();
          await importFile(chosen, true);
        });
        refusal.replaceChildren(h('p', { class: 'warning', role: 'alert' }, message), again);
        again.focus();
      } else {
        say(message, true);
      }
      return false;
    }
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (chosen === undefined) return say('Choose a state file first.', true);
    await importFile(chosen);
  });
  main.append(
    h('h2', null, 'State'),
    h('p', null, 'Hash of everything the API would show: ', shown),
    button('Export to a file', async () => {
      const state = await admin('GET', '/state');
      const url = URL.createObjectURL(new Blob([JSON.stringify(state)], { type: 'application/json' }));
      const a = /** @type {HTMLAnchorElement} */ (
        h('a', { href: url, download: `callrec-state-${hash.slice(0, 8)}.json` })
      );
      document.body.append(a);
      a.click();
      a.remove();
      // Revoked once the download has its bytes.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      say('Exported the state.');
    }),
    form,
    refusal,
  );
}
