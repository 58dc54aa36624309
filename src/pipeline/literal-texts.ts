/**
 * The string literals ClickHouse reads as a value of another type where a query compares them with
 * one (`project_id = '1'`, `timestamp >= '2024-01-01'`). It converts the string while it plans the
 * query (or, beside a Nullable value or an array, on the first rows the comparison runs on), so one
 * it cannot read fails the query (codes 27, 32, 38, 41, 53, 72, 130, 376, 467, 675, 676).
 * Measured on the embedded engine; each pattern errs on the side of letting a string through.
 */
import type { Expression } from "../query/ast.js";
import { ARRAY_VARIANTS } from "./argument-classes.js";

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

/** A boolean as ClickHouse reads one (Bool): these words in any case, 1 or 0, no spaces around. */
export const BOOL_TEXT = /^(?:true|false|t|f|y|n|yes|no|on|off|enable|disable|enabled|disabled|1|0)$/i;

/** An IPv4 address: four dotted numbers (their range is not checked). */
export const IPV4_TEXT = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** An IPv6 address (hex groups with at least one colon), or an IPv4 one, which IPv6 takes too. */
export const IPV6_TEXT = /^(?:[0-9a-f]*:[0-9a-f:.]*|\d{1,3}(?:\.\d{1,3}){3})$/i;

/** A date alone: year, month and day, with `-`, `/` or `.` between them or nothing (a time or a space makes it fail). */
export const DATE_TEXT = /^\d{4}[-/.]?\d{1,2}[-/.]?\d{1,2}$/;

/**
 * The words ClickHouse's best-effort datetime reading takes beside the digits: month and weekday
 * names, a UTC or GMT zone, AM/PM and ISO 8601's T and Z (`Mon, 01 Jan 2024 00:00:00 GMT`).
 */
const DATETIME_WORDS = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*|utc|gmt|am|pm|t|z/gi;

/**
 * A datetime where a comparison converts a string: digits, with separators and the words above
 * (`2024-01-01 00:00:00`, `2024/01/01`, `1700000000`, `Jan 1 2024`). A text without a digit, or
 * with any other letter or sign (`9o`, `frontend@2.5.1`), never reads as one.
 */
export function readsAsComparedDateTime(text: string): boolean {
  return /\d/.test(text) && /^[\s\d\-/.:+,]*$/.test(text.replace(DATETIME_WORDS, " "));
}

/** A date a text starts with, with `-`, `/` or `.` between its parts (`2024-2-30 10:00`) or as eight digits (`20241301`). */
const LEADING_DATE = /^(\d{4})(?:([-/.])(\d{1,2})\2(\d{1,2})|(\d{2})(\d{2}))(?!\d)/;

/**
 * Whether a text starts with a date no calendar has: a comparison with a DateTime refuses a month
 * past 12 or a day past its month's last (`'2024-13-01' < now()`, `2023-02-29`: code 41), reads
 * a month 0 as January and a day 0 as is, and its time part leniently (`24:00:00` is taken). An
 * IN list and `toDate` take such a text: only comparisons are judged by it.
 */
