/**
 * SQL written by hand on eap_items_1_local for the RPC tests. An attribute is found by searching
 * all 40 maps of its kind, so these queries do not share the bucket rule with the code under test.
 */
export interface HandAttribute {
  /** The value ('' / 0 when absent). */
  readonly value: string;
  /** True when the item has it. */
  readonly exists: string;
}

export function anyMap(kind: "string" | "float", name: string): HandAttribute {
  const maps = Array.from({ length: 40 }, (_, i) => `attributes_${kind}_${i}`);
  const exists = maps.map((m) => `mapContains(${m}, '${name}')`).join(" OR ");
  const value = `multiIf(${maps.map((m) => `mapContains(${m}, '${name}'), ${m}['${name}']`).join(", ")}, ${kind === "string" ? "''" : "0"})`;
  return { value, exists: `(${exists})` };
}

export function boolAttribute(name: string): HandAttribute {
  return { value: `attributes_bool['${name}']`, exists: `mapContains(attributes_bool, '${name}')` };
}

/** The bucket a row falls in, aligned to the request's start. */
export function bucketSql(start: number, granularity: number): string {
  return `toUInt32(${start} + intDiv(toInt64(toUnixTimestamp(timestamp)) - ${start}, ${granularity}) * ${granularity})`;
}

export function baseWhere(start: number, end: number, itemType: number, projects = "1, 2, 3"): string {
  return `organization_id = 1 AND project_id IN (${projects}) AND timestamp >= toDateTime(${start}) AND timestamp < toDateTime(${end}) AND item_type = ${itemType}`;
}
