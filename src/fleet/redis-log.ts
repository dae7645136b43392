import Redis, { type RedisOptions } from 'ioredis';
import {
  BadEntry,
  type FleetLink,
  GATHER_WAIT_MS,
  type Gathered,
  type GatherKind,
  LogDiverged,
  type LogTransport,
  OutcomeUnknown,
} from '../admin/log-transport';
import { ApiError, messages, problems, ValidationError } from '../errors';
import type { TallyReply, TallyState } from '../faults/tally';
import { type Genesis, genesisConflict } from './genesis';

/** The keys beside each other in the Redis database the URL names. */
const KEYS = {
  log: 'callrec:log',
  version: 'callrec:version',
  genesis: 'callrec:genesis',
  ids: 'callrec:ids',
  refused: 'callrec:refused',
  checkpoint: 'callrec:checkpoint',
} as const;

/**
 * Keeps a checkpoint (the world at version ARGV[1], text ARGV[2]) when it is newer than the one
 * kept, and trims what the one before it made needless: stream entries, ids and refusals up to
 * that older version. One span stays, for replicas still reading it; a new replica starts from
 * the newest checkpoint. Ids fenced off (score 0) stay: an append may still be on its way.
 */
const CHECKPOINT = `
local kept = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local v = tonumber(ARGV[1])
if v <= kept then return 0 end
redis.call('HSET', KEYS[1], 'version', v, 'text', ARGV[2])
if kept > 0 then
  redis.call('XTRIM', KEYS[2], 'MINID', (kept + 1) .. '-0')
  redis.call('ZREMRANGEBYSCORE', KEYS[3], 1, kept)
  redis.call('ZREMRANGEBYSCORE', KEYS[4], 1, kept)
end
return 1`;

/**
 * A refused write leaves the stream: its entry is deleted and its version noted, atomically, so a
 * reader that meets the gap knows it for a refusal (applied as nothing), not a loss.
 */
const REFUSE = `
redis.call('XDEL', KEYS[1], ARGV[1] .. '-1')
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[1])
return 1`;

/**
 * Appends an entry as the next version, atomically: the counter and the stream move together,
 * and an entry's stream id is its version (`v-1`), so a reader knows the version of what it
 * reads. ARGV[2] is the newest version the appending replica has seen: a log that holds fewer
 * (Redis lost it, or it was emptied) takes nothing, and the replica says so. Each entry's id is
 * noted with its version (KEYS[3]): an id already there (appended, or fenced off: 0) is not
 * appended again, which is what lets a replica find out what became of an append that timed out.
 */
const APPEND = `
local prior = redis.call('ZSCORE', KEYS[3], ARGV[3])
if prior then return tonumber(prior) end
local head = tonumber(redis.call('GET', KEYS[2]) or '0')
if head < tonumber(ARGV[2]) then return -1 - head end
local v = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[1], v .. '-1', 'e', ARGV[1])
redis.call('ZADD', KEYS[3], v, ARGV[3])
return v`;

/**
 * What became of an append whose answer never came: its version if it was appended, else 0,
 * and then it never will be (the id is fenced off, so the append, if it is still on its way to
 * Redis, finds it taken). A script on the same connection runs after anything sent before it.
 */
const FENCE = `
local prior = redis.call('ZSCORE', KEYS[1], ARGV[1])
if prior then return tonumber(prior) end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
return 0`;

/** How long a replica keeps asking what became of an append that timed out before saying it cannot tell. */
const OUTCOME_WAIT_MS = 30_000;

/**
 * One step on a fault's counters (`faults/tally.ts`'s `stepTally`, the same rule in Lua), in one
 * round trip and atomically: two replicas racing for a fault's last use cannot both have it. The
 * rate window runs on Redis's clock, the one clock the whole fleet shares. A fault's counters
 * last a day past their last use (a fault removed leaves them to expire).
 */
const TALLY = `
local k = KEYS[1]
local step = ARGV[1]
local times = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local windowMs = tonumber(ARGV[4])
local applied = tonumber(redis.call('HGET', k, 'applied') or '0')
if times >= 0 and applied >= times then return {'spent', -1, 0} end
redis.call('PEXPIRE', k, 86400000)
local draw = -1
if step ~= 'apply' then draw = redis.call('HINCRBY', k, 'matched', 1) - 1 end
if step == 'draw' then return {'drawn', draw, 0} end
if limit >= 0 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local start = tonumber(redis.call('HGET', k, 'wstart') or '-1')
  local count = tonumber(redis.call('HGET', k, 'wcount') or '0')
  if start < 0 or now >= start + windowMs then
    start = now
    count = 0
    redis.call('HSET', k, 'wstart', start)
  end
  count = count + 1
  redis.call('HSET', k, 'wcount', count)
  if count <= limit then return {'under', draw, 0} end
  redis.call('HINCRBY', k, 'applied', 1)
  return {'limited', draw, math.max(1, math.ceil((start + windowMs - now) / 1000))}
end
redis.call('HINCRBY', k, 'applied', 1)
return {'applied', draw, 0}`;

