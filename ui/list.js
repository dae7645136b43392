// @ts-check
import { accountOf, admin, curlOf, get, lastMove, requestable } from './api.js';
import { button, codeLine, dl, field, h, table } from './dom.js';

/** What each list shows and lets a user sort and filter by: production's own names. */
const KINDS = {
  calls: {
    title: 'Calls',
    columns: ['Sid', 'From', 'To', 'Status', 'Direction', 'Start', 'Duration', 'Recordings'],
    /** @param {any} c @param {Map<string, number | null>} recorded */
    cells: (c, recorded) => [
      c.from,
      c.to,
      c.status,
      c.direction,
      c.start_time,
      c.duration ?? (/^(queued|ringing|in-progress)$/i.test(c.status) ? '(live)' : '(none)'),
      recordingsCell(c, recorded.get(c.sid)),
    ],
    sorts: ['DateCreated', 'From', 'To', 'Direction', 'Status', 'Duration', 'Price'],
    /** @type {Record<string, string>} the columns a click on the header sorts by, and their SortBy */
    sortable: { From: 'From', To: 'To', Status: 'Status', Direction: 'Direction', Duration: 'Duration' },
    filters: ['From', 'To', 'Status', 'StartTime', 'EndTime'],
  },
  recordings: {
    title: 'Recordings',
    columns: ['Sid', 'Call', 'Created', 'Duration (s)'],
    /** @param {any} r */
    cells: (r) => [h('a', { href: `#/call/${r.account_sid}/${r.call_sid}` }, r.call_sid), r.date_created, r.duration],
    sorts: ['DateCreated', 'Duration', 'CallSid'],
    /** @type {Record<string, string>} */
    sortable: { Call: 'CallSid', Created: 'DateCreated', 'Duration (s)': 'Duration' },
    filters: ['CallSid', 'StartTime', 'EndTime'],
  },
  notifications: {
    title: 'Notifications',
    columns: ['Sid', 'Call', 'Created', 'Log', 'Error', 'Message'],
    /** @param {any} n */
    cells: (n) => [
      h('a', { href: `#/call/${n.account_sid}/${n.call_sid}` }, n.call_sid),
      n.date_created,
      n.log === 0 ? 'error' : 'warning',
      n.error_code,
      n.message_text,
    ],
    sorts: ['DateCreated', 'Log', 'ErrorCode', 'CallSid', 'MessageText'],
    /** @type {Record<string, string>} */
    sortable: { Call: 'CallSid', Created: 'DateCreated', Log: 'Log', Error: 'ErrorCode', Message: 'MessageText' },
    filters: ['ErrorCode', 'RequestUrl', 'MessageText', 'StartTime', 'EndTime'],
  },
};

/** What a link already says; the rest of a list's query (SortBy, filters) goes with every link followed. */
const PAGING = ['Page', 'PageSize', 'AfterSid'];

/** The envelope's links, in the order a pager shows them. */
const LINKS = /** @type {const} */ ([
  ['first_page_uri', 'First'],
  ['previous_page_uri', 'Previous'],
  ['next_page_uri', 'Next'],
  ['last_page_uri', 'Last'],
]);

/**
 * A list of an account through the real API: the request a client would send (shown as a curl
 * line), the envelope as production writes it (its `"null"` links, `num_pages` as the last
 * page's index, an empty last page), pages by following its links.
 * @param {HTMLElement} main
 * @param {'calls' | 'recordings' | 'notifications'} kind
 * @param {string | undefined} sid
 * @param {URLSearchParams} query the list's own query (Page, PageSize, SortBy, filters)
 */
