/**
 * The collation production's database compares and orders text by. `CREATE DATABASE restcomm`
 * (Restcomm's mariadb/init.sql) declares none, so the server's default applies, and MariaDB's
 * defaults (latin1_swedish_ci, utf8mb4_general_ci) are case-insensitive and, for the accents a
 * name or an address carries, accent-insensitive, with trailing spaces ignored (PAD SPACE). One
 * rule for every place production's SQL compares or orders text: SortBy on From, To, Direction,
 * Status and CallSid, and every LIKE filter.
 */

/** Texts whose folds are remembered: an account's calls show a few thousand distinct parties and statuses. */
const MEMO = 65_536;
const folds = new Map<string, string>();

/**
 * A text as the collation sees each character: upper case, accents gone. What a LIKE compares
 * (which keeps trailing spaces, unlike `=` and ORDER BY).
 * @example collationFold('José ') // 'JOSE '
 */
export function collationFold(text: string): string {
  const known = folds.get(text);
  if (known !== undefined) return known;
  // Plain ASCII, the usual case, needs no decomposition.
  const plain = /^[\x20-\x7e]*$/.test(text);
  const fold = (plain ? text : text.normalize('NFD').replace(/\p{M}/gu, '')).toUpperCase();
  if (folds.size < MEMO) folds.set(text, fold);
  return fold;
}

/**
 * A text's sort key under the collation: equal keys are equal texts to the database, and keys
 * compare (by code unit) as the texts order.
 * @example collationKey('Alice ') // 'ALICE'
 * @example collationKey('José') === collationKey('JOSE') // true
 */
export function collationKey(text: string): string {
  const fold = collationFold(text);
  return fold.endsWith(' ') ? fold.replace(/ +$/, '') : fold;
}

/**
 * A comparison of two texts under the collation: negative, zero (equal to the database) or
 * positive.
 * @example compareCollated('bob', 'Alice') // 1
 */
export function compareCollated(a: string, b: string): number {
  const x = collationKey(a);
  const y = collationKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
