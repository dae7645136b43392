import { FIRST_NAMES, LAST_NAMES } from './name-pools';
import type { Stream } from './stream';

/**
 * faker's `helpers.arrayElement`, draw for draw: `number.int({ max: length - 1 })` is
 * `floor(next() * length)`, and a one-element list draws nothing.
 */
function element(stream: Stream, list: readonly string[]): string {
  return list[list.length > 1 ? Math.floor(stream.float() * list.length) : 0] as string;
}

/**
 * A person's name, as a caller name: faker's first name and last name, drawn as faker 9 draws
 * them from its en lists (name-pools.ts), without faker: its locale cost a tenth of a start-up.
 * The last name follows faker's en pattern: one name, or two joined by a hyphen 5% of the time
 * (`weightedArrayElement` of weights 95 and 5 is `next() * 100 < 95`). The draws come in faker's
 * order (last name, the pattern, a second last name, the first name), so the names are the ones
 * faker gave; test/unit/names.test.ts holds them to faker itself.
 * @example personName(stream) // 'Josephine Flatley' or 'Clay Runte-Farrell'
 */
export function personName(stream: Stream): string {
  const last = element(stream, LAST_NAMES);
  const surname = stream.float() * 100 < 95 ? last : `${last}-${element(stream, LAST_NAMES)}`;
  return `${element(stream, FIRST_NAMES)} ${surname}`;
}

/**
 * A SIP user name: a faker first name, lower case, sometimes with two digits.
 * @example sipUser(stream) // 'leopold' or 'mara42'
 */
export function sipUser(stream: Stream): string {
  const name = element(stream, FIRST_NAMES)
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  return stream.chance(0.3) ? `${name}${stream.int(10, 99)}` : name;
}
