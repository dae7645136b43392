/**
 * "Test your incremental sync": a sync job that pulls every call once, then, after time has
 * passed, only the calls since its last run; the emulator's clock and live traffic make new
 * calls arrive, and `/__admin/walks` tells whether the job missed any or saw one twice.
 *
 * Run: npx --no-install ts-node examples/client/incremental-sync.ts URL [COMMIT_LAG_S [fixed]]
 * (or import incrementalSync).
 */
import { requestable } from './walk-calls';

interface CallsPage {
  next_page_uri: string;
  calls: { sid: string; date_created: string }[];
}

interface SyncReport {
  walks: number;
  served: number;
  missed: string[] | null;
  causes: Record<string, string>;
}

/** The longest a row takes to commit in the production this job talks to: what the fixed job re-reads. */
const COMMIT_LAG_ALLOWANCE_MS = 10 * 60 * 1000;

/** Every page of the calls list, re-adding the filter to each link (production's links drop it). */
async function syncCalls(base: string, sid: string, token: string, filter: string): Promise<string[]> {
  const headers = { Authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` };
  const sids: string[] = [];
  let path = `/call/2012-04-24/Accounts/${sid}/Calls.json?PageSize=1000${filter}`;
  for (;;) {
    const page = (await (await fetch(base + path, { headers })).json()) as CallsPage;
    sids.push(...page.calls.map((c) => c.sid));
    if (page.next_page_uri === 'null') return sids;
    path = `${requestable(page.next_page_uri)}${filter}`;
  }
}

async function admin<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/__admin${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * A sync job's two runs against an account with live traffic. The first run, two minutes after
 * midnight, pulls every call; two hours later the second pulls the calls since the first run's
 * day. `commitLagS` turns on production's commit lag (rows visible up to that long after their
 * date_created): calls dated just before midnight that committed after the first run are then
 * never seen by the naive job. The `fixed` job re-reads from the day of its last run less the
 * longest lag, and keys what it keeps by sid, so repeats cost nothing and it misses none.
 */
export async function incrementalSync(
  base: string,
  { commitLagS = 0, fixed = false }: { commitLagS?: number; fixed?: boolean } = {},
): Promise<{ first: number; second: number; sync: SyncReport }> {
  // An account with traffic: 360 calls an hour arrive as the clock moves.
  const account = await admin<{ sid: string; token: string }>(base, 'POST', '/accounts', {
    friendly_name: 'Incremental sync',
    calls: 200,
    traffic: { calls_per_hour: 360 },
    ...(commitLagS > 0 ? { hazards: { commit_lag_s: commitLagS } } : {}),
  });
  // The first run, at two minutes past the next midnight (UTC, the server's zone by default).
  const clock = await admin<{ now: string }>(base, 'GET', '/clock');
  const midnight = Math.ceil((Date.parse(clock.now) + 1) / 86_400_000) * 86_400_000;
  const { now: lastRun } = await admin<{ now: string }>(base, 'POST', '/clock', {
    to: new Date(midnight + 2 * 60_000).toISOString(),
  });
  const first = await syncCalls(base, account.sid, account.token, '');
  // Time passes: two hours of calls arrive (and the late rows of the first run's minutes commit).
  await admin(base, 'POST', '/clock', { advance: 'PT2H' });
  // The second run asks for the calls since its last run's day: the naive watermark.
  const since = fixed ? new Date(Date.parse(lastRun) - COMMIT_LAG_ALLOWANCE_MS).toISOString() : lastRun;
  const second = await syncCalls(base, account.sid, account.token, `&StartTime=${since.slice(0, 10)}`);
  const { syncs } = await admin<{ syncs: SyncReport[] }>(base, 'GET', `/walks?account=${account.sid}`);
  await admin(base, 'DELETE', `/accounts/${account.sid}`);
  const seen = new Set([...first, ...second]);
  return { first: first.length, second: seen.size - first.length, sync: syncs[0] as SyncReport };
}

if (require.main === module) {
  const commitLagS = Number(process.argv[3] ?? 0);
  incrementalSync(process.argv[2] ?? 'http://127.0.0.1:8080', { commitLagS, fixed: process.argv[4] === 'fixed' }).then(
    ({ first, second, sync }) => {
      const missed = sync.missed ?? [];
      process.stdout.write(`first run ${first} calls, second run ${second} new; missed ${missed.length}\n`);
      for (const sid of missed) process.stdout.write(`  ${sid}: ${sync.causes[sid]}\n`);
      if (missed.length > 0) process.exitCode = 1;
    },
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
