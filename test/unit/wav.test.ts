import { parseRange, WAV_HEADER_BYTES, wavBytes, wavHeader } from '../../src/format/wav';

describe('wavHeader: RIFF PCM, 8 kHz mono 16-bit', () => {
  const h = wavHeader(8000);

  test('every field of the 44 bytes', () => {
    expect(h.length).toBe(WAV_HEADER_BYTES);
    expect(h.toString('ascii', 0, 4)).toBe('RIFF');
    expect(h.readUInt32LE(4)).toBe(36 + 16000);
    expect(h.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect([h.readUInt32LE(16), h.readUInt16LE(20), h.readUInt16LE(22)]).toEqual([16, 1, 1]);
    expect([h.readUInt32LE(24), h.readUInt32LE(28), h.readUInt16LE(32), h.readUInt16LE(34)]).toEqual([
      8000, 16000, 2, 16,
    ]);
    expect(h.toString('ascii', 36, 40)).toBe('data');
    expect(h.readUInt32LE(40)).toBe(16000);
  });

  test('an empty recording is a valid header alone', () => {
    expect(wavHeader(0).readUInt32LE(4)).toBe(36);
  });
});

describe('wavBytes: any byte range, made on demand', () => {
  const samples = [0, 1, -1, 32767, -32768, 40000, -40000, 258];
  const sample = (n: number) => samples[n] ?? 0;
  const header = wavHeader(samples.length);
  const whole = wavBytes(header, sample, 0, WAV_HEADER_BYTES + samples.length * 2 - 1);

  test('the header, then little-endian samples, clamped to 16 bits', () => {
    expect(whole.subarray(0, WAV_HEADER_BYTES)).toEqual(header);
    const pcm = whole.subarray(WAV_HEADER_BYTES);
    expect(Array.from({ length: samples.length }, (_, i) => pcm.readInt16LE(i * 2))).toEqual([
      0, 1, -1, 32767, -32768, 32767, -32768, 258,
    ]);
  });

  test.each([
    [0, 3],
    [40, 47],
    [43, 44],
    [45, 45],
    [45, 50],
    [46, 59],
  ])('bytes %i-%i equal that slice of the whole file, also written into a buffer', (start, end) => {
    expect(wavBytes(header, sample, start, end)).toEqual(whole.subarray(start, end + 1));
    const into = Buffer.alloc(64);
    expect(wavBytes(header, sample, start, end, into)).toEqual(whole.subarray(start, end + 1));
  });
});

describe('parseRange', () => {
  test.each([
    [undefined, null],
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=900-', { start: 900, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=10-5000', { start: 10, end: 999 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=5-4', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
    ['bytes=-', null],
  ])('%s on 1000 bytes → %j', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});
