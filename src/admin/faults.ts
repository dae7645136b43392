import { ApiError, messages } from '../errors';
import { type AdminHandler, created, ok } from './context';
import { parseFault } from './fault-input';

export const listFaults: AdminHandler = (ctx) => ok({ faults: ctx.faults.views() });

export const addFault: AdminHandler = (ctx, req) => created(ctx.faults.add(parseFault(req.body())));

export const clearFaults: AdminHandler = (ctx) => {
  ctx.faults.clear();
  return ok({ status: 'cleared' });
};

export const getFault: AdminHandler = (ctx, req) => {
  const id = req.params['id'] ?? '';
  const found = ctx.faults.views().find((f) => f['id'] === id);
  if (found === undefined) throw new ApiError(404, messages.noFault(id));
  return ok(found);
};

export const deleteFault: AdminHandler = (ctx, req) => {
  const id = req.params['id'] ?? '';
  if (!ctx.faults.remove(id)) throw new ApiError(404, messages.noFault(id));
  return ok({ deleted: id });
};
