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

/** How far a path may be from a route to be suggested: a typo or two, a wrong version. */
const ROUTE_LIMIT = 2;
/** A segment longer than this is no typo of a route's (and editing it would cost the server). */
const SEGMENT_MAX = 64;
const VERSION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The route a path that matches none most likely meant, written with the path's own values in
 * its parameters: segment by segment against each pattern (`:name` takes any segment, `{.json}`
 * is optional), a typo costing its edit distance and another API version one. Undefined when
 * none is within two edits.
 * @example nearestRoute('/__admin/fault', ['/__admin/faults', '/__admin/clock']) // '/__admin/faults'
 * @example nearestRoute('/call/2010-04-01/Accounts/AC1/calls.json', ['/call/2012-04-24/Accounts/:accountSid/Calls{.json}']) // '/call/2012-04-24/Accounts/AC1/Calls.json'
 */
export function nearestRoute(path: string, patterns: readonly string[]): string | undefined {
  const given = path.split('/');
  let best: string | undefined;
  let bestCost = ROUTE_LIMIT + 1;
  for (const pattern of patterns) {
    const variants = pattern.includes('{.json}')
      ? [pattern.replace('{.json}', '.json'), pattern.replace('{.json}', '')]
      : [pattern];
    for (const variant of variants) {
      const wanted = variant.split('/');
      if (wanted.length !== given.length) continue;
      let cost = 0;
      const out: string[] = [];
      for (let i = 0; i < wanted.length && cost < bestCost; i++) {
        const w = wanted[i] as string;
        const g = given[i] as string;
        if (w.startsWith(':')) {
          // A parameter, perhaps with a suffix of its own (`:recordingSid.wav`).
          const dot = w.indexOf('.');
          const suffix = dot < 0 ? '' : w.slice(dot);
          if (suffix !== '' && !g.endsWith(suffix)) cost += ROUTE_LIMIT + 1;
          out.push(g);
        } else if (w === g) {
          out.push(w);
        } else {
          cost +=
            VERSION.test(w) && VERSION.test(g) ? 1 : g.length > SEGMENT_MAX ? ROUTE_LIMIT + 1 : editDistance(g, w);
          out.push(w);
        }
      }
      if (cost > 0 && cost < bestCost) {
        best = out.join('/');
        bestCost = cost;
      }
    }
  }
  return best;
}
