import { get, request } from 'node:http';
import seedrandom from 'seedrandom';
import { emulator, fixture, HUGE, LATENCY_SAMPLES, log, rows } from '../context';
import { type AdminAccount, accountsOf, callsUrl, median, percentile } from '../lib';

/** A GET's body, untimed: where the next page's cursor comes from. */
function body(url: string, authorization: string): Promise<string> {
  return new Promise((done, fail) => {
    get(url, { headers: { authorization } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => done(text));
    }).on('error', fail);
  });
}

/**
 * The Twilio dialect's cost: a 10M-call account's pages by Twilio's cursor beside the same pages
 * by the service's own offset, in one process (the dialect serves both), alternating, no render
 * cache. A cursor page finds its place by bisection on the order's keys; an offset page by index.
 */
export async function twilio(): Promise<void> {
  const file = fixture('twilio-huge', [{ friendly_name: 'Huge', calls: HUGE, recordings: 0 }]);
  const em = await emulator(['--fixtures', file, '--dialect', 'twilio', '--cache-mb', '0']);
  const [huge] = (await accountsOf(em.url)) as [AdminAccount];
  const { timedGet } = await import('../lib');
  const twilioUrl = (query: string) => `${em.url}/2010-04-01/Accounts/${huge.sid}/Calls.json?${query}`;
  const own = `Basic ${Buffer.from(`${huge.token}:`).toString('base64')}`;
  const rng = seedrandom.alea('twilio-pages');
  const spec: number[] = [];
  const cursor: number[] = [];
  const size = 50;
  // A discarded first round warms the JIT for both.
  for (let i = -20; i < LATENCY_SAMPLES; i++) {
    const page = 1 + Math.floor(rng() * Math.floor(HUGE / size - 2));
    // The cursor of page `page`: the last sid of the page before, from its next link (untimed).
    const before = JSON.parse(await body(callsUrl(em.url, huge.sid, `?Page=${page - 1}&PageSize=${size}`), own));
    const after = /AfterSid=ID[0-9a-f]{32}-(CA[0-9a-f]{32})/.exec(before.next_page_uri)?.[1];
    if (after === undefined) throw new Error('no AfterSid on the previous page');
    const a = await timedGet(callsUrl(em.url, huge.sid, `?Page=${page}&PageSize=${size}&probe=${i}`), huge.token);
    const b = await timedGet(
      twilioUrl(`PageSize=${size}&Page=${page}&PageToken=PA${after}&probe=${i}`),
      huge.token,
      huge.sid,
    );
    if (a.status !== 200 || b.status !== 200) throw new Error(`page probes got ${a.status} and ${b.status}`);
    if (i >= 0) {
      spec.push(a.ms);
      cursor.push(b.ms);
    }
  }
  const ratio = median(cursor) / median(spec);
  const fmt = (t: number[]) => `p50 ${median(t).toFixed(2)} ms, p99 ${percentile(t, 99).toFixed(2)} ms`;
  log(`twilio ${HUGE} cursor pages: ${fmt(cursor)}; offset pages ${fmt(spec)}; ratio ${ratio.toFixed(2)}`);
  rows.push({
    group: 'latency',
    scenario: `Twilio dialect, ${HUGE.toLocaleString('en-US')} calls: a page by PageToken, against the same page by Page in the same process, alternating`,
    emulator: fmt(cursor),
    baseline: fmt(spec),
    value: ratio,
    target: '≤ 1.25x the offset page',
    met: ratio <= 1.25,
    chart: { label: `${HUGE / 1e6}M\nTwilio cursor`, emulator: median(cursor), baseline: median(spec) },
  });
  // The first page, and a filtered one, as a client of Twilio's starts a walk.
  const firsts: number[] = [];
  const specFirsts: number[] = [];
  for (let i = 0; i < 40; i++) {
    specFirsts.push((await timedGet(callsUrl(em.url, huge.sid, `?PageSize=${size}&probe=f${i}`), huge.token)).ms);
    firsts.push((await timedGet(twilioUrl(`PageSize=${size}&probe=f${i}`), huge.token, huge.sid)).ms);
  }
  const firstRatio = median(firsts) / median(specFirsts);
  log(`twilio first pages: ${fmt(firsts)}; spec ${fmt(specFirsts)}; ratio ${firstRatio.toFixed(2)}`);
  rows.push({
    group: 'latency',
    scenario: `Twilio dialect, ${HUGE.toLocaleString('en-US')} calls: the first page, against the spec dialect's first page, alternating`,
    emulator: fmt(firsts),
    baseline: fmt(specFirsts),
    value: firstRatio,
    target: '≤ 1.25x the spec page',
    met: firstRatio <= 1.25,
  });
  await em.stop();
  await walksCompared(size);
}