export async function renderList(main, kind, sid, query) {
  const spec = KINDS[kind];
  const { all, account } = await accountOf(sid);
  if (account === undefined) {
    main.append(h('p', null, 'No accounts: create one first.'));
    return;
  }
  if (!query.has('PageSize')) query.set('PageSize', '50');
  const path = requestable(`/2012-04-24/Accounts/${account.sid}/${spec.title}?${query}`);
  const answer = await get(path, account.token);
  const go = (/** @type {URLSearchParams} */ q) => {
    location.hash = `#/${kind}/${account.sid}?${q}`;
  };

  main.append(
    h('h2', null, `${spec.title} of ${account.friendly_name}`),
    // On a phone the options fold away, so that the list itself is in view; a tap unfolds them.
    h(
      'details',
      { class: 'options', open: !matchMedia('(max-width: 720px)').matches },
      h('summary', null, `List options${describe(query)}`),
      controls(kind, all, account.sid, query, go),
    ),
    h('p', { class: 'request' }, 'The request, as a client sends it:'),
    codeLine(curlOf(path, account.token), 'the curl line of this request'),
  );
  if (answer.status !== 200) {
    main.append(
      h('p', { class: 'error', role: 'alert' }, `${answer.status}: ${answer.body?.message ?? 'no message'}`),
      answer.headers.get('Retry-After') ? h('p', null, `Retry-After: ${answer.headers.get('Retry-After')} s`) : '',
    );
    return;
  }
  const env = answer.body;
  const warning = answer.headers.get('X-Emulator-Warning');
  const items = env[kind];
  const recorded = kind === 'calls' ? await recordingCounts(account.sid, items) : new Map();
  const since = lastMove.since === null ? null : Date.parse(lastMove.since);
  main.append(
    warning ? h('p', { class: 'warning', role: 'note' }, `Warning: ${warning}`) : '',
    pager(env, query, go),
    envelope(env),
    table(
      `Page ${env.page}: ${items.length} ${kind} of ${fmt(env.total)}`,
      headers(spec.columns, spec.sortable, query, go),
      items.map((/** @type {any} */ item) => [
        kind === 'calls'
          ? h(
              'span',
              { class: 'sid' },
              h('a', { href: `#/call/${account.sid}/${item.sid}`, title: item.sid }, item.sid),
              // A call the last clock move brought (live traffic) is marked, and its row highlighted.
              since !== null && Date.parse(item.date_created) > since
                ? h('span', { class: 'badge new', title: `created after ${lastMove.since}` }, 'new')
                : '',
            )
          : h('code', { title: item.sid }, item.sid),
        ...spec.cells(item, recorded),
      ]),
      // Production's paging may end on an empty page: say so rather than show nothing.
      env.total > 0
        ? 'No items on this page: production paging can end on an empty page past the last item.'
        : 'No items.',
    ),
  );
}

/**
 * How many recordings each call of a page has, in one admin request (never a request a call):
 * an account without the admin API's answer shows no marks rather than no page.
 * @param {string} sid
 * @param {{ sid: string }[]} calls
 * @returns {Promise<Map<string, number | null>>}
 */
async function recordingCounts(sid, calls) {
  if (calls.length === 0) return new Map();
  try {
    const { counts } = await admin('POST', `/accounts/${sid}/recording-counts`, { calls: calls.map((c) => c.sid) });
    return new Map(Object.entries(counts));
  } catch {
    return new Map();
  }
}

/**
 * A call's recordings: a link to the call, where they play, or nothing for none.
 * @param {{ sid: string, account_sid: string }} call
 * @param {number | null | undefined} count
 */
function recordingsCell(call, count) {
  if (count === undefined || count === null || count === 0) return '';
  return h(
    'a',
    { href: `#/call/${call.account_sid}/${call.sid}`, class: 'recorded', title: `Play the recordings of ${call.sid}` },
    h('span', { 'aria-hidden': 'true' }, '▶ '),
    String(count),
    h('span', { class: 'visually-hidden' }, count === 1 ? ' recording' : ' recordings'),
  );
}

/** The statuses a call may have, as its Status filter offers them. */
const STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled'];

/**
 * What the options say now, for the folded summary: ` (SortBy From:asc, Status busy)`.
 * @param {URLSearchParams} query
 */
function describe(query) {
  const set = [...query].filter(([name]) => !PAGING.includes(name));
  return set.length === 0 ? '' : ` (${set.map(([name, value]) => `${name} ${value}`).join(', ')})`;
}

/** A count with separators: 12,345. @param {number} n */
const fmt = (n) => n.toLocaleString('en-US');

/**
 * The table's headers: a column production sorts by is a button that sorts by it (ascending,
 * then descending on a second click), from the first page; the sorted one says so (`aria-sort`).
 * @param {string[]} columns
 * @param {Record<string, string>} sortable
 * @param {URLSearchParams} query
 * @param {(q: URLSearchParams) => void} go
 */
function headers(columns, sortable, query, go) {
  const [field = '', dir = 'asc'] = (query.get('SortBy') ?? '').split(':');
  return columns.map((label) => {
    const by = sortable[label];
    if (by === undefined) return label;
    const current = by === field ? (dir.toLowerCase() === 'desc' ? 'descending' : 'ascending') : null;
    const sort = () => {
      const q = new URLSearchParams();
      for (const [name, value] of query) if (!['Page', 'AfterSid', 'SortBy'].includes(name)) q.set(name, value);
      q.set('SortBy', `${by}:${current === 'ascending' ? 'desc' : 'asc'}`);
      go(q);
    };
    const el = h(
      'button',
      { type: 'button', class: 'sort', 'data-sort': current ?? 'none', title: `Sort by ${by}` },
      label,
    );
    el.addEventListener('click', sort);
    return el;
  });
}

