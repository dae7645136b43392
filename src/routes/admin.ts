import express, { type Express, type Request, type Response } from 'express';
import { callFromInput } from '../admin/call-input';
import { recordingFromInput } from '../admin/recording-input';
import { exportState, importState, stateHash } from '../admin/state';
import { ApiError, messages } from '../errors';
import { callJson } from '../format/call';
import { recordingJson } from '../format/recording';
import { parseClock } from '../config';
import { adminRoutes as r } from '../format/uris';
import type { AccountStore } from '../store/account';
import { FixtureError, validateAccount, validateFixtures } from '../store/fixtures';
import type { World } from '../store/world';
import { VERSION } from '../version';
import { methodNotAllowed } from './error-handler';

export interface AdminDeps {
  world: World;
  publicUrl: string;
  paging: string;
  /** Seconds since start, for the health check. */
  uptime: () => number;
  /** Everything besides the world that a reset or a new seed clears (journal, faults). */
  onReset: () => void;
  /** Extra fields for the health check (journal size, faults). */
  health: () => Record<string, unknown>;
}

/** The accounts as the admin API shows them: with tokens, so tests can authenticate. */
export function accountView(a: AccountStore) {
  return {
    sid: a.profile.sid,
    token: a.profile.token,
    friendly_name: a.profile.friendlyName,
    calls: a.calls.count,
    recordings: a.recordings.count,
  };
}


/** Fixture validation speaks of files; here the same messages name the body. */
function fromFixtureError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof FixtureError) throw new ApiError(400, err.message);
    throw err;
  }
}

type Handlers = Partial<Record<'get' | 'post' | 'put' | 'delete', (req: Request, res: Response) => void>>;
const json = express.json({ limit: '64mb' });

/** An admin path: JSON bodies parsed, the given methods handled, any other method a 405 with Allow. */
export function adminRoute(app: Express, path: string, handlers: Handlers): void {
  for (const [method, handler] of Object.entries(handlers)) {
    app[method as 'get'](path, json, handler as (req: Request, res: Response) => void);
  }
  const allowed = Object.keys(handlers).flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()]));
  app.all(path, methodNotAllowed(allowed.join(', ')));
}

/** The JSON body, or a 400 saying how to send one. */
export function jsonBody(req: Request): unknown {
  if (req.body === undefined) throw new ApiError(400, messages.badBody('send JSON with Content-Type: application/json'));
  return req.body;
}

/**
 * `/__admin`: WireMock's convention for a mock's control API. JSON in and out; mutations by
 * POST, PUT or DELETE; a rejected call changes nothing.
 */
