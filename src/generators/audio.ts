import { hash64, mix32 } from '../random/stream';

export const SAMPLE_RATE = 8000;

/**
 * The sound of a recording, as a function of the sample index: a soft tone whose pitch comes from
 * the recording's sid, under comfort noise from a hash of (sid, index). Any sample is computed on
 * its own, so a byte range is made without making what comes before it, and two fetches give
 * the same bytes.
 * @example recordingAudio('RE…').sample(0) // -112
 */
export function recordingAudio(recordingSid: string): {
  samples: (durationSec: number) => number;
  sample: (n: number) => number;
} {
  const [h1, h2] = hash64(recordingSid);
  const freq = 300 + (h1 % 500);
  const step = (2 * Math.PI * freq) / SAMPLE_RATE;
  return {
    // The duration is a decimal with up to five digits: rounded to the nearest sample.
    samples: (durationSec) => Math.round(durationSec * SAMPLE_RATE),
    sample: (n) => {
      const noise = (mix32(h2 ^ Math.imul(n, 0x9e3779b1)) / 4294967296 - 0.5) * 600;
      return Math.round(2400 * Math.sin(step * n) + noise);
    },
  };
}
