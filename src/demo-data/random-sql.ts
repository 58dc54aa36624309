/**
 * Deterministic pseudo-random SQL expressions over the `number` column of `numbers(start, count)`.
 *
 * Every random choice in the demo data is a pure function of (row number, DEMO_SEED, salt):
 * `cityHash64(number, DEMO_SEED, salt)`. ClickHouse's cityHash64 is stable across versions and
 * platforms, so the same row number always yields the same values, whatever the chunk size or
 * the number of threads. Different salts give independent streams.
 */
import { quoteString } from "../clickhouse/escaping.js";

/** The fixed seed of every demo-data hash. Changing it changes every generated value. */
export const DEMO_SEED = 20_240_501;

/** A UInt64 hash of the row number (or of `key`, an SQL expression) and a salt. */
export function hash(salt: number, key = "number"): string {
  return `cityHash64(${key}, ${DEMO_SEED}, ${salt})`;
}

/** A Float64 uniform in [0, 1). */
export function uniform(salt: number, key = "number"): string {
  return `(${hash(salt, key)} % 4294967296) / 4294967296.0`;
}

/** A standard normal variate (Box-Muller over two independent uniforms). */
export function normal(salt: number, key = "number"): string {
  return `(sqrt(-2.0 * log(1.0 - ${uniform(salt, key)})) * cos(2.0 * pi() * ${uniform(salt + 1, key)}))`;
}

/** An SQL array literal of strings. */
export function stringArray(values: readonly string[]): string {
  return `[${values.map(quoteString).join(", ")}]`;
}

/** An SQL array literal of numbers. */
export function numberArray(values: readonly number[]): string {
  return `[${values.map((v) => formatLiteralNumber(v)).join(", ")}]`;
}

/** An SQL array literal of arrays of strings. */
export function stringArrayArray(values: readonly (readonly string[])[]): string {
  return `[${values.map(stringArray).join(", ")}]`;
}

/** An SQL array literal of arrays of numbers. */
export function numberArrayArray(values: readonly (readonly number[])[]): string {
  return `[${values.map(numberArray).join(", ")}]`;
}

function formatLiteralNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`cannot write ${value} into SQL`);
  return Number.isInteger(value) ? String(value) : value.toPrecision(12).replace(/\.?0+$/, "");
}

/**
 * A 1-based index in [1, weights.length] drawn with the given relative weights: the first
 * cumulative threshold above a uniform value in [0, total).
 */
export function weightedIndex(weights: readonly number[], hashExpr: string): string {
  if (weights.length === 0) throw new Error("weightedIndex needs at least one weight");
  const scale = 1_000_000;
  const total = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  const thresholds = weights.map((w) => {
    running += w;
    return Math.round((running / total) * scale);
  });
  thresholds[thresholds.length - 1] = scale;
  return `arrayFirstIndex(t -> t > ${hashExpr} % ${scale}, ${numberArray(thresholds)})`;
}

/**
 * Like `weightedIndex`, with one weight list per group: `groupExpr` (1-based) picks the list.
 * Returns a 1-based index into that group's list.
 */
export function weightedIndexByGroup(weightsPerGroup: readonly (readonly number[])[], groupExpr: string, hashExpr: string): string {
  const scale = 1_000_000;
  const thresholds = weightsPerGroup.map((weights) => {
    if (weights.length === 0) throw new Error("weightedIndexByGroup needs at least one weight per group");
    const total = weights.reduce((a, b) => a + b, 0);
    let running = 0;
    const out = weights.map((w) => {
      running += w;
      return Math.round((running / total) * scale);
    });
    out[out.length - 1] = scale;
    return out;
  });
  return `arrayFirstIndex(t -> t > ${hashExpr} % ${scale}, arrayElement(${numberArrayArray(thresholds)}, ${groupExpr}))`;
}

/** One of `values`, with relative weights. */
export function pickWeightedString(values: readonly string[], weights: readonly number[], hashExpr: string): string {
  if (values.length !== weights.length) throw new Error("one weight per value");
  return `arrayElement(${stringArray(values)}, ${weightedIndex(weights, hashExpr)})`;
}

/**
 * A 0-based index in [0, count) skewed towards small indices (a few hot items, a long tail):
 * floor(count * u^power).
 */
export function skewedIndex(countExpr: string, power: number, salt: number, key = "number"): string {
  return `toUInt32(floor(${countExpr} * pow(${uniform(salt, key)}, ${power})))`;
}

/** A deterministic UUID from a text key expression (MD5 of the seed, a label and the key). */
export function uuidFrom(label: string, keyExpr = "number"): string {
  return `reinterpretAsUUID(MD5(concat('${DEMO_SEED}:${label}:', toString(${keyExpr}))))`;
}

/** 16 lower-case hex digits of a UInt64 expression (a span id as Sentry prints it). */
export function hex16(expr: string): string {
  return `leftPad(lower(hex(${expr})), 16, '0')`;
}

/** 32 lower-case hex digits of a UUID expression, without dashes (a trace id as Sentry prints it). */
export function hex32(uuidExpr: string): string {
  return `replaceAll(toString(${uuidExpr}), '-', '')`;
}

/**
 * The two arrays of a Nested key/value column from a list of optional entries: pairs whose
 * value is '' are left out, so keys and values keep the same length. `alias` names the inner
 * variable holding all the values (to be added to the plan's variables).
 */
export function nonEmptyPairs(
  alias: string,
  keys: readonly string[],
  valueExprs: readonly string[],
): { variable: [string, string]; keys: string; values: string } {
  if (keys.length !== valueExprs.length) throw new Error("one value per key");
  return {
    variable: [alias, `[${valueExprs.map((v) => `toString(${v})`).join(", ")}]`],
    keys: `arrayFilter((k, v) -> v != '', ${stringArray(keys)}, ${alias})`,
    values: `arrayFilter(v -> v != '', ${alias})`,
  };
}
