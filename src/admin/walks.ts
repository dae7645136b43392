import { runSliced } from '../http/slices';
import { queryInt, queryOf } from '../input/fields';
import type { JournaledPage } from '../journal/journal';
import { DEFAULT_WALKS, DIGEST, digestOf, MAX_WALKS, type WalkWindow, walks } from '../journal/walk-report';
import type { WalkPage } from '../query/walk';
import { type AdminHandler, fleetAsked } from './context';
import type { Gathered } from './log-transport';
import { ok } from './reply';

/** The walks report (journal/walk-report.ts) as the admin API serves it, one replica's or the fleet's. */

/** A page as a gather carries it: plain JSON, the credentials as their digest. */
interface WirePage extends Omit<JournaledPage, 'walk'> {
  walk: Omit<WalkPage, 'ids'> & { ids: number[] };
}

/** This replica's journaled pages, for another's fleet report. */
export function wirePages(pages: readonly JournaledPage[]): WirePage[] {
  // One client's pages share credentials: each is digested once.
  const digests = new Map<string, string>();
  const digest = (credentials: string) => {
    let d = digests.get(credentials);
    if (d === undefined) {
      d = DIGEST + digestOf(credentials);
      digests.set(credentials, d);
    }
    return d;
  };
  return pages.map((p) => ({ ...p, credentials: digest(p.credentials), walk: { ...p.walk, ids: [...p.walk.ids] } }));
}

/**
 * Every replica's pages in one journal: in order of arrival (one client's pages, sent one after
 * another, arrive in the order it sent them, whichever replica took each), then by replica and id.
 */
function fleetPages(gathered: readonly Gathered[]): JournaledPage[] {
  const all: JournaledPage[] = [];
  for (const { replica, answer } of gathered) {
    for (const p of answer as WirePage[])
      all.push({ ...p, replica, walk: { ...p.walk, ids: Uint32Array.from(p.walk.ids) } });
  }
  return all.sort(
    (a, b) => a.arrivedMs - b.arrivedMs || (a.replica as string).localeCompare(b.replica as string) || a.id - b.id,
  );
}

/**
 * `GET /__admin/walks[?account=AC…][&offset=N][&limit=N]`: each client's walks over the lists,
 * from the journal, oldest first; 100 a page by default, 1,000 at most, and `total` says how
 * many there are.
 */
export const listWalks: AdminHandler = async (ctx, req) => {
  const q = queryOf(req.query, ['account', 'offset', 'limit', 'fleet']);
  const window: WalkWindow = {
    offset: queryInt(q, 'offset', 0, 1_000_000_000) ?? 0,
    limit: queryInt(q, 'limit', 1, MAX_WALKS) ?? DEFAULT_WALKS,
    zone: ctx.serverZone,
  };
  const account = q.get('account');
  if (account !== null) window.account = account;
  const pages = fleetAsked(req.query) ? fleetPages(await ctx.fleet.gather('walk-pages', '')) : ctx.journal.walkPages();
  const { walks: shown, total, syncs: synced } = await runSliced(walks(ctx.world, pages, window));
  return ok({ walks: shown, total, offset: window.offset, limit: window.limit, syncs: synced });
};
