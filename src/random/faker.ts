import type { Faker, LocaleDefinition, Randomizer } from '@faker-js/faker';
// The English build alone: the package's main entry loads every locale (118 ms of a 120 ms
// start-up budget); this one loads English and the base (21 ms). Its instance is only a way to
// the Faker class and to the definitions [en, base] merged, which is what we built ours from.
import { faker as english } from '@faker-js/faker/locale/en';
import type { Stream } from './stream';

/**
 * Faker's randomness comes through its `Randomizer` interface. This one reads from whichever
 * `Stream` is current, so one Faker instance (costly to build) serves every record while each
 * record still draws only from its own keyed stream.
 */
class StreamRandomizer implements Randomizer {
  current: Stream | null = null;

  next(): number {
    if (this.current === null) {
      // A draw outside `withFaker` would be unseeded; fail loudly instead of guessing.
      throw new Error('faker used outside withFaker()');
    }
    return this.current.float();
  }

  seed(): void {
    throw new Error('faker.seed() is not used: streams are keyed per record');
  }
}

const randomizer = new StreamRandomizer();
const FakerClass = english.constructor as new (options: { locale: LocaleDefinition; randomizer: Randomizer }) => Faker;
const faker = new FakerClass({ locale: english.rawDefinitions, randomizer });

/**
 * Runs `fn` with a faker that draws from `stream`.
 * @example withFaker(stream, (f) => f.person.fullName()) // 'Mara Kuhlman'
 */
export function withFaker<T>(stream: Stream, fn: (f: Faker) => T): T {
  randomizer.current = stream;
  try {
    return fn(faker);
  } finally {
    randomizer.current = null;
  }
}

/**
 * A person's name, as a caller name: faker's first name and last name. The last name follows
 * faker's own en pattern (one name, or two joined by a hyphen 5% of the time) but picks from
 * faker's list with `helpers` directly: `person.lastName()` expands a template per call, which
 * costs 1.7 µs where this costs 0.1 µs, and a list of a million calls reads many names.
 * @example personName(stream) // 'Josephine Flatley' or 'Clay Runte-Farrell'
 */
export function personName(stream: Stream): string {
  return withFaker(stream, (f) => {
    const lastNames = f.definitions.person.last_name.generic ?? [];
    const last = f.helpers.arrayElement(lastNames);
    const surname =
      f.helpers.weightedArrayElement([
        { value: 1, weight: 95 },
        { value: 2, weight: 5 },
      ]) === 1
        ? last
        : `${last}-${f.helpers.arrayElement(lastNames)}`;
    return `${f.person.firstName()} ${surname}`;
  });
}

/**
 * A SIP user name: a faker first name, lower case, sometimes with two digits.
 * @example sipUser(stream) // 'leopold' or 'mara42'
 */
export function sipUser(stream: Stream): string {
  const name = withFaker(stream, (f) => f.person.firstName())
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  return stream.chance(0.3) ? `${name}${stream.int(10, 99)}` : name;
}
