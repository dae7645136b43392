import { buildsUnderWay } from '../http/slices';
import { queryOf } from '../input/fields';
import type { AdminHandler } from './context';
import { ok } from './reply';

/**
 * `GET /__admin/builds[?account=sid]`: the orders being built now (the first sort or filter of a
 * large account takes seconds), with the step under way and how far it is, oldest first. What
 * waits on one (the inspector) shows it as progress; each list request that needs one waits.
 */
export const listBuilds: AdminHandler = (ctx, req) => {
  const only = queryOf(req.query, ['account']).get('account');
  const builds = buildsUnderWay()
    // A sandbox's admin view, like any other, shows its own accounts' work.
    .filter((b) => ctx.world.account(b.accountSid) !== undefined && (only === null || b.accountSid === only))
    .map((b) => ({
      ...b.about,
      step: b.tick?.step ?? null,
      step_number: b.steps,
      done: b.tick?.done ?? 0,
      total: b.tick?.total ?? 0,
      elapsed_ms: Math.round(performance.now() - b.startedMs),
    }));
  return ok({ builds });
};
