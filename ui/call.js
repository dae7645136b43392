// @ts-check
import { accountOf, curlOf, get, requestable } from './api.js';
import { codeLine, dl, h } from './dom.js';
import { drawWaveform } from './waveform.js';

/**
 * One call as the API shows it, with its recordings (through the call's own `recordings` link),
 * each playable in the page from its `.wav`, with its waveform.
 * @param {HTMLElement} main
 * @param {string} sid the account
 * @param {string} callSid
 */
export async function renderCall(main, sid, callSid) {
  const { account } = await accountOf(sid);
  if (account === undefined || account.sid !== sid) throw new Error(`No account ${sid}`);
  const path = requestable(`/2012-04-24/Accounts/${sid}/Calls/${callSid}`);
  const answer = await get(path, account.token);
  main.append(
    h('p', null, h('a', { href: `#/calls/${sid}` }, `← Calls of ${account.friendly_name}`)),
    h('h2', null, `Call ${callSid}`),
  );
  main.append(codeLine(curlOf(path, account.token), 'the curl line of this request'));
  if (answer.status !== 200) {
    main.append(h('p', { class: 'error', role: 'alert' }, `${answer.status}: ${answer.body?.message ?? ''}`));
    return;
  }
  const call = answer.body;
  main.append(
    dl(
      Object.entries(call)
        .filter(([, v]) => typeof v !== 'object')
        .map(([k, v]) => [k, String(v)]),
    ),
  );

  // The link as production prints it has no /call prefix: requestable() adds it, as a client must.
  const recPath = requestable(call.subresource_uris.recordings);
  const recs = await get(recPath, account.token);
  main.append(
    h('h3', null, 'Recordings'),
    codeLine(curlOf(recPath, account.token), 'the curl line of the recordings of this call'),
  );
  // Production answers a call's recordings with a bare array: no envelope, no paging.
  const list = Array.isArray(recs.body) ? recs.body : [];
  main.append(
    h(
      'p',
      null,
      h(
        'small',
        null,
        `${recs.status}: a bare JSON array of ${list.length}, no envelope (as production answers this sub-list).`,
      ),
    ),
  );
  if (list.length === 0) main.append(h('p', null, 'This call has no recordings.'));
  for (const rec of list) {
    // file_uri names the public URL (--public-url): the page plays it from this emulator, same path.
    const wav = new URL(rec.file_uri, location.href).pathname;
    const canvas = /** @type {HTMLCanvasElement} */ (
      h('canvas', { width: 600, height: 80, role: 'img', 'aria-label': `Waveform of recording ${rec.sid}` })
    );
    const audio = h('audio', {
      controls: true,
      preload: 'metadata',
      src: wav,
      'aria-label': `Recording ${rec.sid}, ${rec.duration} s`,
    });
    main.append(
      h(
        'section',
        { class: 'recording', 'aria-label': `Recording ${rec.sid}` },
        h('h4', null, h('code', null, rec.sid), ` ${Number(rec.duration).toFixed(1)} s, created ${rec.date_created}`),
        audio,
        canvas,
        h('p', null, h('a', { href: wav }, rec.file_uri)),
      ),
    );
    void drawWaveform(canvas, wav).catch((err) =>
      canvas.replaceWith(h('p', { class: 'error' }, `No waveform: ${err.message}`)),
    );
  }
}
