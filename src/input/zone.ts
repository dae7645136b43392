/**
 * The server's time zone, as production's JVM has one: its StartTime and EndTime filters name
 * days in it. An IANA name (`Europe/Madrid`, with its daylight saving rules from Node's ICU data),
 * `UTC`, or a fixed offset (`+09:00`, `-0530`). Named, never read from the host, so the answer is
 * the same on every machine.
 */

const FIXED = /^([+-])(\d{2}):?(\d{2})$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter, or undefined when the name is not a zone. */
function formatterOf(zone: string): Intl.DateTimeFormat | undefined {
  let f = formatters.get(zone);
  if (f !== undefined) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      ...{ year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' },
    });
  } catch {
    return undefined;
  }
  formatters.set(zone, f);
  return f;
}

/**
 * Whether `zone` names a time zone this module reads.
 * @example isZone('Europe/Madrid') // true
 * @example isZone('+09:00') // true
 * @example isZone('Mars/Olympus') // false
 */
export function isZone(zone: string): boolean {
  const fixed = FIXED.exec(zone);
  if (fixed !== null) return Number(fixed[2]) <= 18 && Number(fixed[3]) < 60;
  return formatterOf(zone) !== undefined;
}

/** The zone's offset from UTC at instant `ms`, in ms (east positive). @example offsetAt('+09:00', 0) // 32400000 */
export function offsetAt(zone: string, ms: number): number {
  const fixed = FIXED.exec(zone);
  if (fixed !== null) return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3])) * 60_000;
  const parts = (formatterOf(zone) as Intl.DateTimeFormat).formatToParts(ms);
  const at = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = new Date(0);
  wall.setUTCFullYear(at('year'), at('month') - 1, at('day'));
  wall.setUTCHours(at('hour'), at('minute'), at('second'));
  return wall.getTime() - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * The instant the day starts in `zone`: its first millisecond, as a JVM's lenient date parser
 * in that zone gives it. `utcMidnight` is the day's midnight as if in UTC. Where midnight is
 * skipped (a daylight saving jump at 00:00), the first instant after the gap.
 * @example zonedMidnight('Europe/Madrid', Date.UTC(2025, 6, 1)) // Date.UTC(2025, 5, 30, 22)
 */
export function zonedMidnight(zone: string, utcMidnight: number): number {
  if (zone === 'UTC' || !Number.isFinite(utcMidnight)) return utcMidnight;
  // Two passes find the offset in force at the local midnight itself, not at the UTC one.
  const first = utcMidnight - offsetAt(zone, utcMidnight);
  const second = utcMidnight - offsetAt(zone, first);
  return offsetAt(zone, second) === offsetAt(zone, first) ? second : Math.max(first, second);
}
