import { jsonString } from '../../src/format/json-string';

/** jsonString writes what JSON.stringify writes, for every kind of character a value may hold. */
describe('jsonString', () => {
  test.each([
    ['', 'empty'],
    ['+15126002188', 'a number'],
    ['leopold21', 'a SIP user'],
    ['say "hi"', 'quotes'],
    ['back\\slash', 'a backslash'],
    ['tab\there\nline\u0000nul\u001f', 'control characters'],
    ['Zoë Ångström 日本', 'non-ASCII'],
    ['😀 pair', 'a surrogate pair'],
    ['lone \ud800 high', 'a lone high surrogate'],
    ['lone \udc00 low', 'a lone low surrogate'],
    ['\u2028\u2029', 'line and paragraph separators'],
    ['\u007f\u0080', 'DEL and the first C1 code'],
  ])('%j (%s)', (text) => {
    expect(jsonString(text)).toBe(JSON.stringify(text));
  });
});
