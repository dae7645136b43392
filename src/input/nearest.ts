/**
 * Edit distance (Levenshtein: insertions, deletions, substitutions) between two short strings.
 * @example editDistance('prot', 'port') // 2
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * The candidate a mistyped name most likely meant: the closest by edit distance, within a third
 * of its length (at least 2), or one it is a prefix of; undefined when none is near.
 * @example nearest('prot', ['port', 'host', 'seed']) // 'port'
 * @example nearest('colour', ['port', 'host']) // undefined
 */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = c.startsWith(name) ? 1 : editDistance(name, c);
    if (d <= limit && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
