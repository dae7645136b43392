import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeError } from './error-handler';

/** A node request listener. */
export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A listener made when a request first needs it, and `load` to make it sooner. */
export interface LazyListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Makes the listener now if it is not made yet; resolves once it is. */
  load(): Promise<void>;
}

/**
 * A listener whose module loads on the first request that needs it: requests meanwhile wait
 * for it, in order, and every later one goes straight to it. A module that fails to load
 * answers 500 (`onInternal` hears why) and is tried again on the next request.
 * @example const admin = lazyListener(async () => (await import('./express-app')).expressApp(parts), console.error)
 */
export function lazyListener(make: () => Promise<Listener>, onInternal: (err: unknown) => void): LazyListener {
  let made: Listener | null = null;
  let making: Promise<Listener> | null = null;
  const load = (): Promise<Listener> => {
    making ??= make().then(
      (listener) => {
        made = listener;
        return listener;
      },
      (err: unknown) => {
        making = null;
        throw err;
      },
    );
    return making;
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (made !== null) {
      made(req, res);
      return;
    }
    load().then(
      (l) => l(req, res),
      (err: unknown) => writeError(err, res, onInternal),
    );
  };
  return Object.assign(listener, { load: () => load().then(() => undefined) });
}
