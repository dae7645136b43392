// @ts-check
import { INSPECTOR } from './api.js';

/** Bytes of a WAVE header as the emulator writes it (PCM, 8 kHz, mono, 16-bit). */
const HEADER = 44;
/** A file this small is read whole; past it, RANGES pieces spread across it (an hour of audio is 57 MB). */
const WHOLE_BYTES = 1024 * 1024;
const RANGES = 48;
const RANGE_BYTES = 16 * 1024;

/**
 * Peaks of `samples` cut into `n` equal runs, 0..1.
 * @param {Int16Array} samples
 * @param {number} n
 */
function peaksOf(samples, n) {
  const out = new Array(n).fill(0);
  const per = samples.length / n;
  for (let i = 0; i < samples.length; i++) {
    const k = Math.min(n - 1, Math.floor(i / per));
    out[k] = Math.max(out[k], Math.abs(samples[i] ?? 0) / 32768);
  }
  return out;
}

/**
 * Draws a recording's waveform, one peak a column: a short file from one request, a long one
 * from byte ranges spread across it, so that the page never downloads an hour of audio to draw.
 * @param {HTMLCanvasElement} canvas
 * @param {string} wav the `.wav` path
 */
export async function drawWaveform(canvas, wav) {
  const head = await fetch(wav, { headers: { Range: `bytes=0-${HEADER - 1}`, ...INSPECTOR } });
  // Content-Range: bytes 0-43/TOTAL: the file's size, without reading it.
  const total = Number((head.headers.get('Content-Range') ?? '').split('/')[1]);
  if (!(total > HEADER)) throw new Error(`unexpected answer ${head.status}`);
  const columns = canvas.width;
  /** @type {number[]} */
  let peaks;
  if (total <= WHOLE_BYTES) {
    const bytes = await (await fetch(wav, { headers: { Range: `bytes=${HEADER}-`, ...INSPECTOR } })).arrayBuffer();
    peaks = peaksOf(new Int16Array(bytes, 0, Math.floor(bytes.byteLength / 2)), columns);
  } else {
    const per = Math.ceil(columns / RANGES);
    const stride = Math.floor((total - HEADER) / RANGES) & ~1;
    const parts = await Promise.all(
      Array.from({ length: RANGES }, async (_, k) => {
        const from = HEADER + k * stride;
        const res = await fetch(wav, { headers: { Range: `bytes=${from}-${from + RANGE_BYTES - 1}`, ...INSPECTOR } });
        const bytes = await res.arrayBuffer();
        return peaksOf(new Int16Array(bytes, 0, Math.floor(bytes.byteLength / 2)), per);
      }),
    );
    peaks = parts.flat().slice(0, columns);
  }
  const g = canvas.getContext('2d');
  if (g === null) return;
  const mid = canvas.height / 2;
  const width = columns / peaks.length;
  // Scaled to the loudest peak, as audio editors draw a preview: quiet audio still shows its shape.
  const loudest = Math.max(...peaks, 1e-6);
  g.clearRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = getComputedStyle(canvas).color || '#246';
  peaks.forEach((p, x) => {
    const half = Math.max(1, (p / loudest) * (mid - 2));
    g.fillRect(x * width, mid - half, Math.max(1, width), 2 * half);
  });
  canvas.dataset['drawn'] = String(peaks.length);
}
