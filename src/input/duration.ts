/**
 * ISO 8601 durations of fixed length: weeks, days, hours, minutes and seconds (`PT5M`, `P1DT2H`,
 * `PT0.5S`, `P2W`). Years and months have no fixed length, so they are refused rather than
 * guessed. Milliseconds, or null when the text is not such a duration.
 * @example durationMs('PT1H30M') // 5400000
 * @example durationMs('P1M') // null
 */
export function durationMs(text: string): number | null {
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,3})?)S)?)?$/.exec(text);
  // `P` and `PT` alone name nothing; a `T` must be followed by a part.
  if (m === null || text === 'P' || text.endsWith('T')) return null;
  const [, w, d, h, min, s] = m;
  const ms =
    ((Number(w ?? 0) * 7 + Number(d ?? 0)) * 86_400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60) * 1000 +
    Math.round(Number(s ?? 0) * 1000);
  return Number.isSafeInteger(ms) ? ms : null;
}
