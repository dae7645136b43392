import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Express } from 'express';
import { parseClock } from '../config';
import { ApiError, messages } from '../errors';
import { adminRoutes as r } from '../format/uris';
import { parseFault, type Faults } from '../harness/faults';
import type { Journal, JournalFilter } from '../harness/journal';
import { applyProviderState, type StateDef } from '../admin/provider-states';
import type { World } from '../store/world';
import { accountView, adminRoute, jsonBody } from './admin';

/** The OpenAPI document, kept in the repository and shipped in the package. */
const OPENAPI = readFileSync(resolve(__dirname, '..', '..', 'openapi.json'));

/** The query of `GET /__admin/requests`, validated; a 400 naming the parameter otherwise. */
function journalFilter(rawQuery: string, size: number): JournalFilter {
  const q = new URLSearchParams(rawQuery);
  const filter: JournalFilter = {};
  for (const name of q.keys()) {
    if (!['account', 'path', 'status', 'since', 'limit'].includes(name)) {
      throw new ApiError(400, messages.unknownField(`query.${name}`, ['account', 'path', 'status', 'since', 'limit']));
    }
  }
  const int = (name: string, min: number, max: number): number | undefined => {
    const v = q.get(name);
    if (v === null) return undefined;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new ApiError(400, messages.badField(`query.${name}`, `must be an integer from ${min} to ${max}`));
    return Number(v);
  };
  const account = q.get('account');
  if (account !== null) filter.account = account;
  const path = q.get('path');
  if (path !== null) filter.path = path;
  const status = int('status', 0, 599);
  if (status !== undefined) filter.status = status;
  const limit = int('limit', 1, Math.max(1, size));
  if (limit !== undefined) filter.limit = limit;
  const since = q.get('since');
  if (since !== null) {
    try {
      filter.sinceMs = parseClock('query.since', since);
    } catch (err) {
      throw new ApiError(400, (err as Error).message);
    }
  }
  return filter;
}

/** `/__admin/requests` (the journal), `/__admin/faults`, `/__admin/provider-states` and `/__admin/openapi.json`. */
export function mountHarness(
  app: Express,
  deps: { journal: Journal; faults: Faults; world: World; states: ReadonlyMap<string, StateDef> },
): void {
  const { journal, faults } = deps;
  adminRoute(app, r.openapi, {
    get: (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(OPENAPI);
    },
  });
  adminRoute(app, r.providerStates, {
    get: (_req, res) => {
      res.json({ states: [...deps.states].map(([name, def]) => ({ name, description: def.description ?? null, params: def.params })) });
    },
    post: (req, res) => {
      const done = applyProviderState(deps.world, deps.states, jsonBody(req));
      res.json({ state: done.state, action: done.action, accounts: done.accounts.map(accountView) });
    },
  });
  adminRoute(app, r.requests, {
    get: (req, res) => {
      const q = req.originalUrl.indexOf('?');
      const requests = journal.list(journalFilter(q < 0 ? '' : req.originalUrl.slice(q + 1), journal.size));
      res.json({ requests, size: journal.size, held: journal.count, seen: journal.seen });
    },
    delete: (_req, res) => {
      journal.clear();
      res.json({ status: 'cleared' });
    },
  });
  adminRoute(app, r.faults, {
    get: (_req, res) => {
      res.json({ faults: faults.views() });
    },
    post: (req, res) => {
      res.status(201).json(faults.add(parseFault(jsonBody(req))));
    },
    delete: (_req, res) => {
      faults.clear();
      res.json({ status: 'cleared' });
    },
  });
  adminRoute(app, r.fault, {
    get: (req, res) => {
      const found = faults.views().find((f) => f['id'] === req.params['id']);
      if (found === undefined) throw new ApiError(404, messages.noFault(String(req.params['id'])));
      res.json(found);
    },
    delete: (req, res) => {
      const id = String(req.params['id']);
      if (!faults.remove(id)) throw new ApiError(404, messages.noFault(id));
      res.json({ deleted: id });
    },
  });
}
