import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminPost, emulator, fixture, HAS_WRK, HUGE, log, ROUNDS, rows, scratch, wrkLoad } from '../context';
import { type AdminAccount, accountsOf, basic, callsUrl, median, sleep } from '../lib';

/**
 * A walk of a 10M-call account with live traffic while inserts land among its pages (16 a second,
 * from this process), against the same walk without them, rounds alternating: each insert used
 * to write the whole ten-million-id order out again, and the walk fell to a fiftieth of its rate.
 */
export async function walkWrites(): Promise<void> {
  if (!HAS_WRK) {
    log('walkWrites: SKIPPED (wrk not found: apt-get install wrk)');
    return;
  }
  const server = await emulator([
    '--fixtures',
    fixture('walk-writes', [{ friendly_name: 'Huge', calls: HUGE, recordings: 0, traffic: { calls_per_hour: 3600 } }]),
  ]);
  const [huge] = await accountsOf(server.url);
  const { sid, token } = huge as AdminAccount;
  const file = join(scratch, 'walk-writes.lua');
  writeFileSync(
    file,
    `local page = 0\nrequest = function()\n  page = page + 1\n` +
      `  return wrk.format("GET", "/call/2012-04-24/Accounts/${sid}/Calls.json?PageSize=50&Page=" .. page)\nend\n`,
  );
  const auth = { authorization: basic(token) };
  const list = callsUrl(server.url, sid);
  /** Inserts a call every 60 ms until `done` resolves; how many it made. */
  const inserting = async (done: Promise<unknown>) => {
    let over = false;
    void done.then(() => {
      over = true;
    });
    let made = 0;
    while (!over) {
      await adminPost(server.url, `/accounts/${sid}/calls`, [{}]);
      made++;
      await sleep(60);
    }
    return made;
  };
  await wrkLoad(server, list, auth, file);
  const sides = { quiet: [] as number[], writes: [] as number[] };
  let inserts = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? (['quiet', 'writes'] as const) : (['writes', 'quiet'] as const)) {
      const walk = wrkLoad(server, list, auth, file);
      if (side === 'writes') inserts += await inserting(walk);
      sides[side].push((await walk).rps);
    }
  }
  const ratio = median(sides.writes) / median(sides.quiet);
  log(
    `walk with writes: ${median(sides.writes).toFixed(0)} pages/s with ${inserts} inserts among them, ${median(sides.quiet).toFixed(0)} without`,
  );
  rows.push({
    group: 'scale',
    scenario: `walk of a ${HUGE.toLocaleString('en-US')}-call account with live traffic, wrk, while inserts land among its pages (about 16 a second), against the same walk without them`,
    emulator: `${median(sides.writes).toFixed(0)} vs ${median(sides.quiet).toFixed(0)} pages/s (${ratio.toFixed(2)}x)`,
    value: ratio,
    target: '≥ 0.5x the walk without writes',
    met: ratio >= 0.5,
  });
  await server.stop();
}
