/**
 * A list's items in one order, rendered and joined into one buffer: a page of that order is then
 * one slice of it, copied once, where it was a lookup, a length and a copy for every item.
 */
export interface RenderedRun {
  /** The items, in order, with the format's separator between them. */
  bytes: Buffer;
  /** `ends[p]`: the byte after position p's item. */
  ends: Uint32Array;
  /** The separator's length in bytes. */
  gap: number;
}

/**
 * `head`, the items with `between` between them, and `tail`, encoded as UTF-8 into one buffer
 * of the exact size; with `ends`, the byte after each item is noted there. `alloc` gives the
 * buffer (a body sent once takes it from `bodies`).
 *
 * The items are joined into one string first: `join` copies each item's pieces straight into
 * it, where writing the items one by one made V8 flatten each into a string of its own first.
 * Seeded records are ASCII, so the joined text is then copied as Latin-1, a byte a character
 * with nothing to encode (measured on a cold page of 50 calls: 8% less than item by item, and a
 * third of encoding it as UTF-8). Text with any other character goes item by item
 * (`joinedEach`), as an inserted record's name may.
 * @example joinedBytes('[', ['1', 'é'], ',', ']').toString() // '[1,é]'
 */
export function joinedBytes(
  head: string,
  items: readonly string[],
  between: string,
  tail: string,
  ends?: Uint32Array,
  alloc: (bytes: number) => Buffer = Buffer.allocUnsafe,
): Buffer {
  const joined = items.join(between);
  const size = Buffer.byteLength(joined);
  if (size !== joined.length) return joinedEach(head, items, between, tail, ends, alloc);
  const headBytes = Buffer.byteLength(head);
  const body = alloc(headBytes + size + Buffer.byteLength(tail));
  body.write(head, 0);
  body.write(joined, headBytes, 'latin1');
  body.write(tail, headBytes + size);
  if (ends !== undefined) {
    // ASCII throughout: an item's bytes are its characters.
    let at = headBytes;
    for (let k = 0; k < items.length; k++) {
      at += (items[k] as string).length;
      ends[k] = at;
      at += between.length;
    }
  }
  return body;
}

/**
 * `joinedBytes` item by item, for text that is not all ASCII: an item whose UTF-8 length is its
 * length is still copied as Latin-1, the others encoded.
 */
function joinedEach(
  head: string,
  items: readonly string[],
  between: string,
  tail: string,
  ends: Uint32Array | undefined,
  alloc: (bytes: number) => Buffer,
): Buffer {
  const lengths = new Array<number>(items.length);
  const gap = Buffer.byteLength(between);
  let total = Buffer.byteLength(head) + Buffer.byteLength(tail) + gap * Math.max(0, items.length - 1);
  for (let k = 0; k < items.length; k++) {
    const n = Buffer.byteLength(items[k] as string);
    lengths[k] = n;
    total += n;
  }
  const body = alloc(total);
  let at = body.write(head, 0);
  for (let k = 0; k < items.length; k++) {
    if (k > 0 && gap > 0) at += body.write(between, at);
    const item = items[k] as string;
    at += body.write(item, at, lengths[k] === item.length ? 'latin1' : 'utf8');
    if (ends !== undefined) ends[k] = at;
  }
  body.write(tail, at);
  return body;
}

/**
 * The run of `texts` joined by `between`.
 * @example renderedRun(['{"a":1}', '{"a":2}'], ',').ends // Uint32Array [7, 15]
 */
export function renderedRun(texts: readonly string[], between: string): RenderedRun {
  const ends = new Uint32Array(texts.length);
  return { bytes: joinedBytes('', texts, between, '', ends), ends, gap: Buffer.byteLength(between) };
}

/**
 * A page's body from a run: `head`, the items at positions [first, first + count) as the run
 * holds them (separators included), and `tail`, in one buffer of the exact size.
 * @example runPage('[', renderedRun(['1', '2', '3'], ','), 1, 2, ']').toString() // '[2,3]'
 */
export function runPage(
  head: string,
  run: RenderedRun,
  first: number,
  count: number,
  tail: string,
  alloc: (bytes: number) => Buffer = Buffer.allocUnsafe,
): Buffer {
  const start = first === 0 ? 0 : (run.ends[first - 1] as number) + run.gap;
  const end = count === 0 ? start : (run.ends[first + count - 1] as number);
  const headBytes = Buffer.byteLength(head);
  const body = alloc(headBytes + (end - start) + Buffer.byteLength(tail));
  body.write(head, 0);
  if (end > start) run.bytes.copy(body, headBytes, start, end);
  body.write(tail, headBytes + end - start);
  return body;
}
