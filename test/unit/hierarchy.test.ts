import { problems } from '../../src/errors';
import { checkHierarchy, lineage } from '../../src/store/hierarchy';

const parents: Record<string, string> = { C: 'B', B: 'A', X: 'Y', Y: 'X' };
const parentOf = (s: string) => parents[s];

describe('lineage: ancestors nearest first', () => {
  test.each([
    ['A', []],
    ['B', ['A']],
    ['C', ['B', 'A']],
    ['Z', []],
  ])('%s has %j', (sid, line) => {
    expect(lineage(sid, parentOf)).toEqual(line);
  });

  test('a loop is refused, not followed for ever', () => {
    expect(() => lineage('X', parentOf)).toThrow(problems.parentCycle('X'));
  });
});

describe('checkHierarchy: what production lets be made', () => {
  const at = (i: number) => `a[${i}]`;
  test.each([
    ['three levels', [{ sid: 'A' }, { sid: 'B', parent: 'A' }, { sid: 'C', parent: 'B' }], null],
    ['siblings', [{ sid: 'A' }, { sid: 'B', parent: 'A' }, { sid: 'C', parent: 'A' }], null],
    [
      'four levels',
      [{ sid: 'A' }, { sid: 'B', parent: 'A' }, { sid: 'C', parent: 'B' }, { sid: 'D', parent: 'C' }],
      `a[3]: ${problems.parentDepth(3)}`,
    ],
    ['a missing parent', [{ sid: 'B', parent: 'A' }], `a[0]: ${problems.parentUnknown('A')}`],
  ])('%s', (_name, nodes, error) => {
    const run = () => checkHierarchy(nodes, at);
    if (error === null) expect(run).not.toThrow();
    else expect(run).toThrow(error);
  });
});