/**
 * Page size, sort and filters, as the list's query.
 * @param {'calls' | 'recordings' | 'notifications'} kind
 * @param {import('./api.js').Account[]} all
 * @param {string} sid
 * @param {URLSearchParams} query
 * @param {(q: URLSearchParams) => void} go
 */
function controls(kind, all, sid, query, go) {
  const spec = KINDS[kind];
  const pick = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      null,
      ...all.map((a) =>
        h('option', { value: a.sid, selected: a.sid === sid }, `${a.friendly_name} (${a.calls} calls)`),
      ),
    )
  );
  pick.addEventListener('change', () => {
    location.hash = `#/${kind}/${pick.value}`;
  });
  const size = /** @type {HTMLInputElement} */ (
    h('input', { type: 'number', min: 1, value: query.get('PageSize') ?? '50' })
  );
  const [sortField = '', sortDir = 'desc'] = (query.get('SortBy') ?? '').split(':');
  const sortBy = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      null,
      h('option', { value: '' }, 'default (newest first)'),
      ...spec.sorts.map((s) => h('option', { value: s, selected: s === sortField }, s)),
    )
  );
  const direction = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      null,
      h('option', { value: 'asc', selected: sortDir === 'asc' }, 'ascending'),
      h('option', { value: 'desc', selected: sortDir !== 'asc' }, 'descending'),
    )
  );
  const filters = spec.filters.map(
    (name) =>
      /** @type {HTMLInputElement} */ (
        h('input', { name, value: query.get(name) ?? '', size: 14, list: name === 'Status' ? 'status-values' : null })
      ),
  );
  // Status offers production's values (matched in any case, as its LIKE does), and still takes a pattern.
  const statuses = h('datalist', { id: 'status-values' }, ...STATUSES.map((s) => h('option', { value: s })));
  const form = h(
    'form',
    { class: 'inline', 'aria-label': 'List options' },
    field('Account', pick),
    field('PageSize', size),
    field('SortBy', sortBy),
    field('Order', direction),
    ...filters.map((f) => field(f.name, f)),
    statuses,
    h('button', { type: 'submit' }, 'Apply'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const q = new URLSearchParams({ PageSize: size.value });
    if (sortBy.value !== '') q.set('SortBy', `${sortBy.value}:${direction.value}`);
    for (const f of filters) if (f.value !== '') q.set(f.name, f.value);
    go(q);
  });
  return form;
}

/**
 * Buttons that follow the envelope's own links; a `"null"` link is shown as production writes it.
 * Production's links carry only Page, PageSize and AfterSid: a client walking a sorted or
 * filtered list re-adds its SortBy and filters to each, and so does this pager.
 * @param {any} env
 * @param {URLSearchParams} query the list's query now
 * @param {(q: URLSearchParams) => void} go
 */
function pager(env, query, go) {
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    ...LINKS.map(([key, label]) => {
      const link = env[key];
      if (link === 'null')
        return h('button', { type: 'button', disabled: true, title: `${key} is "null"` }, `${label} ("null")`);
      const at = String(link).indexOf('?');
      const follow = () => {
        const next = new URLSearchParams(at < 0 ? '' : String(link).slice(at + 1));
        for (const [name, value] of query) if (!PAGING.includes(name)) next.set(name, value);
        go(next);
      };
      return button(label, follow, { title: link });
    }),
  );
}

/**
 * The envelope's fields, with production's quirks named.
 * @param {any} env
 */
function envelope(env) {
  return h(
    'details',
    { class: 'envelope' },
    h('summary', null, `Envelope: page ${env.page}, num_pages ${env.num_pages}, total ${env.total}`),
    dl([
      ['page', String(env.page)],
      [
        'num_pages',
        h('span', null, String(env.num_pages), h('small', null, " (production: the last page's index, not a count)")),
      ],
      ['page_size', String(env.page_size)],
      ['total', String(env.total)],
      ['start / end', `${env.start} / ${env.end}`],
      ...LINKS.map(([key]) => /** @type {[string, Node]} */ ([key, h('code', null, JSON.stringify(env[key]))])),
    ]),
  );
}