export function impossibleLeadingDate(text: string): boolean {
  const date = LEADING_DATE.exec(text);
  if (date === null) return false;
  const year = Number(date[1]);
  const month = Number(date[3] ?? date[5]) || 1;
  const day = Number(date[4] ?? date[6]);
  return month > 12 || day > new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Whether a comparison with a DateTime fails on a text of digits alone (or one led by a sign),
 * which ClickHouse's best-effort reading takes by its length: 1 or 2 digits a day of the month
 * (1 to 31), 4 a year, 6 a year and month (month 0 to 12), 8 a date (judged by
 * impossibleLeadingDate), 9 or 10 a Unix time; other lengths, zeros alone up to 8 digits, and a
 * leading `-` or `+` fail (`'0' = timestamp`, `'123' < timestamp`: code 41).
 */
export function unreadableDigitsAsComparedDateTime(text: string): boolean {
  const trimmed = text.trim();
  if (/^[-+]/.test(trimmed)) return true;
  if (!/^\d+$/.test(trimmed)) return false;
  const length = trimmed.length;
  if (length === 9 || length === 10) return false;
  if (/^0+$/.test(trimmed) || length > 10) return true;
  if (length <= 2) return Number(trimmed) > 31;
  if (length === 6) return Number(trimmed.slice(4)) > 12;
  return length !== 4 && length !== 8;
}

/**
 * Whether a comparison with a DateTime fails on a text that ends with a separator, which the
 * best-effort reading expects more after (`'8-' = bucketed_started`, seed 16; `'2024-01-'`,
 * `'12:'`, `'2024-01-01 10:00:00+'`: code 41), but a `.` after a time (`'10:00:00.'`, no
 * fraction of a second), which it takes.
 */
export function trailingSeparatorAsComparedDateTime(text: string): boolean {
  const trimmed = text.trimEnd();
  if (/[-/:,+]$/.test(trimmed)) return true;
  return trimmed.endsWith(".") && !/\d{1,2}:\d{2}(?::\d{2})?\.$/.test(trimmed);
}

/** The days of each month (0 read as January), February's 29: the year is the current one, leap or not. */
const DAYS_IN_MONTH = [31, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a comparison with a DateTime fails on a number with a fraction (`'0.95' < timestamp`:
 * code 41; a Unix time with one, `'1700000000.5'`: code 53), which the best-effort reading takes
 * as a day and a month (`'31.12'`; a month past 12 makes it a month and a day, `'1.13'`), or after
 * four digits as a year and a month (`'2024.1'`): a fraction of more than two digits, a whole
 * part of three digits or more than four, a month past 12, a day past its month's last (February's
 * 29th taken, whatever the year), and `0.0` fail.
 */
export function unreadableDottedNumberAsComparedDateTime(text: string): boolean {
  const number = /^(\d+)\.(\d+)$/.exec(text);
  if (number === null) return false;
  const [, whole, fraction] = number as unknown as [string, string, string];
  if (fraction.length > 2) return true;
  const second = Number(fraction);
  if (whole.length === 4) return second > 12;
  if (whole.length > 2) return true;
  const first = Number(whole);
  if (first === 0 && second === 0) return true;
  const [month, day] = second > 12 ? [first, second] : [second, first];
  return month > 12 || day > DAYS_IN_MONTH[month]!;
}

/**
 * Whether a comparison with a DateTime fails on a text with a `+` no digit follows, which the
 * best-effort reading takes as a time zone offset without its hours (`'9+Z8T7' = now()`, `'12 +
 * 3'`: code 41; seed 39). An offset of digits (`+01`, `+0100`, `+01:00`) is taken.
 */
export function offsetWithoutDigitsAsComparedDateTime(text: string): boolean {
  return /\+(?!\d)/.test(text);
}

/** Whether a comparison with a DateTime fails on a text the words-and-digits rule (readsAsComparedDateTime) lets through. */
export function unreadableAsComparedDateTime(text: string): boolean {
  return impossibleLeadingDate(text) || unreadableDigitsAsComparedDateTime(text) || trailingSeparatorAsComparedDateTime(text) || unreadableDottedNumberAsComparedDateTime(text) || offsetWithoutDigitsAsComparedDateTime(text);
}

/**
 * Whether a text reads as a DateTime where ClickHouse converts it strictly: to compare it with a
 * column its table is partitioned or sorted by, in WHERE, to use the index (`'31' = timestamp`,
 * code 41; `'2024-01-01 00:00:00Z' = timestamp`, code 53; seed 19). It reads exactly
 * `YYYY-MM-DD hh:mm:ss` (a `T` may stand for the space; any sign between the fields), a date alone
 * `YYYY-MM-DD`, or a Unix time of 5 digits or more, and nothing after them. The comparison's own
 * best-effort reading still applies besides (readsAsComparedDateTime).
 */
export function readsAsIndexedDateTime(text: string): boolean {
  const digits = /^\d*/.exec(text)![0].length;
  if (text.length >= 19 && digits !== text.length) return text.length === 19 && !/\d/.test(text[4]!) && (text[10] === " " || text[10] === "T");
  if (digits === 4 && text.length > 4) return text.length === 10;
  return digits > 4 && digits === text.length;
}

/**
 * Whether `toDate` reads a text: a date, its year first (`2024-01-01`, `2024/1/1`, eight digits
 * `20240101`), alone or before a time after a space or a `T`. Digits alone of another length
 * (`toDate('9')`, code 38; seed 22), a text that starts otherwise (`24-01-01`, `Jan 1 2024`) or
 * one with more after the date (`2024-01-01Z`, code 6) fail.
 */
export function readsAsConvertedDate(text: string): boolean {
  const date = /^(?:\d{8}|\d{4}\D\d{1,2}\D\d{1,2})/.exec(text);
  if (date === null) return false;
  const rest = text.slice(date[0].length);
  return rest === "" || /^[ T]./.test(rest);
}

/** A rule of STRING_READ_AS: whether ClickHouse can read a text as the type, and how a message says what it must be. */
export interface StringReading {
  readonly reads: (text: string) => boolean;
  /**
   * Where a text listed in an IN set is read otherwise than compared: a DateTime's set reads it
   * strictly (`timestamp IN ('1')`, code 41, where `timestamp = '1'` is answered; seed 33), a
   * DateTime64's takes an empty one (`IN ('')`, where `= ''` is code 41).
   */
  readonly readsInSet?: (text: string) => boolean;
  readonly what: string;
}

const matching = (pattern: RegExp, what: string): StringReading => ({ reads: (text) => pattern.test(text), what });

/**
 * A text ClickHouse reads as an array, map or tuple is written as one: `[...]`, `{...}`, `(...)`,
 * from its first character to its last (a space before or after fails, and so does a text left
 * open: `'[' != array(a, b)`, code 27; seed 33). What is inside is not judged.
 */
const ARRAY_TEXT = /^\[[\s\S]*\]$/;
const ARRAY_READING = matching(ARRAY_TEXT, "an array written as text ('[...]')");

/** Whether a text may be an array written as text (ARRAY_READING). */
export function writtenAsArray(text: string): boolean {
  return ARRAY_TEXT.test(text);
}
const MAP_READING = matching(/^\{[\s\S]*\}$/, "a map written as text ('{...}')");
const TUPLE_READING = matching(/^\([\s\S]*\)$/, "a tuple written as text ('(...)')");
const DATE_READING = matching(DATE_TEXT, "a date");
const UNSIGNED_READING = matching(UNSIGNED_TEXT, "an unsigned integer");

/**
 * What a string must look like for ClickHouse to read it as a value of each class, or of each
 * variant (argument-classes.ts: a type with no class that the typing pass still names), where a
 * comparison converts it (test/pipeline/compared-strings.test.ts holds this to the engine for
 * every type of each key); a class or variant without an entry is not judged. Class and variant
 * names never meet (a test holds them apart), so one map holds both.
 */
export const STRING_READ_AS: ReadonlyMap<string, StringReading> = new Map([
  ["uint8", UNSIGNED_READING],
  ["uint32", UNSIGNED_READING],
  ["int64", matching(INTEGER_TEXT, "an integer")],
  ["float64", matching(FLOAT_TEXT, "a number")],
  ["datetime", { reads: readsAsComparedDateTime, readsInSet: (text) => readsAsComparedDateTime(text) && readsAsIndexedDateTime(text), what: "a datetime" }],
  // A DateTime64 (`timestamp_ms`) reads a compared text as a DateTime does (`'production' <=
  // timestamp_ms`, code 41: seed 13), but takes an empty one in a set (`IN ('')`), and there
  // only (`'' = timestamp_ms`, code 41; seed 33); the compared-strings test holds it to the engine.
  ["nullableDateTime64", { reads: readsAsComparedDateTime, readsInSet: (text) => text === "" || readsAsComparedDateTime(text), what: "a datetime" }],
  ["uuid", matching(UUID_TEXT, "a UUID")],
  ["bool", matching(BOOL_TEXT, "a boolean (true, false, 1, 0, yes, no, on, off, ...)")],
  ["arrayString", ARRAY_READING],
  ["arrayNumber", ARRAY_READING],
  ...ARRAY_VARIANTS.map((variant) => [variant, ARRAY_READING] as const),
  ["nested", ARRAY_READING],
  ["mixedArray", ARRAY_READING],
  ["tuple", TUPLE_READING],
  ["mapStrings", MAP_READING],
  ["mapFloats", MAP_READING],
  ["mapInts", MAP_READING],
  ["mapBools", MAP_READING],
  ["uint128", UNSIGNED_READING],
  ["nullableIPv4", matching(IPV4_TEXT, "an IPv4 address")],
  ["nullableIPv6", matching(IPV6_TEXT, "an IPv6 address")],
  ["date", DATE_READING],
  ["nullableDate", DATE_READING],
]);

/**
 * Conversion functions that read a constant text as their type while the query is planned
 * (`toDate('x')` fails, code 38): what the text must look like. Both take less than a comparison
 * with a DateTime does, so its rule errs on the side of letting a text through.
 */
export const TEXT_CONVERSIONS: ReadonlyMap<string, StringReading> = new Map([
  ["toDate", { reads: (text) => readsAsComparedDateTime(text) && readsAsConvertedDate(text), what: "a date" }],
  ["toDateTime", { reads: readsAsComparedDateTime, what: "a datetime" }],
]);

const ASCII = /^[\x00-\x7f]*$/;
/** The CONSTANT_TEXT_FUNCTIONS computed here over ASCII texts only. */
const ASCII_ONLY: ReadonlySet<string> = new Set(["lowerUTF8", "upperUTF8"]);

/** Two texts in ClickHouse's order of Strings, their UTF-8 bytes' (JavaScript's `<` compares UTF-16 units: '😀' < 'ｚ' there, not in the engine). */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/**
 * Functions of strings that ClickHouse computes while it plans the query when every argument is a
 * constant text, or null where the pass does not say. `lower` and `upper` change ASCII letters
 * alone, as they do here (`lower('P😀')` is 'p😀'; seed 21). The UTF-8 case mappings over ASCII
 * texts only (ASCII_ONLY): they are ClickHouse's own. `greatest` and `least` compare UTF-8 bytes
 * over any texts (`greatest('😀', 'ｚ')` is '😀'; seed 22 held a 'ü').
 */
const CONSTANT_TEXT_FUNCTIONS: Readonly<Record<string, (texts: readonly string[]) => string | null>> = {
  lower: (texts) => (texts.length === 1 ? texts[0]!.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : null),
  upper: (texts) => (texts.length === 1 ? texts[0]!.replace(/[a-z]+/g, (letters) => letters.toUpperCase()) : null),
  lowerUTF8: (texts) => (texts.length === 1 ? texts[0]!.toLowerCase() : null),
  upperUTF8: (texts) => (texts.length === 1 ? texts[0]!.toUpperCase() : null),
  concat: (texts) => (texts.length === 0 ? null : texts.join("")),
  greatest: (texts) => (texts.length === 0 ? null : texts.reduce((a, b) => (compareBytes(b, a) > 0 ? b : a))),
  least: (texts) => (texts.length === 0 ? null : texts.reduce((a, b) => (compareBytes(b, a) < 0 ? b : a))),
};

/**
 * The value of arithmetic on numbers written out (`0.5 + 10`, `1 / 3`), as the engine computes it
 * while it plans the query: the same IEEE doubles for floats, and for integers the exact value
 * where it is a safe integer (the engine widens the type of a sum or a product, so a small one
 * does not wrap). Null for anything else: a Boolean, an integer past 2^53, a result that is not
 * finite, or -0, which the engine writes as '-0' and JavaScript as '0'.
 */
/**
 * A number the engine computes while it plans the query from values written out: arithmetic on
 * numbers (arithmeticValueOf), and `isNull` or `isNotNull` of a literal (0 or 1). Null for anything
 * else (`topK(1 - 1)` and `topK(isNull('x'))` are a size of 0, code 69; seed 43).
 */
export function constantNumberOf(node: Expression): number | null {
  if (node.kind === "function" && (node.name === "isNull" || node.name === "isNotNull") && node.args.length === 1 && node.args[0]!.kind === "literal") {
    return (node.args[0]!.value === null) === (node.name === "isNull") ? 1 : 0;
  }
  return arithmeticValueOf(node, 0);
}

function arithmeticValueOf(node: Expression, depth: number): number | null {
  if (node.kind === "literal") return typeof node.value === "number" && node.digits === undefined && Number.isFinite(node.value) ? node.value : null;
  if (node.kind !== "function" || node.args.length !== 2 || depth > 8 || !(node.name in ARITHMETIC)) return null;
  const left = arithmeticValueOf(node.args[0]!, depth + 1);
  const right = left === null ? null : arithmeticValueOf(node.args[1]!, depth + 1);
  if (left === null || right === null) return null;
  const value = ARITHMETIC[node.name as keyof typeof ARITHMETIC](left, right);
  const integers = Number.isInteger(left) && Number.isInteger(right) && node.name !== "divide";
  return !Number.isFinite(value) || Object.is(value, -0) || (integers && !Number.isSafeInteger(value)) ? null : value;
}

const ARITHMETIC = {
  plus: (a: number, b: number) => a + b,
  minus: (a: number, b: number) => a - b,
  multiply: (a: number, b: number) => a * b,
  divide: (a: number, b: number) => a / b,
  // `quantileExact(greatest(2, 10))(x)` is a level of 10 (code 12; seed 51).
  greatest: (a: number, b: number) => Math.max(a, b),
  least: (a: number, b: number) => Math.min(a, b),
} as const;

/** What constant texts read of an entity's columns: the text it maps a column to (else null), and whether a value is always NULL there. */
export interface ColumnTexts {
  text(column: Expression): string | null;
  isNull(node: Expression): boolean;
}

/** The comparisons whose truth of two literals comparedLiterals tells. */
const COMPARISON_NAMES: ReadonlySet<string> = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"]);

/**
 * The text a string literal holds, or a call computes from one before any row is read
 * (`toString(10)`, `upper('production')`, `greatest('a', 'b')`): ClickHouse folds such calls to
 * a constant and then converts it as it would the literal; so is a column its entity maps to a
 * text, where `columns` says which (`type` is 'transaction' on transactions). Null for anything else, and for a
 * text that is not ASCII under one of the ASCII_ONLY functions (left alone rather than guessed).
 */
export function constantText(node: Expression, columns?: ColumnTexts): string | null {
  if (node.kind === "literal") return typeof node.value === "string" ? node.value : null;
  if (node.kind === "column") return columns?.text(node) ?? null;
  if (node.kind !== "function") return null;
  if (node.name === "toString") {
    const only = node.args.length === 1 ? node.args[0]! : null;
    // A number's text is its shortest decimal form, as JavaScript writes it (`toString(0.5)` is
    // '0.5', which no integer reads as: seed 13), with an exponent as ClickHouse writes one, no
    // `+` in it (`toString(1.5e-7)` is '1.5e-7', `toString(1e21)` '1e21': seed 17).
    if (only?.kind === "literal" && (typeof only.value === "boolean" || (typeof only.value === "number" && Number.isFinite(only.value)))) return String(only.value).replace("e+", "e");
    // So is a sum, difference, product or quotient of numbers written out (`toString(0.5 + 10)` is
    // '10.5', which no integer reads as: code 53; seed 42).
    const computed = only === null ? null : arithmeticValueOf(only, 0);
    if (computed !== null) return String(computed).replace("e+", "e");
    // So is a tuple of numbers and Booleans written out, in parentheses (`toString(tuple(10))` is
    // '(10)', which no DateTime reads: code 41; seed 50).
    if (only?.kind === "function" && only.name === "tuple" && only.args.length > 0) {
      const texts = only.args.map((arg) => (arg.kind === "literal" && (typeof arg.value === "boolean" || (typeof arg.value === "number" && Number.isFinite(arg.value) && (!Number.isInteger(arg.value) || Number.isSafeInteger(arg.value)))) ? String(arg.value).replace("e+", "e") : null));
      if (texts.every((text) => text !== null)) return `(${texts.join(",")})`;
    }
    // So is a comparison of literals, and a literal looked for among literals (`toString(1 = 2)`
    // is '0', which no DateTime reads: code 41; seed 46).
    const truth = only?.kind !== "function" || only.args.length !== 2 ? "unknown" : COMPARISON_NAMES.has(only.name) ? comparedLiterals(only.name, only.args) : only.name === "in" || only.name === "notIn" ? (textInClock(only.name, only.args) ?? listedLiteral(only.name, only.args)) : "unknown";
    if (truth !== "unknown") return truth === "true" ? "1" : "0";
    // `toString(0 IS NULL)` is '0' (seed 20).
    if (only?.kind === "function" && (only.name === "isNull" || only.name === "isNotNull") && only.args.length === 1 && only.args[0]!.kind === "literal") {
      return (only.args[0]!.value === null) === (only.name === "isNull") ? "1" : "0";
    }
    return only === null ? null : (textOfNow(only) ?? constantText(only, columns));
  }
  // ifNull and coalesce return their first argument that is not NULL, and a text is never NULL
  // (`ifNull('x', c)` is 'x', `coalesce(site, 'production')` is 'production' where the entity
  // stores no `site`: seed 18); an argument that may be NULL leaves the result unknown here.
  if (node.name === "ifNull" || node.name === "coalesce") {
    const first = node.args.find((arg) => !((arg.kind === "literal" && arg.value === null) || columns?.isNull(arg) === true));
    return first === undefined ? null : constantText(first, columns);
  }
  // toNullable keeps its argument's value (`toNullable('abc') = now()`, code 41).
  if (node.name === "toNullable") return node.args.length === 1 ? constantText(node.args[0]!, columns) : null;
  if (node.name === "substring") return substringOf(node.args, columns);
  if (node.name === "if" || node.name === "multiIf") return pickedText(node.args, columns);
  const fold = CONSTANT_TEXT_FUNCTIONS[node.name];
  if (fold === undefined) return null;
  const texts: string[] = [];
  for (const arg of node.args) {
    // greatest and least pass over a NULL (`greatest(NULL, 'x')` is 'x'; seed 34).
    if ((node.name === "greatest" || node.name === "least") && arg.kind === "literal" && arg.value === null) continue;
    // concat writes a number or a Boolean as its text, as toString does (`concat('x', 1)` is 'x1',
    // `concat(TRUE, 1e23)` 'true1e23', which no DateTime reads: code 41; seed 24).
    const literal = node.name === "concat" && arg.kind === "literal" ? arg.value : undefined;
    const text = typeof literal === "boolean" || (typeof literal === "number" && Number.isFinite(literal)) ? String(literal).replace("e+", "e") : (textOfNow(arg) ?? constantText(arg, columns));
    if (text === null || (ASCII_ONLY.has(node.name) && !ASCII.test(text))) return null;
    texts.push(text);
  }
  return fold(texts);
}

/**
 * An `if` or `multiIf` of constant texts whose conditions are UInt8s, Booleans or NULLs written
 * out: the text of the branch they pick, the first whose condition is neither 0 nor NULL, else
 * the last (`if(10, 'error', 'production')` is 'error', which no float reads: code 72; seed 24).
 */
function pickedText(args: readonly Expression[], columns?: ColumnTexts): string | null {
  const branch = pickedByLiterals(args);
  if (branch === null) return null;
  // Of branches that are not all texts, the value is a Variant (held per row, not this text).
  let picked: string | null = null;
  for (let i = 1; i < args.length; i += i === args.length - 2 ? 1 : 2) {
    const text = constantText(args[i]!, columns);
    if (text === null) return null;
    if (args[i] === branch) picked = text;
  }
  return picked;
}

/**
 * The branch an `if` or `multiIf` picks by conditions that are UInt8s, Booleans or NULLs written
 * out: the first whose condition is neither 0 nor NULL, else the last; null where a condition is
 * anything else.
 */
function pickedByLiterals(args: readonly Expression[]): Expression | null {
  if (args.length < 3 || args.length % 2 === 0) return null;
  for (let i = 0; i < args.length - 1; i += 2) {
    const condition = args[i]!;
    // A condition is a UInt8 (or a Bool, or NULL): another number is refused by the engine (code 43).
    if (condition.kind !== "literal" || typeof condition.value === "string") return null;
    if (typeof condition.value === "number" && !(Number.isInteger(condition.value) && condition.value >= 0 && condition.value <= 255)) return null;
    if (condition.value !== null && condition.value !== 0 && condition.value !== false) return args[i + 1]!;
  }
  return args[args.length - 1]!;
}

/**
 * What ClickHouse folds a value listed in an IN set to: the branch an `if` or `multiIf` of
 * literal conditions picks, whatever the other branches are (`granularity IN if(FALSE, 1, '/')`
 * is `granularity IN '/'`, code 53; seed 33), at any depth; else the value.
 */
export function foldedSetValue(node: Expression): Expression {
  let value = node;
  for (let depth = 0; depth < 32 && value.kind === "function" && (value.name === "if" || value.name === "multiIf"); depth++) {
    const branch = pickedByLiterals(value.args);
    if (branch === null) break;
    value = branch;
  }
  return value;
}

/**
 * `substring(s, offset[, length])` of an ASCII text and whole numbers (or Booleans) written out:
 * its bytes from the 1-based offset, at most `length` of them. An offset past the end, an offset
 * 0 or a length 0 make '' (`substring('production', 1000, FALSE)`, which no integer reads: code
 * 32; seed 22). Negative numbers, fractions and texts past ASCII (bytes, not characters) are left
 * alone (null).
 */
function substringOf(args: readonly Expression[], columns?: ColumnTexts): string | null {
  if (args.length < 2 || args.length > 3) return null;
  const text = constantText(args[0]!, columns);
  const [offset, length] = args.slice(1).map((arg) => (arg.kind === "literal" && typeof arg.value === "boolean" ? Number(arg.value) : arg.kind === "literal" && typeof arg.value === "number" && Number.isSafeInteger(arg.value) && arg.value >= 0 ? arg.value : null));
  if (text === null || !ASCII.test(text) || offset === null || offset === undefined || length === null) return null;
  if (offset === 0) return "";
  return length === undefined ? text.slice(offset - 1) : text.slice(offset - 1, offset - 1 + length);
}

/**
 * The text of `now()` where a call writes it as one (`toString(now())`, `concat('x', now())`;
 * seed 20): ClickHouse folds it to the time the query starts, written `YYYY-MM-DD hh:mm:ss`. The
 * rules read a text's form, the same at any moment, so the time the front end reads stands for
 * it. `now()` alone is a DateTime, no text: null for it elsewhere.
 */
function textOfNow(node: Expression): string | null {
  return isNowCall(node) ? new Date().toISOString().slice(0, 19).replace("T", " ") : null;
}

/** The clock's calls (`now()`, `today()`, `yesterday()`): the engine computes each once per query, a constant to it. */
export function isClockCall(node: Expression): node is Extract<Expression, { kind: "function" }> {
  return node.kind === "function" && node.args.length === 0 && (node.name === "now" || node.name === "today" || node.name === "yesterday");
}

/** `now()` with no time zone: a constant the engine computes once per query. */
export function isNowCall(node: Expression): boolean {
  return node.kind === "function" && node.name === "now" && node.args.length === 0;
}

/**
 * A text looked for in the clock's value (`'x' IN now()`, `'9' NOT IN today()`): not found,
 * whatever the text, where it is not a date or a time written out in full (the engine answers 0
 * even for `toString(now()) IN now()`; a full one is left alone, the clock's). Null where the call
 * is not one.
 */
function textInClock(name: string, args: readonly Expression[]): LiteralTruth | null {
  const [text, clock] = args;
  if (text?.kind !== "literal" || typeof text.value !== "string" || clock === undefined || !isClockCall(clock)) return null;
  if (/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}:\d{2})?$/.test(text.value.trim())) return "unknown";
  return name === "in" ? "false" : "true";
}

