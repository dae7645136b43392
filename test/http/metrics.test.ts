import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { messages } from '../../src/errors';
import { authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

/** Debian's Python, where python3-prometheus-client installs (`.ci/run` installs it). */
const PYTHON = '/usr/bin/python3';
const checker = join(__dirname, '..', 'support', 'metrics-check.py');
const parserFound =
  existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import prometheus_client.openmetrics.parser']).status === 0;
if (!parserFound) {
  process.stderr.write(
    "\nMetrics format check SKIPPED: no Prometheus parser (install Debian's python3-prometheus-client).\n\n",
  );
}

/** Every metric the emulator exports, with its type: README documents each. */
const NAMES = {
  callrec_http_requests: 'counter',
  callrec_http_request_duration_seconds: 'histogram',
  callrec_journal_entries: 'gauge',
  callrec_journal_bytes: 'gauge',
  callrec_accounts: 'gauge',
  callrec_sandboxes: 'gauge',
  callrec_order_builds_in_progress: 'gauge',
  callrec_order_builds: 'counter',
  callrec_order_build_slices: 'counter',
  callrec_pages_on_threads: 'counter',
  callrec_world_version: 'gauge',
};

/** The value of one sample line of the text format, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  test('counts requests by route, method and status, never by sid', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await authGet(app, `${callsPath(a.sid)}?PageSize=5`, a.token);
    await authGet(app, `${callsPath(a.sid)}?PageSize=6`, a.token);
    await authGet(app, callsPath(a.sid), 'wrong-token');
    const rec = (await authGet(app, `${recordingsPath(a.sid)}?PageSize=1`, a.token)).body.recordings[0];
    await authGet(app, `/call/2012-04-24/Accounts/${a.sid}/Recordings/${rec.sid}.wav`, a.token);
    await authGet(app, `/call/2012-04-24/Accounts/${a.sid}/Calls/${rec.call_sid}.json`, a.token);
    await request(app).get('/__admin/health');
    const res = await request(app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = res.text;
    expect(sample(text, 'callrec_http_requests_total{route="calls",method="GET",status="200"}')).toBe(2);
    expect(sample(text, 'callrec_http_requests_total{route="calls",method="GET",status="401"}')).toBe(1);
    expect(sample(text, 'callrec_http_requests_total{route="recordings",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'callrec_http_requests_total{route="recording_audio",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'callrec_http_requests_total{route="call",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'callrec_http_requests_total{route="admin",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'callrec_http_request_duration_seconds_count{route="calls"}')).toBe(3);
    // No label names a record or an account: a series per sid would grow without end.
    expect(text).not.toMatch(/"(AC|CA|RE|ID)[0-9a-f]{8}/);
    // The scrape itself is not counted, and not journaled.
    expect(text).not.toContain('route="metrics"');
  });

  test('every metric has its HELP and TYPE', async () => {
    const { app } = makeEmulator();
    const text = (await request(app).get('/metrics')).text;
    for (const [name, type] of Object.entries(NAMES)) {
      const exposed = type === 'counter' ? `${name}_total` : name;
      expect(text).toMatch(new RegExp(`^# HELP ${exposed} \\S`, 'm'));
      expect(text).toMatch(new RegExp(`^# TYPE ${exposed} ${type}$`, 'm'));
    }
  });

  test('the gauges read the world, the journal and the order builds', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app).post('/__admin/sandboxes').type('json').send({ from: a.sid });
    await authGet(app, `${callsPath(a.sid)}?SortBy=From:asc`, a.token);
    const text = (await request(app).get('/metrics')).text;
    expect(sample(text, 'callrec_sandboxes')).toBe(1);
    expect(sample(text, 'callrec_accounts')).toBe(world.accounts().length);
    expect(sample(text, 'callrec_journal_entries')).toBe(1);
    expect(sample(text, 'callrec_journal_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'callrec_order_builds_in_progress')).toBe(0);
    expect(sample(text, 'callrec_world_version')).toBe(world.version);
    expect(sample(text, 'callrec_order_build_slices_total')).toBeGreaterThanOrEqual(0);
  });

  test('OpenMetrics when the scraper asks for it; another method is a 405', async () => {
    const { app } = makeEmulator();
    const res = await request(app).get('/metrics').set('Accept', 'application/openmetrics-text; version=1.0.0');
    expect(res.headers['content-type']).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    expect(res.text.trimEnd().endsWith('# EOF')).toBe(true);
    const post = await request(app).post('/metrics');
    expect(post.status).toBe(405);
    expect(post.body.message).toBe(messages.methodNotAllowed('POST', 'GET, HEAD'));
  });

  (parserFound ? test : test.skip)("Prometheus's own parsers read both formats, every family typed", async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await authGet(app, callsPath(a.sid), a.token);
    for (const [kind, accept] of [
      ['openmetrics', 'application/openmetrics-text; version=1.0.0'],
      ['prometheus', 'text/plain'],
    ] as const) {
      const text = (await request(app).get('/metrics').set('Accept', accept)).text;
      const parsed = spawnSync(PYTHON, [checker, kind], { input: text, encoding: 'utf8' });
      expect(parsed.stderr).toBe('');
      expect(parsed.status).toBe(0);
      const families = new Map(
        parsed.stdout
          .trim()
          .split('\n')
          .map((l) => l.split(' ') as [string, string]),
      );
      for (const [name, type] of Object.entries(NAMES)) expect([name, families.get(name)]).toEqual([name, type]);
    }
  });
});
