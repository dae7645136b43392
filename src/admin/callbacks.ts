import { problems, ValidationError } from '../errors';
import { queryOf } from '../input/fields';
import { type AdminHandler, ok } from './context';

/**
 * `GET /__admin/callbacks`: every status callback made due since the last reset, in the order
 * they were due, with what was sent and what came back. `account` and `call` narrow it;
 * `timing=false` leaves out `elapsed_ms`, the one wall-clock field, so two runs of one seed
 * compare byte for byte. `pending` counts deliveries still under way.
 */
export const listCallbacks: AdminHandler = (ctx, req) => {
  const q = queryOf(req.query, ['account', 'call', 'timing']);
  const timing = q.get('timing');
  if (timing !== null && timing !== 'true' && timing !== 'false')
    throw new ValidationError('query.timing', problems.oneOf(['true', 'false'], timing));
  const account = q.get('account') ?? undefined;
  const call = q.get('call') ?? undefined;
  const entries = ctx.callbacks.entries({
    ...(account === undefined ? {} : { account }),
    ...(call === undefined ? {} : { call }),
  });
  const shown = timing === 'false' ? entries.map(({ elapsed_ms: _, ...rest }) => rest) : entries;
  return ok({ callbacks: shown, pending: ctx.callbacks.pending });
};

/** `DELETE /__admin/callbacks`: forgets the journal (it takes no parameters: it is one list). */
export const clearCallbacks: AdminHandler = (ctx, req) => {
  queryOf(req.query, []);
  ctx.callbacks.clear();
  return ok({ status: 'cleared' });
};
