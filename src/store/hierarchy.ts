import { problems, ValidationError } from '../errors';
import { MAX_ACCOUNT_LEVELS } from '../generators/account-spec';

/** What the hierarchy needs of an account: its sid and its parent's. */
export interface Node {
  sid: string;
  parent?: string | undefined;
  /** Production's own account, as stored: its parent may be missing from the data, or below the third level. */
  asStored?: boolean;
}

/**
 * The ancestors of `sid`, nearest first (Restcomm's account lineage), by `parentOf`; a parent
 * that is not there ends the line. A loop is a ValidationError at `at`.
 * @example lineage('AC3', (s) => ({ AC3: 'AC2', AC2: 'AC1' })[s]) // ['AC2', 'AC1']
 */
export function lineage(sid: string, parentOf: (sid: string) => string | undefined, at = 'parent'): string[] {
  const line: string[] = [];
  for (let p = parentOf(sid); p !== undefined; p = parentOf(p)) {
    if (p === sid || line.includes(p)) throw new ValidationError(at, problems.parentCycle(p));
    line.push(p);
  }
  return line;
}

/**
 * Checks the parents of a list of accounts as production would have let them be made: each
 * parent is another account of the list, no loop, and no account below the third level.
 * `at(i)` names the field of account `i` in messages.
 */
export function checkHierarchy(nodes: readonly Node[], at: (i: number) => string): void {
  const bySid = new Map(nodes.map((n) => [n.sid, n]));
  nodes.forEach((n, i) => {
    if (n.parent === undefined) return;
    if (n.parent === n.sid) throw new ValidationError(at(i), problems.parentSelf);
    if (n.asStored === true) {
      // Only a loop is refused: production's lineage query would never end on one.
      lineage(n.sid, (s) => bySid.get(s)?.parent, at(i));
      return;
    }
    if (!bySid.has(n.parent)) throw new ValidationError(at(i), problems.parentUnknown(n.parent));
    const line = lineage(n.sid, (s) => bySid.get(s)?.parent, at(i));
    if (line.length >= MAX_ACCOUNT_LEVELS) throw new ValidationError(at(i), problems.parentDepth(MAX_ACCOUNT_LEVELS));
  });
}
