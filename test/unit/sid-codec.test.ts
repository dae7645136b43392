import fc from 'fast-check';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { generateCall, seededCallIndex } from '../../src/generators/call';
import { generateRecording, seededRecordingIndex } from '../../src/generators/recording';
import { SidCodec } from '../../src/random/sid-codec';

describe('SidCodec', () => {
  const codec = new SidCodec(['s', 'AC1', 'call-sid']);

  test('decode(encode(i)) is i, for any index an account can hold', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 26 - 1 }), (i) => {
        const hex = codec.encode(i);
        expect(hex).toMatch(/^[0-9a-f]{32}$/);
        expect(codec.decode(hex)).toBe(i);
      }),
      { seed: 3, numRuns: 2000 },
    );
  });

  test('neighbouring indexes look unrelated', () => {
    const a = codec.encode(1000);
    const b = codec.encode(1001);
    let same = 0;
    for (let k = 0; k < 32; k++) if (a[k] === b[k]) same++;
    expect(same).toBeLessThan(10);
  });

  test("made-up hex, and another key's sids, fail the check", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{32}$/), (hex) => {
        expect(codec.decode(hex)).toBeUndefined();
      }),
      { seed: 4, numRuns: 2000 },
    );
    const other = new SidCodec(['s', 'AC2', 'call-sid']);
    expect(other.decode(codec.encode(5))).toBeUndefined();
    expect(codec.decode('not hex')).toBeUndefined();
  });
});

describe('finding seeded records by sid', () => {
  const world = makeWorldContext('s', Date.UTC(2025, 5, 1));
  const account = makeAccountProfile('s', { friendlyName: 'A', calls: 5000, recordings: 3000 }, 0);

  test('calls and recordings', () => {
    for (const i of [0, 1, 4999])
      expect(seededCallIndex(world, account, generateCall(world, account, i).sid, 5000)).toBe(i);
    for (const j of [0, 2999])
      expect(seededRecordingIndex(account, generateRecording(world, account, j).sid, 3000)).toBe(j);
  });

  test('beyond the count, or with another instance id, there is no such record', () => {
    const sid = generateCall(world, account, 4999).sid;
    expect(seededCallIndex(world, account, sid, 4999)).toBeUndefined();
    const forged = sid.replace(/^ID[0-9a-f]{32}/, `ID${'0'.repeat(32)}`);
    expect(seededCallIndex(world, account, forged, 5000)).toBeUndefined();
    expect(seededRecordingIndex(account, generateRecording(world, account, 10).sid, 10)).toBeUndefined();
  });
});
