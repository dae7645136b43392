import Redis, { type RedisOptions } from 'ioredis';
import { LogDiverged, type LogEntry, type LogTransport } from '../admin/write-log';
import { problems, ValidationError } from '../errors';
import { type Genesis, genesisConflict } from './genesis';

/** The keys beside each other in the Redis database the URL names. */
const KEYS = { log: 'callrec:log', version: 'callrec:version', genesis: 'callrec:genesis' } as const;

/**
 * Appends an entry as the next version, atomically: the counter and the stream move together,
 * and an entry's stream id is its version (`v-1`), so a reader knows the version of what it
 * reads. ARGV[2] is the newest version the appending replica has seen: a log that holds fewer
 * (Redis lost it, or it was emptied) takes nothing, and the replica says so.
 */
const APPEND = `
local head = tonumber(redis.call('GET', KEYS[2]) or '0')
if head < tonumber(ARGV[2]) then return -1 - head end
local v = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[1], v .. '-1', 'e', ARGV[1])
return v`;

/** Entries read in one round trip, catching up or following. */
const BATCH = 1000;
/** How long a start waits for Redis before it gives up (the compose file starts Redis first). */
const CONNECT_WAIT_MS = 10_000;
/** Between tries while Redis is away: writes fail at once meanwhile, reads go on. */
const RETRY_MS = 250;

/** A Redis URL for messages, without its password. */
function shown(url: string): string {
  const u = new URL(url);
  u.password = '';
  u.username = '';
  return u.toString();
}

type StreamReply = [string, [string, string[]][]][] | null;

/**
 * The write log as a Redis stream, for replicas on many hosts (or many on one): Redis orders
 * the entries, every replica reads them all in that order. Two connections: one for commands
 * (no offline queue, so a write while Redis is away fails at once with the reason) and one that
 * blocks reading the stream.
 */
export async function redisTransport(url: string, own: Genesis): Promise<LogTransport & { genesis: Genesis }> {
  const where = `Redis at ${shown(url)}`;
  let lastError = 'not connected yet';
  const options: RedisOptions = {
    lazyConnect: true,
    // RESP2: the same reply shapes from every Redis the compose file or a host may run.
    protocol: 2,
    retryStrategy: () => RETRY_MS,
    connectTimeout: 2000,
    // Connection errors are reported through writes' 503s and the health check, not as noise.
    showFriendlyErrorStack: false,
  };
  const cmd = new Redis(url, { ...options, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 5000 });
  const reader = new Redis(url, { ...options, maxRetriesPerRequest: null });
  for (const conn of [cmd, reader]) {
    conn.on('error', (err: Error) => {
      lastError = err.message;
    });
  }
  const ready = (conn: Redis) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        conn.disconnect();
        reject(new ValidationError('--redis', problems.redisUnreachable(where, CONNECT_WAIT_MS, lastError)));
      }, CONNECT_WAIT_MS);
      conn.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
      conn.connect().catch(() => undefined);
    });
  await Promise.all([ready(cmd), ready(reader)]);

  // The first replica writes the genesis; every later one must match it.
  await cmd.set(KEYS.genesis, JSON.stringify(own), 'NX');
  const genesis = JSON.parse((await cmd.get(KEYS.genesis)) ?? 'null') as Genesis;
  const conflict = genesisConflict(genesis, own);
  if (conflict !== null) {
    cmd.disconnect();
    reader.disconnect();
    throw new ValidationError('--redis', problems.otherFleet(where, conflict));
  }

  let seen = 0;
  let closed = false;
  let after = '0-0';

  /** Reads one batch after `after`, handing each entry on; how many it read. */
  const readBatch = async (deliver: (version: number, entry: LogEntry) => void, block: boolean) => {
    const args: (string | number)[] = ['COUNT', BATCH];
    if (block) args.push('BLOCK', 1000);
    const reply = (await reader.call('XREAD', ...args, 'STREAMS', KEYS.log, after)) as StreamReply;
    const entries = reply?.[0]?.[1] ?? [];
    for (const [id, fields] of entries) {
      after = id;
      const version = Number(id.slice(0, id.indexOf('-')));
      seen = Math.max(seen, version);
      deliver(version, JSON.parse(fields[1] ?? 'null') as LogEntry);
    }
    return entries.length;
  };

  return {
    where,
    genesis,
    get up() {
      return cmd.status === 'ready';
    },
    async open(deliver) {
      // Caught up: everything the stream held when this began is handed on before the replica answers.
      while ((await readBatch(deliver, false)) === BATCH) {}
      // Then follow it, for as long as the replica lives; while Redis is away, try again.
      void (async () => {
        while (!closed) {
          try {
            await readBatch(deliver, true);
          } catch {
            if (!closed) await new Promise((r) => setTimeout(r, RETRY_MS));
          }
        }
      })();
    },
    async append(entry) {
      if (cmd.status !== 'ready') throw new Error(lastError);
      const v = Number(await cmd.eval(APPEND, 2, KEYS.log, KEYS.version, JSON.stringify(entry), seen));
      if (v < 0) throw new LogDiverged(-1 - v);
    },
    async head() {
      return Math.max(seen, Number((await cmd.get(KEYS.version)) ?? 0));
    },
    async close() {
      closed = true;
      reader.disconnect();
      await cmd.quit().catch(() => cmd.disconnect());
    },
  };
}
