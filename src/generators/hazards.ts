import { Stream } from '../random/stream';
import type { AccountProfile, WorldContext } from './account';
import type { HazardSpec } from './account-spec';

/** Most seconds of commit lag and of clock skew an account may ask for. */
export const MAX_COMMIT_LAG_S = 3600;
export const MAX_SKEW_S = 3600;
/** Most nodes an account may ask for. */
export const MAX_INSTANCES = 16;

/** One node of a cluster: the InstanceId it stamps on its calls and how far its clock runs ahead. */
export interface HazardNode {
  instanceId: string;
  /** Its clock minus the true time, milliseconds (negative: behind). */
  skewMs: number;
}

/**
 * The nodes that write an account's calls, drawn from the seed and the account whose records it
 * has (a sandbox's are its parent's, as its traffic is): the same hazards give the same nodes.
 * @example hazardNodes(world, account, { commitLagS: 0, instances: { count: 2, maxSkewS: 30 } }) // [{ instanceId: 'ID…', skewMs: -12873 }, { instanceId: 'ID…', skewMs: 4410 }]
 */
export function hazardNodes(world: WorldContext, account: AccountProfile, spec: HazardSpec): HazardNode[] {
  if (spec.instances === null) return [];
  const s = Stream.of([world.seed, account.dataOf, 'hazard-nodes']);
  const maxMs = spec.instances.maxSkewS * 1000;
  const nodes: HazardNode[] = [];
  for (let k = 0; k < spec.instances.count; k++) {
    nodes.push({ instanceId: `ID${s.hex(32)}`, skewMs: Math.round((2 * s.float() - 1) * maxMs) });
  }
  return nodes;
}

/** How one arrival of live traffic is written: by which node (index into the nodes, or none) and how late it commits. */
export interface ArrivalHazard {
  node: number | null;
  lagMs: number;
}

/**
 * The hazard of arrival `j`, from a stream of its own (drawing it changes no other field).
 * @example arrivalHazard(account, spec, 3) // { node: 1, lagMs: 48211 }
 */
export function arrivalHazard(account: AccountProfile, spec: HazardSpec, j: number): ArrivalHazard {
  const s = account.streams.hazards.at(j);
  const lagMs = Math.floor(s.float() * spec.commitLagS * 1000);
  const node = spec.instances === null ? null : s.int(0, spec.instances.count - 1);
  return { node, lagMs };
}

/** Whether a spec asks for any hazard at all. */
export const anyHazard = (spec: HazardSpec | undefined): spec is HazardSpec =>
  spec !== undefined && (spec.commitLagS > 0 || spec.instances !== null);

/**
 * Bounds of when an arrival appears relative to its date_created (ms): no earlier than `early`
 * before it (a node ahead), no later than `late` after it (a node behind, then the lag).
 */
export function appearBounds(nodes: readonly HazardNode[], spec: HazardSpec): { early: number; late: number } {
  let ahead = 0;
  let behind = 0;
  for (const n of nodes) {
    ahead = Math.max(ahead, n.skewMs);
    behind = Math.max(behind, -n.skewMs);
  }
  return { early: ahead, late: behind + spec.commitLagS * 1000 };
}
