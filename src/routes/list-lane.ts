import type { IncomingMessage, ServerResponse } from 'node:http';
import { laneAccount } from '../auth';
import { LIST_PATHS, listPathPattern } from '../format/uris';
import { LIST_NAMES, type ListName } from '../generators/list-names';
import { writeError } from '../http/error-handler';
import { urlPath } from '../http/exchange';
import type { Account, World } from '../store/world';
import { serveList } from './list-page';
import { LIST_RESOURCES } from './list-resources';
import type { ListSettings } from './list-settings';

/**
 * Serves a request itself and says true, or says false and leaves it alone (the front door then
 * hands it to express).
 */
export type Lane = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The list lane: a `GET` of a list page that express would route to the list handler and let
 * through login at once is served here, before express, by the same handler (`serveList`).
 * Express costs about 0.1 ms a request on this class of machine (its `setPrototypeOf` of the
 * request and response alone is 40 µs), as much as rendering twenty calls: every page a client
 * walks, never asked before, paid it. Anything else (another method, a path express would
 * decode, credentials that do not log in at once) is left to express, which answers it as
 * always; an error the handler throws is written by the one error writer.
 */
export function listLane(world: World, settings: ListSettings, onInternal: (err: unknown) => void): Lane {
  const pattern = listPathPattern(settings.dialect.mounts);
  const descendants = (a: Account) => world.descendants(a.profile.sid);
  type Serve = (req: IncomingMessage, res: ServerResponse, mount: string, account: Account) => Promise<void>;
  const serverOf =
    <K extends ListName>(name: K): Serve =>
    (req, res, mount, account) =>
      serveList(LIST_RESOURCES[name], settings, mount, descendants, req, res, account);
  const serve = new Map<string, Serve>(LIST_NAMES.map((name) => [LIST_PATHS[name].segment, serverOf(name)]));
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const m = pattern.exec(urlPath(req.url ?? ''));
    if (m === null) return false;
    const [, mount = '', sid = '', segment = ''] = m;
    const account = laneAccount(world, settings.dialect, req, sid);
    const list = serve.get(segment);
    if (account === undefined || list === undefined) return false;
    list(req, res, mount, account).catch((err: unknown) => writeError(err, res, onInternal));
    return true;
  };
}
