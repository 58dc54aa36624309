/**
 * The string literals ClickHouse reads as a value of another type where a query compares them with
 * one (`project_id = '1'`, `timestamp >= '2024-01-01'`). It converts the string while it plans the
 * query, so one it cannot read fails the whole query, whatever the data (codes 32, 41, 53, 72,
 * 376). Measured on the embedded engine; each pattern errs on the side of letting a string through.
 */
import type { ArgumentClass } from "./argument-classes.js";

/** A UUID: 32 hex digits, with or without its dashes. */
export const UUID_TEXT = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A date, or a date and a time (UTC or with an offset). */
export const DATETIME_TEXT = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A number in any of the shapes a column of numbers of unknown width takes (Snuba's rule for number columns). */
export const NUMBER_TEXT = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?\s*$/i;

/** An integer: no sign but `-`, no spaces, no exponent (`' 1'`, `'+1'` and `'1e3'` fail as integers). */
export const INTEGER_TEXT = /^-?\d+$/;

/** An unsigned integer (UInt8: `'-1'` fails). */
export const UNSIGNED_TEXT = /^\d+$/;

/** A float: decimal or exponent, `inf`, `infinity` or `nan`, no spaces (`'0x10'` and `'1e'` fail). */
export const FLOAT_TEXT = /^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|inf|infinity|nan)$/i;

/**
 * What a string must look like for ClickHouse to read it as a value of each class where a
 * comparison converts it (test/pipeline/compared-strings.test.ts holds this to the engine for
 * every type of each class); a class without an entry is not judged.
 */
export const STRING_READ_AS: ReadonlyMap<ArgumentClass, { readonly text: RegExp; readonly what: string }> = new Map([
  ["uint8", { text: UNSIGNED_TEXT, what: "an unsigned integer" }],
  ["uint32", { text: UNSIGNED_TEXT, what: "an unsigned integer" }],
  ["int64", { text: INTEGER_TEXT, what: "an integer" }],
  ["float64", { text: FLOAT_TEXT, what: "a number" }],
  // A DateTime takes a datetime text, and in `=` some numbers (seconds): a text without a digit, never.
  ["datetime", { text: /\d/, what: "a datetime" }],
  ["uuid", { text: UUID_TEXT, what: "a UUID" }],
]);
