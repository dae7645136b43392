import type { Metric, Registry, RegistryContentType } from 'prom-client';
import { pageThreads } from '../cache/page-threads';
import { LIST_PATHS } from '../format/uris';
import { LIST_NAMES, type ListName } from '../generators/list-names';
import type { Journal } from '../journal/journal';
import type { World } from '../store/world';
import { buildsUnderWay, sliceCounts } from './slices';

/** Where Prometheus scrapes: its convention, beside the API and outside the admin mount. */
export const METRICS_PATH = '/metrics';

/**
 * The route of a path, as a label: a few fixed names, never a sid (a label value a sid would make
 * a series per record).
 * @example routeOf('/call/2012-04-24/Accounts/AC1/Calls.json') // 'calls'
 */
export function routeOf(path: string): string {
  // Read in place (no split, no regex): it runs on every request.
  if (path.startsWith('/__admin')) return path.startsWith('/__admin/ui') ? 'admin_ui' : 'admin';
  const at = path.indexOf('/Accounts');
  if (at < 0) return 'other';
  const afterAccounts = at + '/Accounts'.length;
  if (afterAccounts === path.length || path[afterAccounts] === '.') return 'accounts';
  if (path[afterAccounts] !== '/') return 'other';
  // After `Accounts`: the account, a list, a record, a record's sub-list; each may end in `.json`.
  const list = path.indexOf('/', afterAccounts + 1);
  if (list < 0) return 'account';
  const name = listAt(path, list + 1);
  if (name === undefined) return 'other';
  const record = path.indexOf('/', list + 1);
  if (record < 0) return name;
  const sub = path.indexOf('/', record + 1);
  if (sub >= 0) {
    const of = listAt(path, sub + 1);
    return name === 'calls' && of !== undefined && of !== 'calls' ? `call_${of}` : 'other';
  }
  if (name === 'recordings' && (path.endsWith('.wav') || path.endsWith('.mp3'))) return 'recording_audio';
  return singular(name);
}

/** The list a path segment names (`Calls`, `Calls.json`), by the lists' one table of path segments. */
function listAt(path: string, from: number): ListName | undefined {
  return LIST_NAMES.find((name) => segmentIs(path, from, LIST_PATHS[name].segment));
}

/** A record of a list, as a route: `calls` → `call`. */
const singular = (name: ListName) => name.slice(0, -1);

/** Whether the path's segment at `from` is `name`, with or without an extension. */
function segmentIs(path: string, from: number, name: string): boolean {
  if (!path.startsWith(name, from)) return false;
  const next = path[from + name.length];
  return next === undefined || next === '/' || next === '.';
}

/** Latency buckets, seconds: a hot page answers in a tenth of a millisecond, a first sort in seconds. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The label values, each an index: the request path counts by number. */
const METHOD_NAMES = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'other'];
const METHOD_INDEX = new Map(METHOD_NAMES.map((m, i) => [m, i]));
const ROUTE_NAMES = [
  ...LIST_NAMES,
  ...LIST_NAMES.map(singular),
  'recording_audio',
  ...LIST_NAMES.filter((name) => name !== 'calls').map((name) => `call_${name}`),
  'account',
  'accounts',
  'admin',
  'admin_ui',
  'other',
];
const ROUTE_INDEX = new Map(ROUTE_NAMES.map((r, i) => [r, i]));

/** One route's latencies: a count a bucket (the last: above every bound), their sum and count. */
interface RouteTimes {
  buckets: Float64Array;
  sum: number;
  count: number;
}

const LATENCY = 'callrec_http_request_duration_seconds';

/**
 * The latency histogram as prom-client's registry reads a metric (`name`, `help`, `get()`), made
 * from the plain counts on a scrape: cumulative `_bucket` series with `le`, then `_sum`, `_count`.
 */
function latencyHistogram(routes: ReadonlyMap<string, RouteTimes>) {
  const help = 'Time from a request arriving to its answer closing, by route.';
  return {
    name: LATENCY,
    help,
    type: 'histogram',
    get: () => {
      const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
      for (const [route, t] of routes) {
        let cumulative = 0;
        BUCKETS.forEach((le, b) => {
          cumulative += t.buckets[b] as number;
          values.push({ metricName: `${LATENCY}_bucket`, labels: { le, route }, value: cumulative });
        });
        values.push({ metricName: `${LATENCY}_bucket`, labels: { le: '+Inf', route }, value: t.count });
        values.push({ metricName: `${LATENCY}_sum`, labels: { route }, value: t.sum });
        values.push({ metricName: `${LATENCY}_count`, labels: { route }, value: t.count });
      }
      return { name: LATENCY, help, type: 'histogram', values, aggregator: 'sum' };
    },
  };
}

/** What the metrics read on a scrape; the request counters are fed as requests close. */
export interface MetricsSources {
  world: World;
  journal: Journal;
  /** The write log, as far as metrics read it (admin/write-log.ts's WriteLog). */
  log: {
    readonly version: number;
    /** Versions the log holds that this replica has not applied yet. */
    lag(): Promise<number>;
    /** Whether the log can be reached. */
    readonly up: boolean;
  };
}

/** One app's metrics: its own registry (apps in one process never mix their counts). */
export interface Metrics {
  /** The registry, made (and prom-client loaded) at the first call. */
  registry(): Promise<Registry<RegistryContentType>>;
  /** A request closed: its route, method, status (0: no answer) and duration. */
  observe(route: string, method: string, status: number, seconds: number): void;
}

