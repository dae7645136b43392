/**
 * XML as Restcomm writes it (`--dialect restcomm`, a path without `.json`): XStream 1.4's
 * `PrettyPrintWriter` under the `RestcommResponse` alias. Production's endpoints call
 * `xstream.toXML`, so these are its rules, not XML's:
 * - no declaration, a newline and two spaces per level before every element, no final newline;
 * - an element with neither text nor children is `<Name/>` (production's null members);
 * - names pass XStream's name coder: `_` is written `__` and `$` `_-`, so the call's
 *   `Ring_duration` arrives as `<Ring__duration>`;
 * - text and attributes escape `& < > " '` and `\r` as entities, and control characters as
 *   `&#x…;` (its "quirks" mode, the default).
 */

/** A member's value: text, `null` for an empty element, or child members in order. */
export type XmlValue = string | null | readonly XmlField[];
/** A member: element name (as the converter names it, before the name coder) and value. */
export type XmlField = readonly [name: string, value: XmlValue];

/** The element production wraps every answer in (`xstream.alias("RestcommResponse", …)`). */
export const XML_ROOT = 'RestcommResponse';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Text as XStream escapes it. Tab and newline pass; other control characters (`\r` included)
 * and unassigned ones (`!isDefined`) become hex references. Surrogates are
 * defined in Java and pass, so characters outside the BMP are written as they are.
 * @example xmlText("O'Brien & Co") // 'O&apos;Brien &amp; Co'
 */
export function xmlText(text: string): string {
  // \p{Cc} is Java's isISOControl (U+0000-001F, U+007F-009F); \p{Cn}, what it does not define.
  return text.replace(/[&<>"']|\p{Cc}|\p{Cn}/gu, (c) =>
    c === '\t' || c === '\n' || c.length > 1 ? c : (ENTITIES[c] ?? `&#x${c.charCodeAt(0).toString(16)};`),
  );
}

/**
 * An element name through XStream's default name coder (`XmlFriendlyNameCoder`).
 * @example xmlName('Ring_duration') // 'Ring__duration'
 */
export function xmlName(name: string): string {
  return name.replace(/[_$]/g, (c) => (c === '_' ? '__' : '_-'));
}

const INDENT: string[] = [];
/** The newline and indentation before an element `depth` levels below the root. */
function lineAt(depth: number): string {
  INDENT[depth] ??= `\n${'  '.repeat(depth)}`;
  return INDENT[depth] as string;
}

/** ` name="value"` for each attribute, in order. */
function attributes(attrs: readonly (readonly [string, string])[]): string {
  let out = '';
  for (const [name, value] of attrs) out += ` ${xmlName(name)}="${xmlText(value)}"`;
  return out;
}

/**
 * One element, `depth` levels below the root, with the newline and indentation before it.
 * @example xmlElement(['Sid', 'CA1'], 2) // '\n    <Sid>CA1</Sid>'
 */
export function xmlElement(field: XmlField, depth: number, attrs: readonly (readonly [string, string])[] = []): string {
  const [rawName, value] = field;
  const name = xmlName(rawName);
  const open = `${lineAt(depth)}<${name}${attributes(attrs)}`;
  if (value === null || (typeof value !== 'string' && value.length === 0)) return `${open}/>`;
  if (typeof value === 'string') return `${open}>${xmlText(value)}</${name}>`;
  let out = `${open}>`;
  for (const child of value) out += xmlElement(child, depth + 1);
  return `${out}${lineAt(depth)}</${name}>`;
}

/** The text around a wrapped answer's children: `head + children + tail` is the body. */
export interface XmlParts {
  head: string;
  tail: string;
}

/**
 * The response around one element at depth 1, whose children (rendered at depth 2) go between
 * `head` and `tail`. With `empty`, the element closes itself, as XStream closes a list of none.
 * @example xmlWrapped('Calls', [['page', '0']], false).head // '<RestcommResponse>\n  <Calls page="0">'
 */
export function xmlWrapped(name: string, attrs: readonly (readonly [string, string])[], empty: boolean): XmlParts {
  const open = `<${XML_ROOT}>${lineAt(1)}<${xmlName(name)}${attributes(attrs)}`;
  const close = `\n</${XML_ROOT}>`;
  if (empty) return { head: `${open}/>`, tail: close };
  return { head: `${open}>`, tail: `${lineAt(1)}</${xmlName(name)}>${close}` };
}

/**
 * A single record's answer: its element under the root.
 * @example xmlDocument(['Call', [['Sid', 'CA1']]]) // '<RestcommResponse>\n  <Call>\n    <Sid>CA1</Sid>\n  </Call>\n</RestcommResponse>'
 */
export function xmlDocument(field: XmlField): string {
  return `<${XML_ROOT}>${xmlElement(field, 1)}\n</${XML_ROOT}>`;
}

/**
 * An element as the whole document, with no `<RestcommResponse>` around it: what XStream's
 * `toXML` of the record itself writes (production answers a created call so).
 * @example xmlRoot(['Call', [['Sid', 'ID1-CA2']]]) // '<Call>\n  <Sid>ID1-CA2</Sid>\n</Call>'
 */
export function xmlRoot(field: XmlField): string {
  return xmlElement(field, 0).slice(1);
}