/** A POST of JSON to the admin API, untimed. */
function post(url: string, json: unknown): Promise<void> {
  return new Promise((done, fail) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => done());
    });
    req.on('error', fail);
    req.end(JSON.stringify(json));
  });
}

/**
 * The walks report on a 10M-call account with live traffic (one call a second): two clients
 * walk its first pages while the clock moves five seconds between pages, one by Twilio's
 * cursor, the other by the service's offset. The report counts each walk's duplicates.
 */
async function walksCompared(size: number): Promise<void> {
  const file = fixture('twilio-live', [
    { friendly_name: 'Live', calls: HUGE, recordings: 0, traffic: { calls_per_hour: 3600 } },
  ]);
  const em = await emulator(['--fixtures', file, '--dialect', 'twilio']);
  const [live] = (await accountsOf(em.url)) as [AdminAccount];
  const pages = 40;
  const twilioAuth = `Basic ${Buffer.from(`${live.sid}:${live.token}`).toString('base64')}`;
  const ownAuth = `Basic ${Buffer.from(`${live.token}:walker`).toString('base64')}`;
  let next: string | null = `/2010-04-01/Accounts/${live.sid}/Calls.json?PageSize=${size}`;
  for (let n = 0; n < pages && next !== null; n++) {
    next = JSON.parse(await body(`${em.url}${next}`, twilioAuth)).next_page_uri as string | null;
    await body(callsUrl(em.url, live.sid, `?Page=${n}&PageSize=${size}`), ownAuth);
    await post(`${em.url}/__admin/clock`, { advance: 'PT5S' });
  }
  const report = JSON.parse(await body(`${em.url}/__admin/walks?account=${live.sid}`, ''));
  const walks = report.walks as { pages: number; items_served: number; duplicates_count: number; requests: number[] }[];
  // The cursor walk asks first each round: its first request is the older.
  const [cursorWalk, offsetWalk] = walks
    .filter((w) => w.pages === pages)
    .sort((x, y) => (x.requests[0] ?? 0) - (y.requests[0] ?? 0));
  if (cursorWalk === undefined || offsetWalk === undefined) throw new Error('the two walks are not in the report');
  log(
    `walks: cursor ${cursorWalk.duplicates_count} duplicates, offset ${offsetWalk.duplicates_count}, of ${cursorWalk.items_served}`,
  );
  rows.push({
    group: 'scale',
    scenario: `walks report, ${HUGE.toLocaleString('en-US')} calls with a call arriving a second, ${pages} pages of ${size} five seconds apart: duplicates by Twilio's cursor, against the service's offset`,
    emulator: `${cursorWalk.duplicates_count} of ${cursorWalk.items_served} served`,
    baseline: `${offsetWalk.duplicates_count} of ${offsetWalk.items_served} served`,
    value: cursorWalk.duplicates_count,
    target: 'no duplicate by cursor; the offset walk repeats the arrivals',
    met: cursorWalk.duplicates_count === 0 && offsetWalk.duplicates_count > 0,
  });
  await em.stop();
}
