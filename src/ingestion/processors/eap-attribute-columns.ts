/**
 * The attribute columns of an `eap_items` row, filled as Snuba's EAPItemsProcessor fills them
 * (facts: snuba-ingestion.md §1.6):
 * - a string attribute `k` goes to `attributes_string_{fnv1a32(k) % 40}`, a double to
 *   `attributes_float_{…}`: the same bucket function the query side uses (src/clickhouse/fnv1a.ts),
 *   so a query reads the bucket the row was written to;
 * - an integer goes to `attributes_int` and, as a double, to its float bucket (queries that treat
 *   every number as a double find it there);
 * - a boolean goes to `attributes_bool`;
 * - an array's elements go to `attributes_array_{string,int,float,bool}` by their own kind (a mixed
 *   array is split across them); nested arrays, key-value lists and bytes are dropped, as are
 *   attributes of those kinds and attributes without a value.
 * A later write of a key replaces an earlier one in the same column. Empty columns are left out of
 * the row, which gives them the table's default (an empty map).
 */
import { fnv1a32 } from "../../clickhouse/fnv1a.js";
import type { AnyValue, ArrayValue } from "../../../gen/sentry_protos/snuba/v1/trace_item_pb.js";
import type { IngestRow } from "../message-processor.js";

/** Buckets of the string and float attribute maps (eap_items.yaml: attributes_string_0 … _39). */
export const EAP_ATTRIBUTE_BUCKETS = 40;

/** A Float64 for JSONEachRow: JSON has no NaN or infinities, ClickHouse reads them from these strings. */
export type JsonFloat = number | "nan" | "inf" | "-inf";

export function jsonFloat(value: number): JsonFloat {
  if (Number.isFinite(value)) return value;
  if (Number.isNaN(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

/** An Int64 for JSONEachRow: a number where exact, decimal text beyond 2^53 (ClickHouse reads it exactly). */
export type JsonI64 = number | string;

export function jsonI64(value: bigint): JsonI64 {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

export class EapAttributeColumns {
  private readonly strings = new Map<number, Map<string, string>>();
  private readonly floats = new Map<number, Map<string, JsonFloat>>();
  private readonly ints = new Map<string, JsonI64>();
  private readonly bools = new Map<string, boolean>();
  private readonly stringArrays = new Map<string, string[]>();
  private readonly intArrays = new Map<string, JsonI64[]>();
  private readonly floatArrays = new Map<string, JsonFloat[]>();
  private readonly boolArrays = new Map<string, boolean[]>();

  /** One attribute of the message, by the kind of its value. */
  insert(key: string, value: AnyValue["value"]): void {
    switch (value.case) {
      case "stringValue":
        return this.insertString(key, value.value);
      case "doubleValue":
        return this.insertFloat(key, value.value);
      case "intValue":
        return this.insertInt(key, value.value);
      case "boolValue":
        return void this.bools.set(key, value.value);
      case "arrayValue":
        return this.insertArray(key, value.value);
      default:
        // bytes, key-value lists and unset values have no column.
        return;
    }
  }

  insertString(key: string, value: string): void {
    bucketOf(this.strings, key).set(key, value);
  }

  insertFloat(key: string, value: number): void {
    bucketOf(this.floats, key).set(key, jsonFloat(value));
  }

  insertInt(key: string, value: bigint): void {
    // Number(bigint) rounds to the nearest double, as Rust's `i64 as f64` does.
    this.insertFloat(key, Number(value));
    this.ints.set(key, jsonI64(value));
  }

  private insertArray(key: string, array: ArrayValue): void {
    for (const element of array.values) {
      const value = element.value;
      if (value.case === "stringValue") appendTo(this.stringArrays, key, value.value);
      else if (value.case === "intValue") appendTo(this.intArrays, key, jsonI64(value.value));
      else if (value.case === "doubleValue") appendTo(this.floatArrays, key, jsonFloat(value.value));
      else if (value.case === "boolValue") appendTo(this.boolArrays, key, value.value);
    }
  }

  /** The non-empty attribute columns, keyed by column name. */
  columns(): IngestRow {
    const row: IngestRow = {};
    const put = (column: string, map: ReadonlyMap<string, unknown>) => {
      if (map.size > 0) row[column] = Object.fromEntries(map);
    };
    put("attributes_bool", this.bools);
    put("attributes_int", this.ints);
    put("attributes_array_string", this.stringArrays);
    put("attributes_array_int", this.intArrays);
    put("attributes_array_float", this.floatArrays);
    put("attributes_array_bool", this.boolArrays);
    for (let bucket = 0; bucket < EAP_ATTRIBUTE_BUCKETS; bucket++) {
      put(`attributes_string_${bucket}`, this.strings.get(bucket) ?? new Map());
      put(`attributes_float_${bucket}`, this.floats.get(bucket) ?? new Map());
    }
    return row;
  }
}

function bucketOf<T>(buckets: Map<number, Map<string, T>>, key: string): Map<string, T> {
  const bucket = fnv1a32(key) % EAP_ATTRIBUTE_BUCKETS;
  let map = buckets.get(bucket);
  if (!map) buckets.set(bucket, (map = new Map()));
  return map;
}

function appendTo<T>(arrays: Map<string, T[]>, key: string, value: T): void {
  const existing = arrays.get(key);
  if (existing) existing.push(value);
  else arrays.set(key, [value]);
}
