const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
/** '00'…'99': two-digit fields without a function call per field. */
const PAD2 = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));

interface Civil {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
  /** 0 = Sunday */
  weekday: number;
}

/**
 * Calendar fields of a day (days since the epoch), by integer arithmetic (Hinnant's
 * days-from-civil inverse): no Date object and no host time zone.
 */
function civil(days: number): Civil {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yoe + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day,
    // 1970-01-01 was a Thursday.
    weekday: (((days + 4) % 7) + 7) % 7,
  };
}

/**
 * The part of a written date that changes once a day, for the last day asked: a page's dates lie
 * within hours of each other, so the calendar arithmetic runs about once a page, not twice an
 * item (a cold page of 50 calls writes 200 dates).
 */
class DayMemo {
  private day = Number.NaN;
  private text = '';

  constructor(private readonly write: (c: Civil) => string) {}

  /** The text of day `day` (days since the epoch). */
  of(day: number): string {
    if (day !== this.day) {
      this.text = this.write(civil(day));
      this.day = day;
    }
    return this.text;
  }
}

/** `hh:mm:ss` of a second of the day. */
const clock = (secOfDay: number): string =>
  `${PAD2[Math.floor(secOfDay / 3600)]}:${PAD2[Math.floor((secOfDay % 3600) / 60)]}:${PAD2[secOfDay % 60]}`;

/** 'Fri, 5 Jul 2013 ': what comes before the time. */
const rfcDays = new DayMemo((c) => `${DAYS[c.weekday]}, ${c.day} ${MONTHS[c.month - 1]} ${c.year} `);
const rfcZones = new Map<number, string>();

/** ' +0900' for an offset in minutes. */
function zoneOf(offsetMin: number): string {
  let zone = rfcZones.get(offsetMin);
  if (zone === undefined) {
    const abs = Math.abs(offsetMin);
    zone = ` ${offsetMin < 0 ? '-' : '+'}${PAD2[Math.floor(abs / 60)]}${PAD2[abs % 60]}`;
    rfcZones.set(offsetMin, zone);
  }
  return zone;
}

/**
 * Production's `SimpleDateFormat("EEE, d MMM yyyy HH:mm:ss Z", Locale.US)`: the day of the month
 * is not zero-padded, the time is. The host's TZ never leaks in.
 * @example rfc2822Date(1373062553) // 'Fri, 5 Jul 2013 22:15:53 +0000'
 * @example rfc2822Date(1389001867 - 9 * 3600, 540) // 'Mon, 6 Jan 2014 08:51:07 +0900'
 */
export function rfc2822Date(epochSec: number, offsetMin = 0): string {
  const local = epochSec + offsetMin * 60;
  const day = Math.floor(local / 86400);
  return rfcDays.of(day) + clock(local - day * 86400) + zoneOf(offsetMin);
}

/** '2013-07-05T' */
const isoDays = new DayMemo((c) => `${c.year}-${PAD2[c.month]}-${PAD2[c.day]}T`);

/** A day's text as bytes, for the last day asked (see `DayMemo`). */
class DayBytes {
  private day = Number.NaN;
  private bytes = Buffer.alloc(0);

  constructor(private readonly memo: DayMemo) {}

  of(day: number): Buffer {
    if (day !== this.day) {
      this.bytes = Buffer.from(this.memo.of(day), 'latin1');
      this.day = day;
    }
    return this.bytes;
  }
}

/** The two ASCII digits of 0…99 at [2n, 2n + 1]. */
const DIGITS2 = Buffer.from(PAD2.join(''), 'latin1');
const COLON = 0x3a;
const rfcDayBytes = new DayBytes(rfcDays);
const isoDayBytes = new DayBytes(isoDays);
const UTC_ZONE = Buffer.from(' +0000', 'latin1');

/** Writes `hh:mm:ss` of a second of the day at `at`; returns the end. */
function writeClock(out: Buffer, at: number, secOfDay: number): number {
  const h = Math.floor(secOfDay / 3600) * 2;
  const m = Math.floor((secOfDay % 3600) / 60) * 2;
  const s = (secOfDay % 60) * 2;
  out[at] = DIGITS2[h] as number;
  out[at + 1] = DIGITS2[h + 1] as number;
  out[at + 2] = COLON;
  out[at + 3] = DIGITS2[m] as number;
  out[at + 4] = DIGITS2[m + 1] as number;
  out[at + 5] = COLON;
  out[at + 6] = DIGITS2[s] as number;
  out[at + 7] = DIGITS2[s + 1] as number;
  return at + 8;
}

