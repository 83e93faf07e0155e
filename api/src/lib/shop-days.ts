/**
 * The shop's calendar days in its time zone (SHOP_TIME_ZONE), from Intl: which instants a day
 * spans, so that a list of times is grouped into days by comparing numbers rather than by
 * formatting each time (Intl's formatting costs microseconds a call; a window has at most a few
 * hundred days, a shop tens of thousands of orders). Hand-written because it is a dozen lines over
 * Intl, which is what the zone data lives in.
 */

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock time at `ms` in the zone, as if it were UTC (ms, to the second). */
function wallClock(ms: number, timeZone: string): number {
  const f: Record<string, number> = {};
  for (const part of formatOf(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') f[part.type] = Number(part.value);
  }
  return Date.UTC(f.year ?? 1970, (f.month ?? 1) - 1, f.day ?? 1, f.hour ?? 0, f.minute ?? 0, f.second ?? 0);
}

/** The zone's offset from UTC at `ms`. */
const offsetAt = (ms: number, timeZone: string) => wallClock(ms, timeZone) - Math.floor(ms / 1000) * 1000;

const DAY_MS = 86_400_000;
/** `YYYY-MM-DD` of a UTC midnight standing for a calendar date. */
const dateOf = (utcMidnight: number) => new Date(utcMidnight).toISOString().slice(0, 10);

/** Days already worked out, by zone and date: a window's hundreds of Intl calls, made once a day. */
const starts = new Map<string, number>();

/**
 * The first instant of a calendar date (given as its UTC midnight) in the zone: its local
 * midnight, or where a clock change skips midnight, the first local time that date has.
 */
function startOf(utcMidnight: number, timeZone: string): number {
  const key = `${timeZone}|${utcMidnight}`;
  let at = starts.get(key);
  if (at === undefined) {
    if (starts.size >= 4096) starts.clear();
    at = firstInstant(utcMidnight, timeZone);
    starts.set(key, at);
  }
  return at;
}

function firstInstant(utcMidnight: number, timeZone: string): number {
  let at = utcMidnight - offsetAt(utcMidnight, timeZone);
  // The offset there may differ from the one at the guess (a change near midnight): once more.
  at = utcMidnight - offsetAt(at, timeZone);
  // Midnight skipped (the clock jumped past it): step on to the date's first existing time.
  while (wallClock(at, timeZone) < utcMidnight) at += 15 * 60_000;
  // Midnight repeated or the guess landed a day late: step back while still on the date.
  while (wallClock(at - 15 * 60_000, timeZone) >= utcMidnight) at -= 15 * 60_000;
  return at;
}

export interface ShopDays {
  /** The window's dates, oldest first, `YYYY-MM-DD`. */
  dates: string[];
  /** `bounds[i]` is when `dates[i]` begins; the last entry is when the window ends (ms). */
  bounds: number[];
}

/** The last `days` calendar days in the zone, today (at `now`) included. */
export function shopDays(now: number, days: number, timeZone: string): ShopDays {
  const today = Math.floor(wallClock(now, timeZone) / DAY_MS) * DAY_MS;
  const dates: string[] = [];
  const bounds: number[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = today - i * DAY_MS;
    dates.push(dateOf(day));
    bounds.push(startOf(day, timeZone));
  }
  bounds.push(startOf(today + DAY_MS, timeZone));
  return { dates, bounds };
}

/** Which day of the window `ms` falls on, or -1 outside it. */
export function dayIndex(days: ShopDays, ms: number): number {
  const { bounds } = days;
  if (ms < (bounds[0] as number) || ms >= (bounds[bounds.length - 1] as number)) return -1;
  let lo = 0;
  let hi = bounds.length - 1;
  // The last bound not after `ms`.
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((bounds[mid] as number) <= ms) lo = mid;
    else hi = mid;
  }
  return lo;
}
