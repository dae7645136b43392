import { Faker, base, en, type Randomizer } from '@faker-js/faker';
import type { Stream } from './stream';

/**
 * Faker's randomness comes through its `Randomizer` interface. This one reads from whichever
 * `Stream` is current, so one Faker instance (costly to build) serves every record while each
 * record still draws only from its own keyed stream.
 */
class StreamRandomizer implements Randomizer {
  current: (() => number) | null = null;

  next(): number {
    if (this.current === null) {
      // A draw outside `withFaker` would be unseeded; fail loudly instead of guessing.
      throw new Error('faker used outside withFaker()');
    }
    return this.current();
  }

  seed(): void {
    throw new Error('faker.seed() is not used: streams are keyed per record');
  }
}

const randomizer = new StreamRandomizer();
const faker = new Faker({ locale: [en, base], randomizer });

/**
 * Runs `fn` with a faker that draws from `stream`.
 * @example withFaker(stream, (f) => f.person.fullName()) // 'Mara Kuhlman'
 */
export function withFaker<T>(stream: Stream, fn: (f: Faker) => T): T {
  randomizer.current = stream.next;
  try {
    return fn(faker);
  } finally {
    randomizer.current = null;
  }
}
