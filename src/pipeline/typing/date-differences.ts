/**
 * `dateDiff(unit, start, end[, zone])`: the probe could not tell its counts (it takes a unit's
 * name first, which its sample text is not), so the typing pass judges it here. The unit is a
 * text, the start and the end a Date, a DateTime or a DateTime64 (anything else: code 43), and
 * the zone as the date functions take one (typing/time-zones.ts). The result is an Int64,
 * Nullable where the start, the end or the zone is.
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { integerShapeOfTypeName } from "../integer-types.js";
import { integerTyped, MIXED_VARIANT, VARIANT_FAMILIES, VARIANT_MAY_BE_NULL, UNKNOWN, type Typed } from "./typed-values.js";
import { describe, nameOf, typeName } from "./messages.js";
import { timeZoneReading } from "./time-zones.js";

export const DATE_DIFFERENCES: ReadonlySet<string> = new Set(["dateDiff"]);

const INT64 = integerShapeOfTypeName("Int64")!;
const ROLES = ["the unit, a text such as 'day'", "the start, a Date, a DateTime or a DateTime64", "the end, a Date, a DateTime or a DateTime64"];

/** Whether a value of this type is refused as a start or an end: a class but DateTime's, or a variant not of the dates' family. */
function notADate(t: Typed): boolean {
  if (t.alternatives !== undefined) return false;
  if (t.cls !== null) return t.cls !== "datetime";
  return t.variant >= 0 && t.variant !== MIXED_VARIANT && VARIANT_FAMILIES[t.variant] !== "datetime";
}

/**
 * Whether a value of this type is refused as the unit: a class but String's, a variant (codes
 * 43), or a Nullable text read per row (code 44; a String column is taken).
 */
function notAUnit(t: Typed): boolean {
  if (t.alternatives !== undefined) return false;
  if (t.cls === "string") return t.nullable && t.constant === false;
  return t.cls !== null || (t.variant >= 0 && t.variant !== MIXED_VARIANT);
}

/** Refuses what the engine refuses, and gives the call's type (UNKNOWN where the pass does not name one: a NULL, an unknown argument). */
export function judgeDateDifference(name: string, nodes: readonly Expression[], args: readonly Typed[], isNull: (node: Expression) => boolean, position: TextPosition | undefined): Typed {
  if (nodes.length < 3 || nodes.length > 4) return UNKNOWN;
  for (let i = 0; i < 3; i++) {
    const t = args[i]!;
    if (isNull(nodes[i]!)) continue;
    const refused = i === 0 ? notAUnit(t) : notADate(t);
    if (refused) {
      const node = nodes[i]!;
      const what = t.cls === "string" ? "a Nullable text read per row" : typeName(t);
      throw invalidQuery(`${describe(node)}${at(node.position ?? position)} is ${what}, and ${nameOf(name)} takes ${ROLES[i]} as argument ${i + 1}`, node.position ?? position);
    }
  }
  const zone = nodes.length === 4 ? timeZoneReading(name, nodes[3]!, args[3]!, isNull(nodes[3]!)) : "zone";
  if (zone === "other" || nodes.slice(0, 3).some(isNull)) return UNKNOWN;
  const dated = args.slice(1, 3).every((t) => t.cls === "datetime" || (t.cls === null && t.variant >= 0 && VARIANT_FAMILIES[t.variant] === "datetime"));
  if (!dated || args[0]!.cls !== "string") return UNKNOWN;
  const constant = args.every((t) => t.constant === true) ? true : args.some((t) => t.constant === false) ? false : null;
  return integerTyped(INT64, constant, args.some((t) => t.nullable || (t.cls === null && t.variant >= 0 && VARIANT_MAY_BE_NULL[t.variant]!)));
}