/** What a comparison of literals folds to: its truth, or unknown where the pass cannot tell the engine's. */
export type LiteralTruth = "true" | "false" | "unknown";

/**
 * The truth of a comparison of two literals, where it is plain (`1 = 1`, `2 < 1.5`, `'a' != 'b'`,
 * `'b' > 'a'`); "unknown" for any other constant comparison (mixed types, computed operands).
 */
export function comparedLiterals(name: string, args: readonly Expression[]): LiteralTruth {
  const [left, right] = args;
  if (args.length !== 2 || left?.kind !== "literal" || right?.kind !== "literal") return "unknown";
  const number = (value: unknown) => (typeof value === "boolean" ? Number(value) : value);
  const [a, b] = [number(left.value), number(right.value)];
  // Texts in the engine's order of Strings, their UTF-8 bytes' (`'production' > 'backend@1.2.0'`
  // is true, which decides no AND: `user != click_text AND …` reads user outside BY, code 215; seed 27).
  if (typeof a === "string" && typeof b === "string") return truthOfOrder(name, compareBytes(a, b));
  // Past 2^53 the literal's number is not the engine's integer.
  if (typeof a !== "number" || typeof b !== "number" || [a, b].some((n) => Number.isInteger(n) && !Number.isSafeInteger(n))) return "unknown";
  // (A NaN is in no order: every comparison but `!=` is false, as JavaScript's are.)
  return truthOfOrder(name, a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.NaN);
}

/** What a comparison answers of two values in this order (negative, 0, positive; NaN for none); "unknown" for another function. */
function truthOfOrder(name: string, order: number): LiteralTruth {
  const truth = { equals: order === 0, notEquals: order !== 0, less: order < 0, greater: order > 0, lessOrEquals: order <= 0, greaterOrEquals: order >= 0 }[name];
  return truth === undefined ? "unknown" : truth ? "true" : "false";
}

/**
 * The truth of a literal looked for in a literal or in a list of literals written out (`'a' IN
 * 'b'`, `1 NOT IN (1, 2)`): found where `=` is true of one, not found where it is false of each;
 * "unknown" where any comparison is not plain (comparedLiterals) or the list is computed.
 */
export function listedLiteral(name: string, args: readonly Expression[]): LiteralTruth {
  const [left, right] = args;
  if (args.length !== 2 || left === undefined || right === undefined) return "unknown";
  const listed = right.kind === "function" && (right.name === "tuple" || right.name === "array") ? right.args : [right];
  const found = listed.map((item) => comparedLiterals("equals", [left, item]));
  if (found.includes("unknown")) return "unknown";
  return found.includes("true") === (name === "in") ? "true" : "false";
}
