/**
 * The date and time functions that take a time zone after their usual arguments
 * (`toStartOfHour(t, 'UTC')`, `toStartOfWeek(t, 0, 'Europe/Paris')`). The probe, whose sample
 * text is no time zone, could not tell what those counts take, so the typing pass judges such a
 * call as the call without its zone, and the zone itself here: ClickHouse takes only a constant
 * string there (a column, code 44; a number or a DateTime, code 43).
 */
import { atPosition as at, invalidQuery } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { DATES, MIXED_VARIANT, VARIANT_FAMILIES, type Typed } from "./typed-values.js";
import { describe, nameOf, typeName } from "./messages.js";

/** `now('UTC')`: the time now in that zone. */
const NONE_BEFORE = ["now"];
const ONE_BEFORE = [
  "toString", "toDateTime", "parseDateTimeBestEffort", "parseDateTimeBestEffortOrNull",
  "toYear", "toQuarter", "toMonth", "toDayOfMonth", "toDayOfYear", "toISOWeek", "toHour", "toMinute", "toSecond", "toYYYYMM", "toYYYYMMDD",
  "toMonday", "toStartOfYear", "toStartOfQuarter", "toStartOfMonth", "toStartOfDay", "toStartOfHour", "toStartOfMinute",
  "toStartOfFiveMinutes", "toStartOfTenMinutes", "toStartOfFifteenMinutes",
];
const TWO_BEFORE = ["formatDateTime", "toStartOfWeek", "toDayOfWeek", "toDateTime64", "addDays", "addHours", "addMinutes", "addSeconds", "subtractDays", "subtractHours", "subtractMinutes", "subtractSeconds"];

/** Per function, how many arguments come before its time zone (an engine test holds each). */
export const TIME_ZONE_AFTER: ReadonlyMap<string, number> = new Map([...NONE_BEFORE.map((name) => [name, 0] as const), ...ONE_BEFORE.map((name) => [name, 1] as const), ...TWO_BEFORE.map((name) => [name, 2] as const)]);

/** `toString(t, zone)` and `formatDateTime(t, format, zone)` read a zone per row (a column there is taken). */
const ZONE_PER_ROW: ReadonlySet<string> = new Set(["toString", "formatDateTime"]);

/** `toDateTime(x, 3)` and `parseDateTimeBestEffort(s, 3)` read a whole number there as a DateTime64's scale (TRUE as 1). */
const SCALE_OR_TIME_ZONE: ReadonlySet<string> = new Set(["toDateTime", "parseDateTimeBestEffort", "parseDateTimeBestEffortOrNull"]);

/**
 * How the engine reads the argument where `name` takes a time zone, given its type: "zone" (a
 * constant string, Nullable or not: the call is the call without it, made Nullable where the
 * zone is), "other" (a NULL, a scale, a value of no known type: the pass does not type the call).
 * Throws where the engine refuses it: read per row, or a constant of another type.
 */
export function timeZoneReading(name: string, zone: Expression, t: Typed, isNull: boolean): "zone" | "other" {
  // `now(NULL)`, `now(toNullable('UTC'))`: now takes no Nullable zone (code 43); the others answer a NULL.
  if (name === "now" && (isNull || t.nullable || t.holdsNoValue)) {
    throw invalidQuery(`${describe(zone)}${at(zone.position)} may be NULL, and now takes a time zone there only as a constant string that is not, such as 'UTC'`, zone.position);
  }
  // A value no row holds (`if(1, NULL, s)`) is NULL in every row, which the engine answers NULL for.
  if (isNull || t.holdsNoValue) return "other";
  if (ZONE_PER_ROW.has(name) && t.cls === "string" && t.variant < 0) return "zone";
  if (t.constant === false) {
    throw invalidQuery(`${describe(zone)}${at(zone.position)} is read per row, and ${nameOf(name)} takes a time zone there only as a constant string, such as 'UTC' (ClickHouse reads it once, not per row)`, zone.position);
  }
  if (t.cls === "string" && t.variant < 0) return t.constant === true ? "zone" : "other";
  const scale = SCALE_OR_TIME_ZONE.has(name) && (t.cls === "uint8" || t.cls === "uint32" || t.cls === "bool" || t.cls === "int64");
  // A value of another class, constant or not known to be (`now()`), is refused as a constant is.
  if (scale || t.cls === null) return "other";
  throw invalidQuery(
    `${describe(zone)}${at(zone.position)} is ${typeName(t)}, and ${nameOf(name)} takes a time zone there, a constant string such as 'UTC'${SCALE_OR_TIME_ZONE.has(name) ? " (or a whole number, a DateTime64's scale)" : ""}`,
    zone.position,
  );
}

/**
 * The functions that, given a time zone, take only a DateTime or a DateTime64 first: a Date
 * (`toStartOfMonth(toDate(t), 'UTC')`, `addDays(toDate(t), 1, 'UTC')`) or, for the additions, a
 * text they would otherwise read as a DateTime (`addHours('2024-01-01 00:00:00', 1, 'UTC')`) is
 * refused (code 43), where the call without the zone takes it.
 */
const DATE_TIME_FIRST_WITH_ZONE: ReadonlySet<string> = new Set(["toMonday", "toStartOfYear", "toStartOfQuarter", "toStartOfMonth", "toStartOfWeek", ...TWO_BEFORE.filter((name) => /^(add|subtract)/.test(name))]);

/** Refuses a first argument that `name` takes without a time zone but not with one (DATE_TIME_FIRST_WITH_ZONE). */
export function refuseFirstBesideZone(name: string, first: Expression, t: Typed, zone: Expression): void {
  // `toString(x, zone)` writes a DateTime or a DateTime64 in that zone, and takes nothing else with one (code 42).
  const refused =
    name === "toString"
      ? t.alternatives === undefined && (t.cls !== null ? t.cls !== "datetime" : t.variant >= 0 && t.variant !== MIXED_VARIANT && (DATES.has(t.variant) || VARIANT_FAMILIES[t.variant] !== "datetime"))
      : DATE_TIME_FIRST_WITH_ZONE.has(name) && ((t.cls === null && DATES.has(t.variant)) || (t.cls === "string" && t.variant < 0 && /^(add|subtract)/.test(name)));
  if (!refused) return;
  throw invalidQuery(
    `${describe(first)}${at(first.position)} is ${typeName(t)}, and ${nameOf(name)} given a time zone (${describe(zone)}${at(zone.position)}) takes only a DateTime or a DateTime64 there`,
    first.position,
  );
}
