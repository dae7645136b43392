import type { CallbackEntry } from '../callbacks/callback-desk';
import { problems, ValidationError } from '../errors';
import { queryInt, queryOf } from '../input/fields';
import type { AdminHandler } from './context';
import { ok } from './reply';

/** Entries serialized per chunk of the answer: a turn of the event loop between chunks. */
const PER_CHUNK = 200;

/**
 * `GET /__admin/callbacks`: every status callback made due since the last reset, in the order
 * they were due, with what was sent and what came back. `account` and `call` narrow it;
 * `after=SEQ` and `limit=N` page it; `timing=false` leaves out `elapsed_ms`, the one wall-clock
 * field, so two runs of one seed compare byte for byte. `pending` counts deliveries not yet
 * ended. The body is written a slice at a time: the journal may hold tens of megabytes.
 */
export const listCallbacks: AdminHandler = (ctx, req) => {
  const q = queryOf(req.query, ['account', 'call', 'timing', 'after', 'limit']);
  const after = queryInt(q, 'after', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = queryInt(q, 'limit', 0, Number.MAX_SAFE_INTEGER) ?? Number.MAX_SAFE_INTEGER;
  const timing = q.get('timing');
  if (timing !== null && timing !== 'true' && timing !== 'false')
    throw new ValidationError('query.timing', problems.oneOf(['true', 'false'], timing));
  const account = q.get('account') ?? undefined;
  const call = q.get('call') ?? undefined;
  const entries = ctx.callbacks
    .entries({
      ...(account === undefined ? {} : { account }),
      ...(call === undefined ? {} : { call }),
    })
    .filter((e) => e.seq > after)
    .slice(0, limit);
  const pending = ctx.callbacks.pending;
  const show =
    timing === 'false'
      ? (e: CallbackEntry) => JSON.stringify({ ...e, elapsed_ms: undefined })
      : (e: CallbackEntry) => JSON.stringify(e);
  return { status: 200, chunks: callbackChunks(entries, show, pending) };
};

function* callbackChunks(entries: readonly CallbackEntry[], show: (e: CallbackEntry) => string, pending: number) {
  yield '{"callbacks":[';
  for (let i = 0; i < entries.length; i += PER_CHUNK) {
    yield (i === 0 ? '' : ',') +
      entries
        .slice(i, i + PER_CHUNK)
        .map(show)
        .join(',');
  }
  yield `],"pending":${pending}}`;
}

/** `DELETE /__admin/callbacks`: forgets the journal (it takes no parameters: it is one list). */
export const clearCallbacks: AdminHandler = (ctx, req) => {
  queryOf(req.query, []);
  ctx.callbacks.clear();
  return ok({ status: 'cleared' });
};
