import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * A constant-time comparison of a secret given with the one expected (a token, a password): how
 * much of a guess is right does not show in the time taken, nor does either's length.
 * @example sameSecret('guess', 'token') // false
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
