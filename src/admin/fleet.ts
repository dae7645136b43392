import type { AdminContext } from './context';
import { journalView } from './journal';
import type { FleetLink, GatherKind } from './log-transport';
import { wirePages } from './walks';

/** How this replica answers a fleet's gather: its journal, its journaled pages, or its metrics, as JSON. */
export function answerGather(
  ctx: AdminContext,
  metrics: () => Promise<unknown>,
): (kind: GatherKind, query: string) => Promise<unknown> {
  return (kind, query) => {
    if (kind === 'metrics') return metrics();
    return Promise.resolve(kind === 'requests' ? journalView(ctx.journal, query) : wirePages(ctx.journal.walkPages()));
  };
}

/** A replica alone: its fleet is itself, so `?fleet=true` answers what it holds, named. */
export function soloFleet(replica: string, answer: () => (kind: GatherKind, query: string) => Promise<unknown>) {
  const gather: FleetLink['gather'] = async (kind, query) => [{ replica, answer: await answer()(kind, query) }];
  return { gather };
}
