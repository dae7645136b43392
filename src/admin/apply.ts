import { ApiError, messages } from '../errors';
import { captureCheckpoint, restoreCheckpoint } from './checkpoint';
import { type AdminContext, type AdminHandler, endAccount } from './context';
import { adminRequestOf, ok } from './reply';
import type { LogSides } from './write-log';

/**
 * How this app applies the write log's entries to its world: an admin write through its route's
 * handler (every handler is a pure function of the world and the request), an expiry by ending
 * the sandbox it was set for, a refusal as nothing; and checkpoints of that world.
 */
export function logSides(ctx: AdminContext, handlers: ReadonlyMap<string, AdminHandler>): LogSides {
  return {
    apply(entry, takenHere) {
      if (entry.kind === 'refused') return ok({ status: 'refused' });
      if (entry.kind === 'expire') {
        if (ctx.world.forkOf(entry.sid)?.serial === entry.serial) endAccount(ctx, entry.sid);
        return ok({ status: 'expired', sid: entry.sid });
      }
      const handler = handlers.get(entry.route);
      // Every replica runs the same build (the log's genesis checks it): an unknown route was
      // written by something else, and is refused alike everywhere.
      if (handler === undefined) throw new ApiError(400, messages.logNoRoute(entry.route));
      const body = 'body' in entry ? { value: entry.body } : undefined;
      return handler(ctx, adminRequestOf(entry.params, entry.query, body, takenHere));
    },
    capture: (version) => captureCheckpoint(ctx, version),
    restore: (text) => restoreCheckpoint(ctx, text),
  };
}
