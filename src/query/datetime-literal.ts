/**
 * `toDateTime('<ISO 8601>')` literals. A UTC offset in the text is honoured (Snuba drops it,
 * which silently shifts the window; see README compatibility notes); text without an offset is
 * UTC. Sub-second parts are truncated, as ClickHouse DateTime has whole seconds.
 */
import { invalidQuery, type TextPosition } from "../errors/query-service-error.js";

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Time ranges repeat from query to query (dashboards ask for the same windows): remembering a
 * few thousand resolved literals spares the regex and Date checks. Only valid texts are kept,
 * so an invalid one still throws with its position every time.
 */
const MAX_REMEMBERED_DATETIMES = 4096;
/** Valid texts can still be long (spaces, fractional digits): those are not kept, see resultAlias. */
const MAX_REMEMBERED_DATETIME_CHARS = 64;
const rememberedDateTimes = new Map<string, number>();

export function parseDateTimeLiteral(text: string, position?: TextPosition): number {
  let epochSeconds = rememberedDateTimes.get(text);
  if (epochSeconds === undefined) {
    epochSeconds = resolveDateTimeLiteral(text, position);
    if (text.length <= MAX_REMEMBERED_DATETIME_CHARS) {
      if (rememberedDateTimes.size >= MAX_REMEMBERED_DATETIMES) rememberedDateTimes.clear();
      rememberedDateTimes.set(text, epochSeconds);
    }
  }
  return epochSeconds;
}

function resolveDateTimeLiteral(text: string, position: TextPosition | undefined): number {
  const match = ISO_DATETIME.exec(text.trim());
  if (!match) {
    throw invalidQuery(`'${text}' is not a valid datetime: expected ISO 8601 such as 2024-05-16T00:00:00`, position);
  }
  const [, y, mo, d, h = "0", mi = "0", s = "0", zone] = match;
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  if (
    month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 ||
    check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day
  ) {
    throw invalidQuery(`'${text}' is not a valid datetime: a field is out of range`, position);
  }
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  return Math.floor(utc / 1000) - offsetMinutes * 60;
}

const pad = (value: number) => (value < 10 ? `0${value}` : String(value));

/** `YYYY-MM-DDTHH:MM:SS` in UTC (what `toISOString` gives, without its allocation-heavy tail). */
export function formatDateTime(epochSeconds: number): string {
  const date = new Date(epochSeconds * 1000);
  const year = date.getUTCFullYear();
  if (year < 1000 || year > 9999) return date.toISOString().slice(0, 19);
  return `${year}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}
