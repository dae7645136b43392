import http from 'node:http';
import { adminPost, emulator, fixture, log, rows, smoke } from '../context';
import { type AdminAccount, accountsOf, basic, callsUrl, recordingsUrl, timedGet } from '../lib';

/**
 * A clock moved four weeks, then ten years, over live traffic at 3,600 calls an hour: the move
 * itself, then the first health check and the first calls page after it (each a round trip).
 */
export async function clockMoves(): Promise<void> {
  await callbackMoves();
  const traffic = fixture('traffic', [
    { friendly_name: 'T', calls: 448, recordings: 160, traffic: { calls_per_hour: 3600 } },
  ]);
  for (const [what, advance] of [
    ['four weeks', 'P28D'],
    ['ten years', 'P3650D'],
  ] as const) {
    const em = await emulator(['--fixtures', traffic]);
    const [a] = (await accountsOf(em.url)) as [AdminAccount];
    const moved = await adminPost(em.url, '/clock', { advance });
    const health = await timedGet(`${em.url}/__admin/health`);
    const page = await timedGet(callsUrl(em.url, a.sid, '?PageSize=20'), a.token);
    // The recordings list is not in arrival order: its first page is placed, not read off.
    const recs = await timedGet(recordingsUrl(em.url, a.sid, '?PageSize=20'), a.token);
    const ms = moved.ms + health.ms + page.ms + recs.ms;
    log(
      `clock ${what} on: move ${moved.ms.toFixed(1)} ms, health ${health.ms.toFixed(1)} ms, calls page ${page.ms.toFixed(1)} ms, recordings page ${recs.ms.toFixed(1)} ms`,
    );
    rows.push({
      group: 'scale',
      scenario: `clock moved ${what} over traffic at 3,600/h, then health, the calls page and the recordings page`,
      emulator: `${moved.ms.toFixed(1)} + ${health.ms.toFixed(1)} + ${page.ms.toFixed(1)} + ${recs.ms.toFixed(1)} ms`,
      value: ms,
      target: '< 1000 ms',
      met: ms < 1000 && health.status === 200 && page.status === 200 && recs.status === 200,
    });
    await em.stop();
  }
}

/** Calls created for the callbacks row: each completed call sends three callbacks once created (10,200 in all). */
const CALLBACK_CALLS = smoke ? 340 : 3_400;

/**
 * Status callbacks delivered by one clock move: calls created with a StatusCallback to a bare
 * node:http receiver in this process (every one answered: the account's outcomes are all
 * `completed`), then the clock moved an hour, which sends each call's ringing, answered and
 * completed before it answers. The time of that move, and what the receiver got.
 */
async function callbackMoves(): Promise<void> {
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const target = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/status`;
  const em = await emulator([
    '--fixtures',
    fixture('callbacks', [{ friendly_name: 'C', calls: 0, recordings: 0, outcomes: { completed: 1 } }]),
  ]);
  const [a] = (await accountsOf(em.url)) as [AdminAccount];
  const body = new URLSearchParams({
    From: '+15126002188',
    To: '+15550001111',
    Url: 'http://127.0.0.1:1/r',
    StatusCallback: target,
  });
  for (let i = 0; i < CALLBACK_CALLS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, CALLBACK_CALLS - i) }, () =>
        fetch(callsUrl(em.url, a.sid), { method: 'POST', headers: { Authorization: basic(a.token) }, body }).then((r) =>
          r.text(),
        ),
      ),
    );
  }
  // The initiated callbacks go as the creates answer: the move's count starts after them.
  while (received < CALLBACK_CALLS) await new Promise((r) => setTimeout(r, 10));
  const before = received;
  const moved = await adminPost(em.url, '/clock', { advance: 'PT1H' });
  const sent = received - before;
  const journal = (await (await fetch(`${em.url}/__admin/callbacks?timing=false`)).json()) as {
    callbacks: { error: string | null }[];
  };
  const failed = journal.callbacks.filter((e) => e.error !== null);
  if (failed.length > 0) log(`callbacks failed: ${failed.length}, first: ${failed[0]?.error}`);
  const perSecond = Math.round(sent / (moved.ms / 1000));
  log(`callbacks: ${sent} delivered by a 1 h clock move in ${moved.ms.toFixed(0)} ms (${perSecond}/s)`);
  rows.push({
    group: 'scale',
    scenario: `status callbacks delivered when the clock moves 1 h over ${CALLBACK_CALLS.toLocaleString('en-US')} created calls (ringing, answered, completed each), to a node:http receiver, the move answering once all are answered`,
    emulator: `${sent.toLocaleString('en-US')} callbacks in ${moved.ms.toFixed(0)} ms (${perSecond.toLocaleString('en-US')}/s)`,
    value: moved.ms,
    target: '< 10,000 ms',
    // A call may talk longer than the hour (up to four): its completed is not due yet.
    met:
      moved.ms < 10_000 &&
      failed.length === 0 &&
      sent === journal.callbacks.length - CALLBACK_CALLS &&
      sent >= 3 * CALLBACK_CALLS * 0.98,
  });
  await em.stop();
  receiver.close();
}