/**
 * `rfc2822Date(epochSec)` (UTC) written as bytes at `at`, returning the end: what a page built
 * as bytes writes (format/call-bytes.ts), with no string made. A second that is not a whole
 * number is written from the text.
 * @example writeRfc2822(buf, 0, 1373062553) // 31, buf holds 'Fri, 5 Jul 2013 22:15:53 +0000'
 */
export function writeRfc2822(out: Buffer, at: number, epochSec: number): number {
  if (!Number.isSafeInteger(epochSec)) return at + out.write(rfc2822Date(epochSec), at, 'latin1');
  const day = Math.floor(epochSec / 86400);
  const prefix = rfcDayBytes.of(day);
  out.set(prefix, at);
  const end = writeClock(out, at + prefix.length, epochSec - day * 86400);
  out.set(UTC_ZONE, end);
  return end + UTC_ZONE.length;
}

/**
 * `isoMillis(epochMs)` written as bytes at `at`, returning the end (see `writeRfc2822`).
 * @example writeIsoMillis(buf, 0, 1373062553000) // 24, buf holds '2013-07-05T22:15:53.000Z'
 */
export function writeIsoMillis(out: Buffer, at: number, epochMs: number): number {
  if (!Number.isSafeInteger(epochMs)) return at + out.write(isoMillis(epochMs), at, 'latin1');
  const sec = Math.floor(epochMs / 1000);
  const ms = epochMs - sec * 1000;
  const day = Math.floor(sec / 86400);
  const prefix = isoDayBytes.of(day);
  out.set(prefix, at);
  const end = writeClock(out, at + prefix.length, sec - day * 86400);
  out[end] = 0x2e;
  out[end + 1] = 0x30 + Math.floor(ms / 100);
  out[end + 2] = 0x30 + (Math.floor(ms / 10) % 10);
  out[end + 3] = 0x30 + (ms % 10);
  out[end + 4] = 0x5a;
  return end + 5;
}

/**
 * ISO 8601 in UTC with milliseconds, as production's Joda `DateTime.toString()` in a UTC JVM.
 * @example isoMillis(1373062553000) // '2013-07-05T22:15:53.000Z'
 */
export function isoMillis(epochMs: number): string {
  const sec = Math.floor(epochMs / 1000);
  const ms = epochMs - sec * 1000;
  const day = Math.floor(sec / 86400);
  return `${isoDays.of(day)}${clock(sec - day * 86400)}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
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

const RFC2822 =
  /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), ([1-9]|[12][0-9]|3[01]) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) ([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]) ([+-])([01][0-9]|2[0-3])([0-5][0-9])$/;

/**
 * Reads a date in the `date_created` format back: the instant and the offset it was written in.
 * Undefined unless the text is exactly what `rfc2822Date` writes (weekday included).
 * @example parseRfc2822('Mon, 6 Jan 2014 08:51:07 +0900') // { sec: 1388965867, offsetMin: 540 }
 */
export function parseRfc2822(text: string): { sec: number; offsetMin: number } | undefined {
  const m = RFC2822.exec(text);
  if (m === null) return undefined;
  const offsetMin = (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  const local =
    Date.UTC(
      Number(m[4]),
      MONTHS.indexOf(m[3] as (typeof MONTHS)[number]),
      Number(m[2]),
      Number(m[5]),
      Number(m[6]),
      Number(m[7]),
    ) / 1000;
  const sec = local - offsetMin * 60;
  return rfc2822Date(sec, offsetMin) === text ? { sec, offsetMin } : undefined;
}

/**
 * Reads a `start_time`/`end_time` value back, in milliseconds; undefined unless it is exactly
 * what `isoMillis` writes.
 * @example parseIsoMillis('2013-07-05T22:15:53.000Z') // 1373062553000
 */
export function parseIsoMillis(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) || isoMillis(ms) !== text ? undefined : ms;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:Z|([+-])(\d{2}):?(\d{2})))?$/;

/**
 * An ISO 8601 instant with an explicit zone (`Z` or `±hh:mm`), or a bare date taken as UTC
 * midnight, in ms since the epoch; undefined otherwise. A date-time without a zone is refused:
 * it would depend on the host's TZ.
 * @example parseInstant('2025-06-01T12:00:00Z') // 1748779200000
 * @example parseInstant('2025-06-01T12:00:00') // undefined
 */
export function parseInstant(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (m === null) return undefined;
  const n = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  const [y, mo, d, h, mi, s, oh, om] = [n(1), n(2), n(3), n(4), n(5), n(6), n(9), n(10)];
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) {
    return undefined;
  }
  const offsetMs = (m[8] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMs;
}
