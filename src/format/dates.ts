const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * Production's `SimpleDateFormat("EEE, d MMM yyyy HH:mm:ss Z", Locale.US)`: the day of the month
 * is not zero-padded, the time is. Computed with UTC getters only, so the host's TZ never leaks in.
 * @example rfc2822Date(1373062553) // 'Fri, 5 Jul 2013 22:15:53 +0000'
 * @example rfc2822Date(1389001867 - 9 * 3600, 540) // 'Mon, 6 Jan 2014 08:51:07 +0900'
 */
export function rfc2822Date(epochSec: number, offsetMin = 0): string {
  const d = new Date((epochSec + offsetMin * 60) * 1000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return (
    `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} ` +
    `${sign}${pad2(Math.floor(abs / 60))}${pad2(abs % 60)}`
  );
}

/**
 * ISO 8601 in UTC with milliseconds, as production's Joda `DateTime.toString()` in a UTC JVM.
 * @example isoMillis(1373062553000) // '2013-07-05T22:15:53.000Z'
 */
export function isoMillis(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/**
 * Java's `Double.toString` for the values a recording duration takes (1e-3 <= x < 1e7): the
 * shortest decimal that reads back the same, always with a fractional part.
 * @example javaDouble(7) // '7.0'
 * @example javaDouble(14.70275) // '14.70275'
 */
export function javaDouble(x: number): string {
  const s = String(x);
  return Number.isInteger(x) ? `${s}.0` : s;
}
