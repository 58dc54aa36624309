/**
 * The `datetime` text of Sentry's event messages (`%Y-%m-%dT%H:%M:%S%.fZ`, e.g.
 * `2023-02-27T15:40:12.223000Z`) as milliseconds since the epoch, or null when it does not match
 * or names no real date. The fraction may have any number of digits; past the millisecond they
 * are cut, as chrono's `timestamp_millis` does.
 */
const PAYLOAD_DATETIME = /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d+))?Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function parsePayloadDatetime(text: string): number | null {
  const match = PAYLOAD_DATETIME.exec(text);
  if (match === null) return null;
  const [, y = "", mo = "", d = "", h = "", mi = "", s = "", fraction = ""] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  // 60 is a leap second: chrono counts it as the first second of the next minute.
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 60) return null;
  const millis = Number(fraction.slice(0, 3).padEnd(3, "0"));
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, millis);
  return at.getTime();
}
