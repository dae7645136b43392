import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  children,
  coldRequests,
  duel,
  emulator,
  emulatorLogging,
  fixture,
  HAS_WRK,
  HUGE,
  load,
  log,
  ROUNDS,
  rows,
  scratch,
  smoke,
  wrkLoad,
} from '../context';
import {
  type AdminAccount,
  accountsOf,
  basic,
  type Child,
  callsUrl,
  median,
  ROOT,
  spawnServer,
  timedGet,
} from '../lib';

export async function throughput(): Promise<void> {
  const em = await emulator([]);
  const accounts = await accountsOf(em.url);
  const main = accounts.find((a) => a.calls === 448) as AdminAccount;
  const hotUrl = callsUrl(em.url, main.sid);
  const hot = await timedGet(hotUrl, main.token);
  const bodyFile = join(scratch, 'hot-page.json');
  writeFileSync(
    bodyFile,
    Buffer.from(await (await fetch(hotUrl, { headers: { authorization: basic(main.token) } })).arrayBuffer()),
  );
  log(`hot page: ${hot.bytes} bytes`);
  const baseline = await spawnServer([resolve(__dirname, '..', 'baseline-server.js'), bodyFile], false);
  children.push(baseline);
  const auth = { authorization: basic(main.token) };

  await duel(
    `hot page (the same ${(hot.bytes / 1024).toFixed(0)} KB page of 50 calls), autocannon (client-bound)`,
    'hot page',
    (side) => (side === 'baseline' ? load(baseline, baseline.url, undefined, auth) : load(em, hotUrl, undefined, auth)),
    0.6,
    em,
  );

  const nextCold = coldRequests(accounts);
  const randomRequest = (req: { path: string; headers: Record<string, string> }) => {
    const { path, token } = nextCold();
    req.path = path;
    req.headers = { ...req.headers, authorization: basic(token) };
  };
  await duel(
    'cold pages (random account, page, PageSize 10-100 and SortBy per request)',
    'cold pages',
    (side) => (side === 'baseline' ? load(baseline, baseline.url, randomRequest) : load(em, em.url, randomRequest)),
    0.25,
    em,
  );
  if (HAS_WRK) {
    // autocannon, in node, tops out near the server's own speed on two cores, so the rows above
    // flatter the emulator; wrk does not. The log level is a row of its own: at `info` every
    // request writes a line, which is most of what a request costs.
    const levels: [string | null, string, number][] = [
      ['silent', '--log-level silent', 0.6],
      [null, 'the default --log-level (warn: a request that went well writes no line)', 0.6],
      ['info', '--log-level info (a JSON line a request, to a pipe)', 0.35],
    ];
    for (const [level, label, target] of levels) {
      const server = await emulatorLogging(level);
      const url = callsUrl(server.url, main.sid);
      // A round unrecorded, so that both sides are compiled and the page is cached when it counts.
      await wrkLoad(baseline, baseline.url, auth);
      await wrkLoad(server, url, auth);
      await duel(
        `hot page, wrk, ${label}`,
        `wrk ${level ?? 'default'}`,
        (side) => (side === 'baseline' ? wrkLoad(baseline, baseline.url, auth) : wrkLoad(server, url, auth)),
        target,
        server,
      );
      await server.stop();
    }
    await coldPagesWrk(baseline, accounts);
    await coldWalk(baseline);
  } else {
    log('wrk not found (apt-get install wrk): the rows measured with it are skipped');
  }
  await baseline.stop();
  await em.stop();
}

/**
 * The cold pages row's requests with wrk (which autocannon, in node, holds back): the same
 * seeded sequence of accounts, pages, PageSizes and SortBys, 20,000 requests that each round
 * asks in order, against a fresh emulator at `--log-level silent`, as the autocannon row.
 */
async function coldPagesWrk(baseline: Child, accounts: AdminAccount[]): Promise<void> {
  const server = await emulatorLogging('silent');
  const next = coldRequests(accounts);
  const lines: string[] = [];
  for (let k = 0; k < 20_000; k++) {
    const { path, token } = next();
    lines.push(`  {"${path}", "${basic(token)}"},`);
  }
  const script = join(scratch, 'cold-pages.lua');
  // Formatted in init(): wrk sets its Host header only once the script has loaded.
  writeFileSync(
    script,
    `local raw = {\n${lines.join('\n')}\n}\nlocal reqs = {}\ninit = function(args)\n` +
      `  for k, r in ipairs(raw) do reqs[k] = wrk.format("GET", r[1], {["Authorization"] = r[2]}) end\nend\n` +
      `local i = 0\nrequest = function()\n  i = i + 1\n  if i > #reqs then i = 1 end\n  return reqs[i]\nend\n`,
  );
  await wrkLoad(server, server.url, {}, script);
  await duel(
    'cold pages, wrk (the same requests as the row above: random account, page, PageSize 10-100 and SortBy)',
    'cold pages wrk',
    (side) => (side === 'baseline' ? wrkLoad(baseline, baseline.url) : wrkLoad(server, server.url, {}, script)),
    0.6,
    server,
  );
  await server.stop();
}

/**
 * A walk of a huge account's pages in the default order with wrk, each request the next page
 * (PageSize 50), so that every page is one never rendered before, as a load test or an export
 * walking a big account sends: beside the bare server writing a page it holds.
 */
