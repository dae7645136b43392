/**
 * "Test your incremental sync": a sync job that pulls every call once, then, after time has
 * passed, only the calls since its last run; the emulator's clock and live traffic make new
 * calls arrive, and `/__admin/walks` tells whether the job missed any or saw one twice.
 *
 * Run: npx --no-install ts-node examples/client/incremental-sync.ts URL (or import incrementalSync).
 */
import { requestable } from './walk-calls';

interface CallsPage {
  next_page_uri: string;
  calls: { sid: string; date_created: string }[];
}

interface WalkReport {
  pages: number;
  complete: boolean;
  duplicates: string[];
  missed: string[] | null;
}

/** Every page of the calls list, re-adding the filter to each link (production's links drop it). */
async function syncCalls(base: string, sid: string, token: string, filter: string): Promise<string[]> {
  const headers = { Authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` };
  const sids: string[] = [];
  let path = `/call/2012-04-24/Accounts/${sid}/Calls.json?PageSize=50${filter}`;
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

export async function incrementalSync(base: string): Promise<{ first: number; second: number; walks: WalkReport[] }> {
  // An account with traffic: 120 calls an hour arrive as the clock moves.
  const account = await admin<{ sid: string; token: string }>(base, 'POST', '/accounts', {
    friendly_name: 'Incremental sync',
    calls: 200,
    traffic: { calls_per_hour: 120 },
  });
  await admin(base, 'POST', '/clock', { advance: 'PT1H' });
  const first = await syncCalls(base, account.sid, account.token, '');
  // Time passes: two hours of calls arrive (and the ones in flight end).
  const { now } = await admin<{ now: string }>(base, 'GET', '/clock');
  await admin(base, 'POST', '/clock', { advance: 'PT2H' });
  // The job's second run asks only for the calls since its last run's day.
  const second = await syncCalls(base, account.sid, account.token, `&StartTime=${now.slice(0, 10)}`);
  const { walks } = await admin<{ walks: WalkReport[] }>(base, 'GET', `/walks?account=${account.sid}`);
  await admin(base, 'DELETE', `/accounts/${account.sid}`);
  return { first: first.length, second: second.length, walks };
}

if (require.main === module) {
  incrementalSync(process.argv[2] ?? 'http://127.0.0.1:8080').then(
    ({ first, second, walks }) => {
      const missed = walks.reduce((n, w) => n + (w.missed?.length ?? 0), 0);
      process.stdout.write(`first run ${first} calls, second run ${second}; walks ${walks.length}, missed ${missed}\n`);
      if (missed > 0) process.exitCode = 1;
    },
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