/** The channel a gather is asked on; each replica pushes its answer to the list the question names. */
const GATHER_CHANNEL = 'callrec:gather';
/** How often a gather looks for the replicas' answers. */
const GATHER_POLL_MS = 20;

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

/** A stream entry's fields as the log's entry, or what is wrong with its text (the write log checks the rest). */
function parsed(fields: string[]): unknown {
  if (fields[0] !== 'e' || fields[1] === undefined)
    return new BadEntry(`its fields are ${JSON.stringify(fields)}, not "e" and the entry`);
  try {
    return JSON.parse(fields[1]);
  } catch (err) {
    return new BadEntry(
      `its text is not JSON (${err instanceof Error ? err.message : String(err)}): ${JSON.stringify(fields[1].slice(0, 80))}`,
    );
  }
}

/**
 * The write log as a Redis stream, for replicas on many hosts (or many on one): Redis orders
 * the entries, every replica reads them all in that order. Two connections: one for commands
 * (no offline queue, so a write while Redis is away fails at once with the reason) and one that
 * blocks reading the stream.
 */
export async function redisTransport(
  url: string,
  own: Genesis,
  replica: string,
): Promise<LogTransport & { genesis: Genesis }> {
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
  // Gathers are asked on a channel: a subscribed connection does nothing else.
  const sub = new Redis(url, { ...options, maxRetriesPerRequest: null });
  for (const conn of [cmd, reader, sub]) {
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
  await Promise.all([ready(cmd), ready(reader), ready(sub)]);

  // The first replica writes the genesis; every later one must match it.
  await cmd.set(KEYS.genesis, JSON.stringify(own), 'NX');
  const genesis = JSON.parse((await cmd.get(KEYS.genesis)) ?? 'null') as Genesis;
  const conflict = genesisConflict(genesis, own);
  if (conflict !== null) {
    for (const conn of [cmd, reader, sub]) conn.disconnect();
    throw new ValidationError('--redis', problems.otherFleet(where, conflict));
  }
  const unavailable = (err: unknown) =>
    new ApiError(503, messages.logUnavailable(where, err instanceof Error ? err.message : lastError));
  const command = async <R>(run: () => Promise<R>): Promise<R> => {
    if (cmd.status !== 'ready') throw unavailable(new Error(lastError));
    try {
      return await run();
    } catch (err) {
      throw unavailable(err);
    }
  };

  let answer: (kind: GatherKind, query: string) => Promise<unknown> = () => Promise.resolve(null);
  await sub.subscribe(GATHER_CHANNEL);
  sub.on('message', (_channel: string, text: string) => {
    const q = JSON.parse(text) as { id: string; kind: GatherKind; query: string };
    const key = `callrec:gathered:${q.id}`;
    // One that cannot answer (its journal failing, Redis gone) is left out by the asker's wait.
    void answer(q.kind, q.query)
      .then((a) =>
        cmd
          .multi()
          .rpush(key, JSON.stringify({ replica, answer: a } satisfies Gathered))
          .pexpire(key, 60_000)
          .exec(),
      )
      .catch(() => undefined);
  });
  let gathers = 0;
  const fleet: FleetLink = {
    tally: {
      step: (op) =>
        command(async () => {
          const [verdict, draw, retryS] = (await cmd.eval(
            TALLY,
            1,
            `callrec:${op.key}`,
            op.step,
            op.times ?? -1,
            op.rate?.limit ?? -1,
            op.rate?.windowMs ?? 0,
          )) as [TallyReply['verdict'], number, number];
          return { verdict, draw, retryS };
        }),
      read: (keys) =>
        command(async () => {
          const pipe = cmd.pipeline();
          for (const k of keys) pipe.hmget(`callrec:${k}`, 'matched', 'applied', 'wstart', 'wcount');
          const replies = (await pipe.exec()) ?? [];
          return replies.map(([err, v]): TallyState => {
            if (err !== null) throw err;
            const [matched, applied, wstart, wcount] = v as (string | null)[];
            return {
              matched: Number(matched ?? 0),
              applied: Number(applied ?? 0),
              windowStartMs: wstart === null ? null : Number(wstart),
              windowCount: Number(wcount ?? 0),
            };
          });
        }),
    },
    gather: (kind, query) =>
      command(async () => {
        const id = `${replica}#${++gathers}`;
        const key = `callrec:gathered:${id}`;
        // PUBLISH says how many replicas heard the question: that many answers are awaited.
        const heard = await cmd.publish(GATHER_CHANNEL, JSON.stringify({ id, kind, query }));
        const deadline = performance.now() + GATHER_WAIT_MS;
        let got: string[] = [];
        for (;;) {
          got = await cmd.lrange(key, 0, -1);
          if (got.length >= heard || performance.now() >= deadline) break;
          await new Promise((r) => setTimeout(r, GATHER_POLL_MS));
        }
        await cmd.del(key);
        return got.map((g) => JSON.parse(g) as Gathered);
      }),
    answer: (fn) => {
      answer = fn;
    },
  };

  let seen = 0;
  let closed = false;
  let after = '0-0';

  /** The last version handed on: a gap after it is filled with refusals where Redis noted them. */
  let handed = 0;
  /** Reads one batch after `after`, handing each entry on; how many it read. */
  const readBatch = async (deliver: (version: number, entry: unknown) => void, block: boolean) => {
    const args: (string | number)[] = ['COUNT', BATCH];
    if (block) args.push('BLOCK', 1000);
    const reply = (await reader.call('XREAD', ...args, 'STREAMS', KEYS.log, after)) as StreamReply;
    const entries = reply?.[0]?.[1] ?? [];
    for (const [id, fields] of entries) {
      const version = Number(id.slice(0, id.indexOf('-')));
      if (version > handed + 1) {
        const noted = (await reader.zrangebyscore(KEYS.refused, handed + 1, version - 1)).map(Number);
        // All of them refused: each is applied as nothing. Else the gap stands, and the write log says so.
        if (noted.length === version - 1 - handed) {
          for (const v of noted) deliver(v, { kind: 'refused', id: `refused#${v}` });
        }
      }
      after = id;
      handed = version;
      seen = Math.max(seen, version);
      deliver(version, parsed(fields));
    }
    return entries.length;
  };

  /** Asks until Redis answers what became of the append `id`: its version, or 0 (never applied). */
  const settleUnknown = async (id: string, first: unknown): Promise<number> => {
    let why = first instanceof Error ? first.message : String(first);
    const deadline = performance.now() + OUTCOME_WAIT_MS;
    while (performance.now() < deadline && !closed) {
      await new Promise((r) => setTimeout(r, RETRY_MS));
      if (cmd.status !== 'ready') continue;
      try {
        return Number(await cmd.eval(FENCE, 1, KEYS.ids, id));
      } catch (err) {
        why = err instanceof Error ? err.message : String(err);
      }
    }
    throw new OutcomeUnknown(why);
  };

  return {
    where,
    genesis,
    fleet,
    get up() {
      return cmd.status === 'ready';
    },
    async open(deliver, start) {
      // The newest checkpoint first, if the log has one: the entries before it may be gone.
      const [version, text] = await reader.hmget(KEYS.checkpoint, 'version', 'text');
      if (typeof version === 'string' && typeof text === 'string' && start !== undefined) {
        const v = Number(version);
        after = `${v}-1`;
        handed = v;
        seen = Math.max(seen, v);
        await start(v, text);
      }
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
      // Not sent: certainly not applied.
      if (cmd.status !== 'ready') throw new Error(lastError);
      let v: number;
      try {
        v = Number(await cmd.eval(APPEND, 3, KEYS.log, KEYS.version, KEYS.ids, JSON.stringify(entry), seen, entry.id));
      } catch (err) {
        // Sent, and no answer (a timeout, a connection lost): find out, and answer only the truth.
        v = await settleUnknown(entry.id, err);
      }
      if (v < 0) throw new LogDiverged(-1 - v);
      if (v === 0) throw new Error('the append was fenced off before it reached the log');
    },
    async checkpoint(version, text) {
      await command(() => cmd.eval(CHECKPOINT, 4, KEYS.checkpoint, KEYS.log, KEYS.ids, KEYS.refused, version, text));
    },
    refused(version) {
      // Best effort: a refusal that stays in the stream is applied as a refusal again.
      cmd.eval(REFUSE, 2, KEYS.log, KEYS.refused, version).catch(() => undefined);
    },
    async head() {
      return Math.max(seen, Number((await cmd.get(KEYS.version)) ?? 0));
    },
    async close() {
      closed = true;
      reader.disconnect();
      sub.disconnect();
      await cmd.quit().catch(() => cmd.disconnect());
    },
  };
}