export function mountAdmin(app: Express, deps: AdminDeps): void {
  const { world } = deps;
  const account = (req: Request): AccountStore => {
    const sid = String(req.params['sid']);
    const found = world.account(sid);
    if (found === undefined) throw new ApiError(404, messages.noAccount(sid));
    return found;
  };
  const route = (path: string, handlers: Handlers) => adminRoute(app, path, handlers);

  route(r.health, {
    get: (_req, res) => {
      res.json({
        status: 'ok',
        version: VERSION,
        seed: world.seed,
        uptime_s: Math.round(deps.uptime() * 10) / 10,
        accounts: world.accounts().length,
        calls: world.accounts().reduce((n, a) => n + a.calls.count, 0),
        recordings: world.accounts().reduce((n, a) => n + a.recordings.count, 0),
        ...deps.health(),
      });
    },
  });

  route(r.reset, {
    post: (_req, res) => {
      world.reset();
      deps.onReset();
      res.json({ status: 'reset', seed: world.seed, accounts: world.accounts().map(accountView) });
    },
  });

  route(r.seed, {
    post: (req, res) => {
      const b = jsonBody(req) as Record<string, unknown>;
      if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new ApiError(400, messages.badField('body', 'must be a JSON object'));
      for (const key of Object.keys(b)) {
        if (!['seed', 'fixtures', 'clock'].includes(key)) throw new ApiError(400, messages.unknownField(`body.${key}`, ['seed', 'fixtures', 'clock']));
      }
      const seed = b['seed'] ?? world.seed;
      if (typeof seed !== 'string' || seed === '') throw new ApiError(400, messages.badField('body.seed', 'must be a non-empty string'));
      const accounts = b['fixtures'] === undefined ? world.baseAccounts : fromFixtureError(() => validateFixtures(b['fixtures'], 'body.fixtures'));
      let clockMs = world.clockMs;
      if (b['clock'] !== undefined) {
        clockMs = fromFixtureError(() => {
          try {
            return parseClock('body.clock', String(b['clock']));
          } catch (err) {
            throw new ApiError(400, (err as Error).message);
          }
        });
      }
      fromFixtureError(() => world.reseed({ seed, clockMs, accounts }));
      deps.onReset();
      res.json({ status: 'seeded', seed: world.seed, accounts: world.accounts().map(accountView) });
    },
  });

  route(r.accounts, {
    get: (_req, res) => {
      res.json({ accounts: world.accounts().map(accountView) });
    },
    post: (req, res) => {
      const spec = fromFixtureError(() => validateAccount(jsonBody(req), 'body'));
      const created = fromFixtureError(() => world.createAccount(spec));
      res.status(201).json(accountView(created));
    },
  });

  route(r.account, {
    get: (req, res) => {
      res.json(accountView(account(req)));
    },
    delete: (req, res) => {
      const a = account(req);
      world.deleteAccount(a.profile.sid);
      res.json({ deleted: a.profile.sid });
    },
  });

  route(r.accountReset, {
    post: (req, res) => {
      const a = account(req);
      a.clearWrites();
      world.touch();
      res.json({ status: 'reset', account: accountView(a) });
    },
  });

  // One record or an array of them; the whole batch is checked before any is added.
  const insert = <R>(
    req: Request,
    res: Response,
    build: (a: AccountStore, raw: unknown, at: string, k: number) => R,
    add: (a: AccountStore, rec: R) => void,
    sidOf: (rec: R) => string,
    show: (a: AccountStore, rec: R) => string,
    next: (a: AccountStore) => number,
  ) => {
    const a = account(req);
    const b = jsonBody(req);
    const many = Array.isArray(b);
    const raws = many ? (b as unknown[]) : [b];
    if (raws.length === 0) throw new ApiError(400, messages.badField('body', 'is an empty array'));
    const records: R[] = [];
    const sids = new Set<string>();
    raws.forEach((raw, i) => {
      const rec = build(a, raw, many ? `body[${i}]` : 'body', next(a) + i);
      if (sids.has(sidOf(rec))) throw new ApiError(400, messages.duplicateSid(many ? `body[${i}].sid` : 'body.sid', sidOf(rec)));
      sids.add(sidOf(rec));
      records.push(rec);
    });
    for (const rec of records) add(a, rec);
    world.touch();
    const shown = records.map((rec) => JSON.parse(show(a, rec)) as unknown);
    res.status(201).json(many ? shown : shown[0]);
  };

  route(r.calls, {
    post: (req, res) =>
      insert(
        req,
        res,
        callFromInput,
        (a, c) => a.calls.insert(c),
        (c) => c.sid,
        (a, c) => callJson(c, a.profile.sid),
        (a) => a.calls.overlay.nextInsert,
      ),
  });

  route(r.recordings, {
    post: (req, res) =>
      insert(
        req,
        res,
        recordingFromInput,
        (a, rec) => a.recordings.insert(rec),
        (rec) => rec.sid,
        (a, rec) => recordingJson(rec, a.profile.sid, deps.publicUrl),
        (a) => a.recordings.overlay.nextInsert,
      ),
  });

  route(r.call, {
    delete: (req, res) => {
      const a = account(req);
      const sid = String(req.params['callSid']);
      const id = a.calls.find(sid);
      if (id === undefined) throw new ApiError(404, messages.noCall(a.profile.sid, sid));
      const recordings = a.deleteCall(id);
      world.touch();
      res.json({ deleted: sid, recordings_deleted: recordings });
    },
  });

  route(r.recording, {
    delete: (req, res) => {
      const a = account(req);
      const sid = String(req.params['recordingSid']);
      const id = a.recordings.find(sid);
      if (id === undefined) throw new ApiError(404, messages.noRecording(a.profile.sid, sid));
      a.recordings.remove(id);
      world.touch();
      res.json({ deleted: sid });
    },
  });

  route(r.state, {
    get: (_req, res) => {
      res.json(exportState(world));
    },
    put: (req, res) => {
      importState(world, jsonBody(req));
      res.json({ status: 'imported', hash: stateHash(world, deps.publicUrl, deps.paging) });
    },
  });

  route(r.stateHash, {
    get: (_req, res) => {
      res.json({ hash: stateHash(world, deps.publicUrl, deps.paging), algorithm: 'sha256' });
    },
  });
}
