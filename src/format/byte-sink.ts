import { jsonString } from './json-string';

/**
 * A growing buffer that a page's bytes are written into, piece by piece: what a page built as
 * bytes (format/call-bytes.ts) writes to, before it is copied once into the body sent. A writer
 * asks for `room` first and then writes into `buf` at `at` directly.
 * @example const sink = new ByteSink(1024); sink.text('{"calls":['); sink.at // 10
 */
export class ByteSink {
  buf: Buffer;
  at = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }

  /** Makes room for `bytes` more bytes at `at`, keeping what was written. */
  room(bytes: number): void {
    const need = this.at + bytes;
    if (need <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(need, this.buf.length * 2));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }

  /** Writes `text` as UTF-8. */
  text(text: string): void {
    this.room(Buffer.byteLength(text));
    this.at += this.buf.write(text, this.at);
  }

  /** Writes `bytes`. */
  bytes(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** The bytes written, as a view: valid until the next write. */
  view(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

/**
 * Texts a page writes again and again (a party's number, a name, a status), as bytes: a string
 * to its encoding, in two maps, emptied when full. Pool entries are the same string objects on
 * every call, so a lookup reads a hash V8 keeps on the string; a page of fifty calls then copies
 * some ten short buffers a call instead of encoding ten strings.
 */
const TEXTS_MAX = 1 << 16;
const quoted = new Map<string, Buffer>();
const plain = new Map<string, Buffer>();

/**
 * `jsonString(text)` as UTF-8 bytes, remembered.
 * @example quotedBytes('say "hi"').toString() // '"say \\"hi\\""'
 */
export function quotedBytes(text: string): Buffer {
  let bytes = quoted.get(text);
  if (bytes === undefined) {
    if (quoted.size >= TEXTS_MAX) quoted.clear();
    bytes = Buffer.from(jsonString(text), 'utf8');
    quoted.set(text, bytes);
  }
  return bytes;
}

/**
 * `text` as UTF-8 bytes, remembered: for ids that are written as they are (hex sids).
 * @example plainBytes('PN1af5…').length // 34
 */
export function plainBytes(text: string): Buffer {
  let bytes = plain.get(text);
  if (bytes === undefined) {
    if (plain.size >= TEXTS_MAX) plain.clear();
    bytes = Buffer.from(text, 'utf8');
    plain.set(text, bytes);
  }
  return bytes;
}

/** Decimal digits of a number, as bytes: what `${n}` writes. */
const DIGIT0 = 0x30;

/**
 * Writes `${n}` at `at` (room already made), returning the end: digits by arithmetic for a
 * whole number below 2^31, the text otherwise.
 * @example writeNumber(buf, 0, 57) // 2, buf holds '57'
 */
export function writeNumber(out: Buffer, at: number, n: number): number {
  if (!(n >= 0 && n < 0x80000000 && Number.isInteger(n))) return at + out.write(`${n}`, at, 'latin1');
  let digits = 1;
  for (let p = 10; p <= n; p *= 10) digits++;
  let rest = n;
  for (let k = at + digits - 1; k >= at; k--) {
    out[k] = DIGIT0 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}
