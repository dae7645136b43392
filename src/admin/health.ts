import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isoMillis } from '../format/dates';
import { withAliases } from '../format/openapi';
import { VERSION } from '../version';
import { hazardsView } from './accounts';
import type { AdminHandler } from './context';

/**
 * The served OpenAPI document: the one kept in the repository (each API operation once) with
 * its aliases under every mount and without `.json` (see format/openapi.ts), made when first asked.
 */
let served: Buffer | undefined;
export function servedOpenApi(): Buffer {
  served ??= Buffer.from(
    `${JSON.stringify(withAliases(JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'openapi.json'), 'utf8'))), null, 2)}\n`,
  );
  return served;
}

/** `GET /__admin/health`: open even behind an admin token, for container health checks. */
export const health: AdminHandler = (ctx) => {
  const accounts = ctx.world.accounts();
  const halted = ctx.log.halted;
  return {
    // A replica that stopped applying the log answers stale: a container check must see it.
    status: halted === null ? 200 : 503,
    json: healthView(ctx, accounts, halted),
  };
};

function healthView(
  ctx: Parameters<AdminHandler>[0],
  accounts: ReturnType<typeof ctx.world.accounts>,
  halted: string | null,
) {
  return {
    status: halted === null ? 'ok' : 'failing',
    version: VERSION,
    seed: ctx.world.seed,
    clock: isoMillis(ctx.world.nowMs),
    clock_start: isoMillis(ctx.world.clockMs),
    clock_rate: ctx.world.clockRate,
    uptime_s: Math.round(ctx.uptime() * 10) / 10,
    accounts: accounts.length,
    calls: accounts.reduce((n, a) => n + a.calls.count, 0),
    recordings: accounts.reduce((n, a) => n + a.recordings.count, 0),
    journal: ctx.journal.count,
    faults: ctx.faults.size,
    strict: ctx.strict,
    // Which process answered, and how far it has applied the write log (replicas agree once equal).
    replica: ctx.log.replica,
    log: {
      version: ctx.log.version,
      where: ctx.log.transport.where,
      up: ctx.log.up,
      halted,
      // A fleet's log is bounded by checkpoints: the one this replica started from, the newest it made.
      ...(ctx.log.transport.checkpoint === undefined
        ? {}
        : { checkpoint: { started_from: ctx.log.checkpoints.startedFrom, made: ctx.log.checkpoints.made } }),
    },
    // The accounts with production's hazards on, or restarts made: a run that passes here with
    // hazards says so.
    hazards: accounts
      .filter((a) => a.spec.hazards !== undefined || a.sweeps.length > 0)
      .map((a) => ({ account: a.profile.sid, ...hazardsView(a) })),
  };
}

export const openapi: AdminHandler = () => ({ status: 200, bytes: servedOpenApi(), type: 'application/json' });
