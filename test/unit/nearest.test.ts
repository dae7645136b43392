import { editDistance, nearest } from '../../src/input/nearest';

describe('nearest: what a mistyped name meant', () => {
  test.each([
    ['prot', 'port', 2],
    ['port', 'port', 0],
    ['', 'abc', 3],
    ['seeds', 'seed', 1],
    ['kitten', 'sitting', 3],
  ])('editDistance(%s, %s) = %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  const options = ['port', 'host', 'seed', 'journal-size', 'log-level', 'dialect'];
  test.each([
    ['prot', 'port'],
    ['hots', 'host'],
    ['journal', 'journal-size'],
    ['loglevel', 'log-level'],
    ['dialekt', 'dialect'],
    ['colour', undefined],
    ['x', undefined],
  ])('nearest(%s) = %s', (name, meant) => {
    expect(nearest(name, options)).toBe(meant);
  });
});
