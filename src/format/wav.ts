/** A RIFF/WAVE PCM file's fixed header size. */
export const WAV_HEADER_BYTES = 44;

/**
 * The 44-byte header of a PCM WAVE file: 8 kHz, mono, 16-bit, `samples` long.
 * @example wavHeader(8000).length // 44
 */
export function wavHeader(samples: number, sampleRate = 8000): Buffer {
  const dataBytes = samples * 2;
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28); // bytes a second
  h.writeUInt16LE(2, 32); // bytes a frame
  h.writeUInt16LE(16, 34); // bits a sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/**
 * Bytes `start`..`end` (inclusive) of the file, made on demand: header bytes from `header`,
 * sample bytes from `sample(n)` (little-endian 16-bit, clamped); written `into` a buffer when given.
 * @example wavBytes(header, (n) => 0, 40, 47) // Buffer of 8 bytes: the data size, then silence
 */
export function wavBytes(
  header: Buffer,
  sample: (n: number) => number,
  start: number,
  end: number,
  into?: Buffer,
): Buffer {
  const out = into === undefined ? Buffer.alloc(end - start + 1) : into.subarray(0, end - start + 1);
  let o = 0;
  for (let b = start; b <= end && b < WAV_HEADER_BYTES; b++) out[o++] = header[b] as number;
  let b = Math.max(start, WAV_HEADER_BYTES);
  while (b <= end) {
    const n = (b - WAV_HEADER_BYTES) >> 1;
    const v = Math.max(-32768, Math.min(32767, sample(n))) & 0xffff;
    // The low byte first; a range may start or end in the middle of a sample.
    if (((b - WAV_HEADER_BYTES) & 1) === 0) {
      out[o++] = v & 0xff;
      if (b + 1 <= end) out[o++] = v >> 8;
      b += 2;
    } else {
      out[o++] = v >> 8;
      b += 1;
    }
  }
  return out;
}

/**
 * One `Range: bytes=…` header against a file of `size` bytes: the inclusive byte span, `null`
 * when the header is absent or not a single byte range (the whole file is sent then), or
 * `'unsatisfiable'`.
 * @example parseRange('bytes=0-99', 1000) // { start: 0, end: 99 }
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (header === undefined) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (m === null || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