/**
 * The metrics of one app, in Prometheus's text format or OpenMetrics (as the scraper asks): every
 * name is documented in its HELP line and in docs/operations.md. prom-client (the Node ecosystem's
 * Prometheus library) writes both formats; what is counted is ours.
 */
export function createMetrics({ world, journal, log }: MetricsSources): Metrics {
  // The request path adds to plain numbers (no label hashing, no string made a request: the
  // metrics cost a hot page under 2%); a scrape turns them into prom-client's series.
  const counts = new Map<number, number>();
  const routes = new Map<string, RouteTimes>();
  // prom-client is loaded at the first scrape: a start-up that is never scraped skips its load.
  let made: Promise<Registry<RegistryContentType>> | null = null;
  const build = async () => {
    const { Counter, Gauge, Registry } = await import('prom-client');
    const registry = new Registry<RegistryContentType>();
    new Counter({
      name: 'callrec_http_requests_total',
      help: 'Requests answered, by route (a fixed name, never a sid), method and status (0: closed before an answer).',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [key, n] of counts) {
          const status = key % 1000;
          const method = METHOD_NAMES[Math.floor(key / 1000) % METHOD_NAMES.length] as string;
          const route = ROUTE_NAMES[Math.floor(key / 1000 / METHOD_NAMES.length)] as string;
          this.inc({ route, method, status: String(status) }, n);
        }
      },
    });
    registry.registerMetric(latencyHistogram(routes) as unknown as Metric);
    new Gauge({
      name: 'callrec_journal_entries',
      help: 'Entries the request journal holds.',
      registers: [registry],
      collect() {
        this.set(journal.count);
      },
    });
    new Gauge({
      name: 'callrec_journal_bytes',
      help: 'About the bytes the request journal holds (its budget bounds it).',
      registers: [registry],
      collect() {
        this.set(journal.heldBytes);
      },
    });
    new Gauge({
      name: 'callrec_accounts',
      help: 'Accounts, sandboxes included.',
      registers: [registry],
      aggregator: 'max',
      collect() {
        this.set(world.accounts().length);
      },
    });
    new Gauge({
      name: 'callrec_sandboxes',
      help: 'Live sandboxes.',
      registers: [registry],
      aggregator: 'max',
      collect() {
        this.set(world.sandboxes().length);
      },
    });
    new Gauge({
      name: 'callrec_order_builds_in_progress',
      help: 'Orders being built now (a first sort or filter of a large account), as GET /__admin/builds lists them.',
      registers: [registry],
      collect() {
        this.set(buildsUnderWay().length);
      },
    });
    // Counters of the process's one slice scheduler, read on a scrape (every app in the process
    // shares it, as they share the built orders).
    new Counter({
      name: 'callrec_order_builds_total',
      help: 'Orders built since start (each build runs in slices between requests).',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sliceCounts.builds);
      },
    });
    new Counter({
      name: 'callrec_order_build_slices_total',
      help: 'Slices of long work run since start: order builds, state imports, walk reports.',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sliceCounts.slices);
      },
    });
    new Counter({
      name: 'callrec_pages_on_threads_total',
      help: 'List pages whose calls a page thread wrote (pages of a long order asked for together, as a walk sends them).',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(pageThreads.written);
      },
    });
    new Gauge({
      name: 'callrec_world_version',
      help: 'Writes applied to the world since start (inserts, deletes, clock moves, accounts, sandboxes).',
      registers: [registry],
      aggregator: 'max',
      collect() {
        this.set(world.version);
      },
    });
    new Gauge({
      name: 'callrec_log_version',
      help: 'The write log version this replica has applied (X-Callrec-Version): equal on every replica once caught up.',
      registers: [registry],
      aggregator: 'min',
      collect() {
        this.set(log.version);
      },
    });
    new Gauge({
      name: 'callrec_log_lag',
      help: 'Versions the write log holds that this replica has not applied yet (0 when caught up).',
      registers: [registry],
      aggregator: 'max',
      async collect() {
        this.set(await log.lag());
      },
    });
    new Gauge({
      name: 'callrec_log_up',
      help: 'Whether the write log (this process, the primary of --workers, or Redis) can be reached: 1 or 0.',
      registers: [registry],
      aggregator: 'min',
      collect() {
        this.set(log.up ? 1 : 0);
      },
    });
    return registry;
  };
  return {
    registry: () => {
      made ??= build();
      return made;
    },
    observe(route, method, status, seconds) {
      // A method is any token a client sends: the label keeps the HTTP ones, the rest are `other`.
      const m = METHOD_INDEX.get(method) ?? METHOD_NAMES.length - 1;
      const r = ROUTE_INDEX.get(route) ?? (ROUTE_INDEX.get('other') as number);
      const key = (r * METHOD_NAMES.length + m) * 1000 + (status >= 0 && status < 1000 ? status : 0);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      let times = routes.get(route);
      if (times === undefined) {
        times = { buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 };
        routes.set(route, times);
      }
      let b = 0;
      while (b < BUCKETS.length && seconds > (BUCKETS[b] as number)) b++;
      times.buckets[b] = (times.buckets[b] as number) + 1;
      times.sum += seconds;
      times.count++;
    },
  };
}
