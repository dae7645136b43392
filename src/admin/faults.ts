import { ApiError, messages } from '../errors';
import { type AdminHandler, scopedAccount } from './context';
import { parseFault } from './fault-input';
import { created, ok } from './reply';

/** `GET /__admin/faults`: with their counters, the fleet's when the counters are shared. */
export const listFaults: AdminHandler = async (ctx) => ok({ faults: await ctx.faults.views() });

export const addFault: AdminHandler = (ctx, req) => created(ctx.faults.add(parseFault(req.body())));

/** `DELETE /__admin/faults[?account=sid]`: every fault, or only those scoped to one account. */
export const clearFaults: AdminHandler = (ctx, req) => {
  const account = scopedAccount(req.query);
  if (account === undefined) {
    ctx.faults.clear();
    return ok({ status: 'cleared' });
  }
  return ok({ status: 'cleared', account, deleted: ctx.faults.removeScopedTo(account) });
};

export const getFault: AdminHandler = async (ctx, req) => {
  const id = req.params['id'] ?? '';
  const found = (await ctx.faults.views()).find((f) => f['id'] === id);
  if (found === undefined) throw new ApiError(404, messages.noFault(id));
  return ok(found);
};

export const deleteFault: AdminHandler = (ctx, req) => {
  const id = req.params['id'] ?? '';
  if (!ctx.faults.remove(id)) throw new ApiError(404, messages.noFault(id));
  return ok({ deleted: id });
};
