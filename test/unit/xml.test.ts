import { XML_ROOT, xmlDocument, xmlElement, xmlName, xmlText, xmlWrapped } from '../../src/format/xml';

describe('xmlText: XStream 1.4 quirks-mode escaping', () => {
  test.each([
    ['plain', 'plain'],
    ["O'Brien & Co", 'O&apos;Brien &amp; Co'],
    ['<a href="x">', '&lt;a href=&quot;x&quot;&gt;'],
    ['a\rb', 'a&#xd;b'],
    ['tab\tand\nnewline', 'tab\tand\nnewline'],
    ['nul\0', 'nul&#x0;'],
    ['bell\x07 and del\x7f and c1\x85', 'bell&#x7; and del&#x7f; and c1&#x85;'],
    // unassigned (Java's !isDefined) in the BMP is a reference; astral characters pass as they are
    ['\ufffe', '&#xfffe;'],
    ['café ☎ 😀', 'café ☎ 😀'],
    ['&amp;', '&amp;amp;'],
  ])('%j is written %j', (text, written) => {
    expect(xmlText(text)).toBe(written);
  });
});

describe('xmlName: XStream’s XmlFriendlyNameCoder', () => {
  test.each([
    ['Sid', 'Sid'],
    ['Ring_duration', 'Ring__duration'],
    ['a$b', 'a_-b'],
  ])('%s is written %s', (name, written) => {
    expect(xmlName(name)).toBe(written);
  });
});

describe('xmlElement: PrettyPrintWriter’s layout', () => {
  test.each([
    ['text', ['Sid', 'CA1'] as const, 2, '\n    <Sid>CA1</Sid>'],
    ['null is an element that closes itself', ['EndTime', null] as const, 1, '\n  <EndTime/>'],
    ['an empty string keeps both tags', ['Name', ''] as const, 0, '\n<Name></Name>'],
    [
      'children, one level deeper each',
      [
        'Call',
        [
          ['Sid', 'CA1'],
          ['Sub', [['R', 'x']]],
        ],
      ] as const,
      1,
      '\n  <Call>\n    <Sid>CA1</Sid>\n    <Sub>\n      <R>x</R>\n    </Sub>\n  </Call>',
    ],
  ])('%s', (_name, field, depth, written) => {
    expect(xmlElement(field, depth)).toBe(written);
  });

  test('attributes are escaped as text and written in order', () => {
    expect(
      xmlElement(['L', []], 0, [
        ['uri', '/x?a=1&b=2'],
        ['n', '0'],
      ]),
    ).toBe('\n<L uri="/x?a=1&amp;b=2" n="0"/>');
  });
});

describe('the answer around it: RestcommResponse, no declaration, no final newline', () => {
  test('a single record', () => {
    expect(xmlDocument(['Call', [['Sid', 'CA1']]])).toBe(
      `<${XML_ROOT}>\n  <Call>\n    <Sid>CA1</Sid>\n  </Call>\n</${XML_ROOT}>`,
    );
  });

  test.each([
    [false, '<RestcommResponse>\n  <Calls page="0">', '\n  </Calls>\n</RestcommResponse>'],
    [true, '<RestcommResponse>\n  <Calls page="0"/>', '\n</RestcommResponse>'],
  ])('a list (empty: %s)', (empty, head, tail) => {
    expect(xmlWrapped('Calls', [['page', '0']], empty)).toEqual({ head, tail });
  });
});
