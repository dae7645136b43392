import type { Randomizer } from '@faker-js/faker';
import { base, en, Faker } from '@faker-js/faker';
import { FIRST_NAMES, LAST_NAMES } from '../../src/random/name-pools';
import { personName, sipUser } from '../../src/random/names';
import { Stream } from '../../src/random/stream';

/** faker itself, drawing from whichever stream is current: what the names were made with. */
function fakerOn(): { faker: Faker; use(stream: Stream): void } {
  let current: Stream | null = null;
  const randomizer: Randomizer = {
    next: () => (current as Stream).float(),
    seed: () => undefined,
  };
  return {
    faker: new Faker({ locale: [en, base], randomizer }),
    use: (stream) => {
      current = stream;
    },
  };
}

/**
 * A caller name as the emulator made it with faker (until name-pools.ts): a last name from the
 * list by `helpers` (`person.lastName()` expands a template, with draws of its own), faker's en
 * pattern of one or two, then `person.firstName()`.
 */
function fakerPersonName(faker: Faker): string {
  const lastNames = faker.definitions.person.last_name.generic ?? [];
  const last = faker.helpers.arrayElement(lastNames);
  const two = faker.helpers.weightedArrayElement([
    { value: 1, weight: 95 },
    { value: 2, weight: 5 },
  ]);
  const surname = two === 1 ? last : `${last}-${faker.helpers.arrayElement(lastNames)}`;
  return `${faker.person.firstName()} ${surname}`;
}

describe('name pools', () => {
  it('are faker en lists, as the installed faker has them (else run scripts/name-pools.js)', () => {
    const { faker } = fakerOn();
    expect(FIRST_NAMES).toEqual(faker.rawDefinitions.person?.first_name?.generic);
    expect(LAST_NAMES).toEqual(faker.rawDefinitions.person?.last_name?.generic);
  });

  it("draw personName as faker's firstName and its en last-name pattern do, draw for draw", () => {
    const { faker, use } = fakerOn();
    let hyphenated = 0;
    for (let i = 0; i < 20_000; i++) {
      const mine = new Stream(i, 7 * i, 13, 12);
      const theirs = new Stream(i, 7 * i, 13, 12);
      use(theirs);
      const expected = fakerPersonName(faker);
      const got = personName(mine);
      if (got.includes('-')) hyphenated++;
      expect(got).toBe(expected);
      // The streams stand at the same place: the draws that follow are the same too.
      expect(mine.int32()).toBe(theirs.int32());
    }
    // About 5% of last names are two joined by a hyphen (none of faker's names has one).
    expect(hyphenated / 20_000).toBeGreaterThan(0.04);
    expect(hyphenated / 20_000).toBeLessThan(0.06);
  });

  it("draw sipUser's name as faker's firstName does", () => {
    const { faker, use } = fakerOn();
    for (let i = 0; i < 5_000; i++) {
      const theirs = new Stream(3, i, 99, 12);
      use(theirs);
      const name = faker.person
        .firstName()
        .toLowerCase()
        .replace(/[^a-z]/g, '');
      const user = sipUser(new Stream(3, i, 99, 12));
      expect(user.replace(/\d+$/, '')).toBe(name);
    }
  });

  it('draw from a stream seeded by a key (Alea) as faker does', () => {
    const { faker, use } = fakerOn();
    for (let i = 0; i < 2_000; i++) {
      use(Stream.of(['names', i]));
      expect(personName(Stream.of(['names', i]))).toBe(fakerPersonName(faker));
    }
  });
});
