import { joinedBytes, renderedRun, runPage } from '../../src/cache/rendered-run';

/** Items with a non-ASCII one among them: its bytes are not its length. */
const ITEMS = ['{"a":1}', '{"n":"Zoë"}', '{"a":22}', '{"b":"€"}', '{"a":333}'];

/** ASCII items, as every seeded record is: joined and copied a byte a character. */
const ASCII = ['{"a":1}', '{"n":"Zoe"}', '{"a":22}', '{"b":"EUR"}', '{"a":333}'];

describe('joinedBytes', () => {
  test.each([
    ['JSON list', '{"x":[', ITEMS, ',', ']}'],
    ['JSON list, ASCII', '{"x":[', ASCII, ',', ']}'],
    ['ASCII items under a head that is not', '{"é":[', ASCII, ',', ']}'],
    ['ASCII items, a separator that is not', '[', ASCII, '·', ']'],
    ['XML elements (nothing between)', '<L>', ITEMS, '', '</L>'],
    ['XML elements, ASCII', '<L>', ASCII, '', '</L>'],
    ['one item', '[', ['"é"'], ',', ']'],
    ['one ASCII item', '[', ['"e"'], ',', ']'],
    ['no items', '[', [], ',', ']'],
  ])('%s: the UTF-8 of the joined text, of the exact size', (_name, head, items, between, tail) => {
    const text = `${head}${items.join(between)}${tail}`;
    const bytes = joinedBytes(head, items, between, tail);
    expect(bytes.toString('utf8')).toBe(text);
    expect(bytes.length).toBe(Buffer.byteLength(text));
  });

  test.each([
    ['some not ASCII', ITEMS],
    ['all ASCII', ASCII],
  ])('with ends (%s), notes the byte after each item', (_name, items) => {
    const ends = new Uint32Array(items.length);
    const bytes = joinedBytes('[', items, ',', ']', ends);
    for (let k = 0; k < items.length; k++) {
      expect(bytes.subarray(0, ends[k]).toString('utf8')).toBe(`[${items.slice(0, k + 1).join(',')}`);
    }
  });

  test('a body given by alloc is filled whole, whichever way it is written', () => {
    for (const items of [ITEMS, ASCII]) {
      const given: Buffer[] = [];
      const bytes = joinedBytes('[', items, ',', ']', undefined, (n) => {
        given.push(Buffer.alloc(n, 0xff));
        return given[0] as Buffer;
      });
      expect(given).toHaveLength(1);
      expect(bytes).toBe(given[0]);
      expect(bytes.toString('utf8')).toBe(`[${items.join(',')}]`);
    }
  });
});

describe('runPage: a window of a run, between a head and a tail', () => {
  const run = renderedRun(ITEMS, ',');
  // Every window of the run, the empty ones at each end included.
  const windows: [number, number][] = [];
  for (let first = 0; first <= ITEMS.length; first++) {
    for (let count = 0; first + count <= ITEMS.length; count++) windows.push([first, count]);
  }

  test.each(windows)('first %i, count %i: the items joined as a page joins them', (first, count) => {
    const page = ITEMS.slice(first, first + count);
    const body = runPage('{"calls":[', run, first, count, '],"page":0}');
    expect(body.toString('utf8')).toBe(`{"calls":[${page.join(',')}],"page":0}`);
    expect(body.equals(joinedBytes('{"calls":[', page, ',', '],"page":0}'))).toBe(true);
  });

  test('a run with nothing between its items (XML)', () => {
    const xml = renderedRun(['<a/>', '<b>é</b>', '<c/>'], '');
    expect(runPage('<L>', xml, 1, 2, '</L>').toString('utf8')).toBe('<L><b>é</b><c/></L>');
    expect(xml.gap).toBe(0);
  });

  test('an empty run gives an empty page', () => {
    expect(runPage('[', renderedRun([], ','), 0, 0, ']').toString()).toBe('[]');
  });
});
