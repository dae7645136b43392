// @ts-check
/** Small DOM helpers: the inspector is plain modules, no framework and no build. */

/**
 * An element with attributes (`on…` are listeners, `class`, `for` and aria-/data- as given) and children.
 * @param {string} tag
 * @param {Record<string, unknown> | null} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {HTMLElement}
 * @example h('button', { type: 'button', onclick: go }, 'Next')
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function')
      el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
  return el;
}

/**
 * A button that runs `action`, and ignores clicks while it runs; a failure goes to the status
 * line. It says it is busy with `aria-disabled` rather than `disabled`: a disabled button drops
 * the focus to the page, and a keyboard user would start again from the top.
 * @param {string} label
 * @param {() => unknown} action
 * @param {Record<string, unknown>} [attrs]
 */
export function button(label, action, attrs = {}) {
  const el = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', ...attrs }, label));
  el.addEventListener('click', async () => {
    if (el.getAttribute('aria-disabled') === 'true') return;
    el.setAttribute('aria-disabled', 'true');
    try {
      await action();
    } catch (err) {
      say(String(err instanceof Error ? err.message : err), true);
    } finally {
      el.removeAttribute('aria-disabled');
    }
  });
  return el;
}

let fields = 0;

/**
 * A labelled control: the label names it for screen readers.
 * @param {string} label
 * @param {HTMLElement} control
 */
export function field(label, control) {
  const id = control.id || `field-${++fields}`;
  control.id = id;
  return h('span', { class: 'field' }, h('label', { for: id }, label), control);
}

/**
 * A table with a caption; `rows` are arrays of cells (nodes or text).
 * @param {string} caption
 * @param {(string | Node)[]} columns a header's text, or a node (a sort button)
 * @param {(Node | string | number | null)[][]} rows
 * @param {string} [empty] what to say when there are no rows
 */
export function table(caption, columns, rows, empty = 'None.') {
  const body =
    rows.length === 0
      ? [h('tr', null, h('td', { colspan: columns.length, class: 'empty' }, empty))]
      : rows.map((cells) => h('tr', null, ...cells.map((c) => h('td', null, c ?? ''))));
  return h(
    'div',
    { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': caption },
    h(
      'table',
      null,
      h('caption', null, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ...columns.map((c) =>
            h('th', { scope: 'col', 'aria-sort': c instanceof HTMLElement ? c.dataset['sort'] : undefined }, c),
          ),
        ),
      ),
      h('tbody', null, ...body),
    ),
  );
}

/**
 * Copies text, and says so.
 * @param {string} text
 * @param {string} what
 */
export async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say(`Copied ${what}.`);
  } catch {
    // No clipboard (an insecure origin, a denied permission): show it to copy by hand.
    window.prompt(`Copy ${what}:`, text);
  }
}

/**
 * A line of code with a button that copies it.
 * @param {string} text
 * @param {string} what
 */
export function codeLine(text, what) {
  return h(
    'div',
    { class: 'code-line' },
    // A line wider than the screen scrolls: focusable, so a keyboard can scroll it too.
    h('code', { tabindex: 0, role: 'region', 'aria-label': what }, text),
    button('Copy', () => copy(text, what), { 'aria-label': `Copy ${what}` }),
  );
}

/**
 * Says something in the status line (announced to screen readers).
 * @param {string} message
 * @param {boolean} [error]
 */
export function say(message, error = false) {
  const status = document.getElementById('status');
  if (status === null) return;
  status.textContent = message;
  status.className = error ? 'status error' : 'status';
}

/**
 * A definition list of name/value pairs.
 * @param {[string, Node | string | number][]} pairs
 */
export function dl(pairs) {
  return h('dl', null, ...pairs.flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}

/**
 * Draws a view again into the element it lives in, once its content is ready (no blank flash),
 * and gives focus back to the control that had it, found again by its name.
 * @param {HTMLElement} home
 * @param {(main: HTMLElement, home: HTMLElement) => Promise<unknown>} view drawn into a fresh element, redrawing into `home`
 */
export async function redrawView(home, view) {
  const name = focusedName();
  const fresh = h('div');
  await view(fresh, home);
  home.replaceChildren(...fresh.childNodes);
  refocus(home, name);
}

/**
 * What names a control to a person: its aria-label, else its label (a form field, whose text is
 * empty), else its text.
 * @param {Element} el
 */
function nameOf(el) {
  const label = el.getAttribute('aria-label');
  if (label !== null) return label;
  const labels = /** @type {HTMLInputElement} */ (el).labels;
  if (labels !== undefined && labels !== null && labels.length > 0) return `label:${labels[0]?.textContent}`;
  return el.textContent;
}

/** The name of the focused control (see `nameOf`), to find it again once redrawn. */
export function focusedName() {
  const focused = document.activeElement;
  if (focused === null || focused === document.body) return null;
  return nameOf(focused);
}

/**
 * Focus back on the control of that name in `container` (a keyboard user pressing Next keeps
 * pressing Next); else, when asked, on the container's heading, so a screen reader starts there.
 * @param {HTMLElement} container
 * @param {string | null} name
 * @param {boolean} [heading]
 */
export function refocus(container, name, heading = false) {
  const again = [...container.querySelectorAll('button, a, input, select')].find(
    (el) => name !== null && nameOf(el) === name,
  );
  if (again instanceof HTMLElement) {
    again.focus();
  } else if (heading) {
    const h2 = container.querySelector('h2');
    if (h2 instanceof HTMLElement) {
      h2.tabIndex = -1;
      h2.focus();
    }
  }
}
