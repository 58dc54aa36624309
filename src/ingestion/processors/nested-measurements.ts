/**
 * `measurements` and `breakdowns.span_ops` as the transactions processor stores them
 * (`extract_nested`): names sorted, each `{value: number}` as its Float64, entries without a
 * numeric value left out. Anything that is not that shape drops the whole map (Snuba logs the
 * error and keeps the event).
 */
import { isJsonObject, JsonNumber, type JsonValue } from "./lossless-json.js";
import { compareCodePoints } from "./code-point-order.js";

export interface NestedNumbers {
  readonly keys: string[];
  readonly values: number[];
}

const NONE: NestedNumbers = { keys: [], values: [] };

export function nestedMeasurements(value: JsonValue | undefined): NestedNumbers {
  if (value === undefined || value === null || !isJsonObject(value)) return NONE;
  const keys: string[] = [];
  const values: number[] = [];
  for (const name of [...value.keys()].sort(compareCodePoints)) {
    const entry = value.get(name);
    if (entry === null || entry === undefined) continue;
    if (!isJsonObject(entry)) return NONE;
    const measured = entry.get("value");
    let number: number | null = null;
    if (typeof measured === "number") number = measured;
    else if (measured instanceof JsonNumber) number = measured.value;
    else if (typeof measured === "boolean") number = measured ? 1 : 0;
    if (number === null) continue;
    keys.push(name);
    values.push(number);
  }
  return { keys, values };
}