async function coldWalk(baseline: Child): Promise<void> {
  const server = await emulator([
    '--fixtures',
    fixture('walk', [{ friendly_name: 'Huge', calls: HUGE, recordings: 0 }]),
  ]);
  const [huge] = await accountsOf(server.url);
  const { sid, token } = huge as AdminAccount;
  // Each round walks its own fifth of the pages (wrk keeps no state between runs), so no page is
  // asked twice unless a round outruns its share, when it starts its share again.
  const span = Math.floor(HUGE / 50 / 5);
  let round = 0;
  const script = () => {
    const file = join(scratch, `walk-${round}.lua`);
    const first = round++ * span;
    writeFileSync(
      file,
      `local page = ${first}\nrequest = function()\n  page = page + 1\n  if page >= ${first + span} then page = ${first} end\n` +
        `  return wrk.format("GET", "/call/2012-04-24/Accounts/${sid}/Calls.json?PageSize=50&Page=" .. page)\nend\n`,
    );
    return file;
  };
  const auth = { authorization: basic(token) };
  await wrkLoad(server, server.url, auth, script());
  const { baselineRps } = await duel(
    `cold walk of a ${HUGE.toLocaleString('en-US')}-call account (default order, PageSize 50, every request the next page), wrk`,
    'cold walk',
    (side) =>
      side === 'baseline' ? wrkLoad(baseline, baseline.url, auth) : wrkLoad(server, server.url, auth, script()),
    0.6,
    server,
  );
  await server.stop();
  walkFloor(baselineRps);
}

/** The parts of the built emulator the walk's floor runs, loaded from dist as the server does. */
interface CallWriting {
  world: unknown;
  profile: { sid: string };
  generateCall(world: unknown, profile: unknown, index: number): unknown;
  writeCallJson(call: unknown, accountSid: string, sink: unknown): void;
  sink: { at: number; buf: Buffer; text(s: string): void; bytes(b: Uint8Array): void };
}

/**
 * The least a cold walk's page costs while records are made on read: its 50 calls drawn and
 * written as bytes into a page (`generateCall`, `writeCallJson`, as a page thread or the main
 * thread writes a page it has not cached), then copied into a body, in this process, with no
 * HTTP, cache, order or envelope around them. It bounds what one thread can write: a walk whose
 * pages all went to one page thread could not pass 1 / floor pages a second, however lean the
 * rest became; the row gives that rate as a share of the bare server's (the main thread, which
 * writes a page asked for alone, and more threads on more cores, can add to it).
 */
function walkFloor(bareRps: number): void {
  const load = (path: string) => require(join(ROOT, 'dist', path));
  const { makeWorldContext, makeAccountProfile } = load('generators/account.js');
  const { ByteSink } = load('format/byte-sink.js');
  const w: CallWriting = {
    world: makeWorldContext('callrec', Date.parse('2025-06-01T00:00:00Z')),
    profile: makeAccountProfile('callrec', { friendlyName: 'Huge', calls: HUGE, recordings: 0 }, 0),
    generateCall: load('generators/call.js').generateCall,
    writeCallJson: load('format/call.js').writeCallJson,
    sink: new ByteSink(256 * 1024),
  };
  const pages = smoke ? 100 : 2_000;
  const perPage: number[] = [];
  const comma = Buffer.from(',');
  const body = Buffer.allocUnsafeSlow(256 * 1024);
  let bytes = 0;
  // The first round compiles; each round draws pages the earlier ones did not.
  for (let round = 0; round <= ROUNDS + 2; round++) {
    const t0 = process.hrtime.bigint();
    for (let page = 0; page < pages; page++) {
      const top = HUGE - 1 - (round * pages + page) * 50;
      const sink = w.sink;
      sink.at = 0;
      sink.text('{"calls":[');
      for (let k = 0; k < 50; k++) {
        if (k > 0) sink.bytes(comma);
        w.writeCallJson(w.generateCall(w.world, w.profile, top - k), w.profile.sid, sink);
      }
      sink.text(']}');
      // Into the body sent, as the server copies a page out of where it was written.
      sink.buf.copy(body, 0, 0, sink.at);
      bytes += sink.at;
    }
    if (round > 0) perPage.push(Number(process.hrtime.bigint() - t0) / 1e3 / pages);
  }
  const floorUs = median(perPage);
  const oneThread = 1e6 / floorUs / bareRps;
  log(
    `cold walk floor: ${floorUs.toFixed(0)} µs a page in process, one thread at most ${oneThread.toFixed(2)} of bare (${bytes} bytes written)`,
  );
  rows.push({
    group: 'throughput',
    scenario: `the least a cold walk page costs with records made on read, today's generators and writer: its 50 calls drawn and written as bytes into the page, then copied into a body, in one thread, no HTTP (median of ${ROUNDS + 2} rounds of ${pages.toLocaleString('en-US')} pages); measured: the pages a second one thread can write so, as a share of the bare server's requests a second`,
    emulator: `${floorUs.toFixed(0)} µs a page (${(floorUs / 50).toFixed(2)} µs a call; ${Math.round(1e6 / floorUs).toLocaleString('en-US')} pages a second)`,
    baseline: `${Math.round(bareRps).toLocaleString('en-US')} req/s`,
    value: oneThread,
    target: 'reported',
    met: true,
  });
}
