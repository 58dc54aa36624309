/**
 * TraceItemFilter → a SQL condition (facts B8.6; Snuba's semantics for absent attributes).
 *
 * A map attribute is read with its existence check beside it, so an absent attribute never
 * matches by accident through its default ('' / 0): `=`, `<`, `LIKE`, `IN` need the attribute to
 * exist, and their negations (`!=`, `NOT LIKE`, `NOT IN`) hold for an item without it. `= null`
 * means "absent", `!= null` "present". Every value is written as an escaped literal.
 */
import { formatNumber, quoteString } from "../clickhouse/escaping.js";
import type { AttributeValue } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { ComparisonFilter_Op, ComparisonFilter_OpSchema, type ComparisonFilter, type TraceItemFilter } from "../../gen/sentry_protos/snuba/v1/trace_item_filter_pb.js";
import { attributeSql, type AttributeSql, type ScalarKind } from "./attribute-sql.js";
import { badRpcRequest, enumName } from "./rpc-request-error.js";

/** How deep filters may nest: deeper trees are refused rather than walked (they come from the wire). */
const MAX_FILTER_DEPTH = 64;

/** The condition of a filter; an absent filter is `1` (true). */
export function filterSql(filter: TraceItemFilter | undefined, depth = 0): string {
  if (depth > MAX_FILTER_DEPTH) throw badRpcRequest(`the filter nests deeper than ${MAX_FILTER_DEPTH} levels`);
  const value = filter?.value;
  switch (value?.case) {
    case undefined:
      return "1";
    case "andFilter": {
      const parts = value.value.filters.map((f) => filterSql(f, depth + 1));
      return parts.length === 0 ? "1" : parts.length === 1 ? parts[0]! : `(${parts.join(" AND ")})`;
    }
    case "orFilter": {
      if (value.value.filters.length === 0) throw badRpcRequest("Invalid trace item filter, empty 'or' clause");
      const parts = value.value.filters.map((f) => filterSql(f, depth + 1));
      return parts.length === 1 ? parts[0]! : `(${parts.join(" OR ")})`;
    }
    case "notFilter": {
      // NOT of several filters is NOT of their AND.
      if (value.value.filters.length === 0) throw badRpcRequest("Invalid trace item filter, empty 'not' clause");
      const parts = value.value.filters.map((f) => filterSql(f, depth + 1));
      return `NOT (${parts.join(" AND ")})`;
    }
    case "existsFilter":
      return attributeSql(value.value.key).exists;
    case "comparisonFilter":
      return comparisonSql(value.value);
    case "anyAttributeFilter":
      throw badRpcRequest("any_attribute_filter is not supported by Quarry's time-series endpoint");
  }
}

function comparisonSql(comparison: ComparisonFilter): string {
  const attribute = attributeSql(comparison.key);
  const name = comparison.key!.name;
  const value = comparison.value;
  if (!value || (value.value.case === undefined && !value.isNull)) throw badRpcRequest("comparison does not have a right hand side");
  const op = comparison.op;
  const opName = enumName(ComparisonFilter_OpSchema, op);
  const isNull = value.isNull || value.value.case === "valNull";

  if (isNull) {
    if (op === ComparisonFilter_Op.EQUALS) return `NOT ${attribute.exists}`;
    if (op === ComparisonFilter_Op.NOT_EQUALS) return attribute.exists;
    throw badRpcRequest(`${opName} cannot compare attribute ${name} with null: use OP_EQUALS or OP_NOT_EQUALS`);
  }
  const ignoreCase = comparison.ignoreCase;
  if (ignoreCase && !isStringValue(value)) throw badRpcRequest("Cannot ignore case on non-string values");
  const lhs = ignoreCase ? `lower(${attribute.value})` : attribute.value;
  const guarded = (condition: string) => (attribute.exists === "1" ? condition : `(${attribute.exists} AND ${condition})`);
  const negated = (condition: string) => `NOT ${guarded(condition)}`;

  switch (op) {
    case ComparisonFilter_Op.EQUALS:
      return guarded(`${lhs} = ${scalarLiteral(value, attribute, name, ignoreCase)}`);
    case ComparisonFilter_Op.NOT_EQUALS:
      return negated(`${lhs} = ${scalarLiteral(value, attribute, name, ignoreCase)}`);
    case ComparisonFilter_Op.LESS_THAN:
    case ComparisonFilter_Op.LESS_THAN_OR_EQUALS:
    case ComparisonFilter_Op.GREATER_THAN:
    case ComparisonFilter_Op.GREATER_THAN_OR_EQUALS:
      return guarded(`${lhs} ${ORDERING[op]} ${scalarLiteral(value, attribute, name, ignoreCase)}`);
    case ComparisonFilter_Op.LIKE:
    case ComparisonFilter_Op.NOT_LIKE: {
      if (attribute.kind !== "string") throw badRpcRequest(`the ${op === ComparisonFilter_Op.LIKE ? "LIKE" : "NOT LIKE"} comparison is only supported on string and array keys`);
      const like = `${ignoreCase ? "ilike" : "like"}(${attribute.value}, ${scalarLiteral(value, attribute, name, false)})`;
      return op === ComparisonFilter_Op.LIKE ? guarded(like) : negated(like);
    }
    case ComparisonFilter_Op.IN:
    case ComparisonFilter_Op.NOT_IN: {
      const list = arrayLiteral(value, attribute, name, ignoreCase);
      // An empty list matches nothing (and its negation everything).
      const membership = list === null ? "0" : `${lhs} IN ${list}`;
      return op === ComparisonFilter_Op.IN ? guarded(membership) : negated(membership);
    }
    case ComparisonFilter_Op.HAS_ANY:
    case ComparisonFilter_Op.HAS_ALL:
      throw badRpcRequest("OP_HAS_ANY/OP_HAS_ALL are only supported on array keys");
    default:
      throw badRpcRequest(`Invalid comparison on attribute ${name}, unknown op: ${opName}`);
  }
}

const ORDERING: Partial<Record<ComparisonFilter_Op, string>> = {
  [ComparisonFilter_Op.LESS_THAN]: "<",
  [ComparisonFilter_Op.LESS_THAN_OR_EQUALS]: "<=",
  [ComparisonFilter_Op.GREATER_THAN]: ">",
  [ComparisonFilter_Op.GREATER_THAN_OR_EQUALS]: ">=",
};

function isStringValue(value: AttributeValue): boolean {
  const v = value.value;
  if (v.case === "valStr" || v.case === "valStrArray") return true;
  if (v.case === "valArray") return v.value.values.every((x) => x.value.case === "valStr");
  return false;
}

/** One scalar value as a literal of the attribute's kind; a value of another kind is refused. */
function scalarLiteral(value: AttributeValue, attribute: AttributeSql, name: string, lower: boolean): string {
  const v = value.value;
  switch (v.case) {
    case "valStr":
      requireKind(attribute.kind, ["string"], name, "val_str");
      return quoteString(lower ? v.value.toLowerCase() : v.value);
    case "valInt":
      requireKind(attribute.kind, ["int", "double", "bool"], name, "val_int");
      return v.value.toString();
    case "valDouble":
    case "valFloat":
      requireKind(attribute.kind, ["int", "double"], name, v.case === "valDouble" ? "val_double" : "val_float");
      return numberLiteral(v.value);
    case "valBool":
      requireKind(attribute.kind, ["bool"], name, "val_bool");
      return v.value ? "true" : "false";
    default:
      throw badRpcRequest(`attribute ${name} is compared with a list: use OP_IN or OP_NOT_IN`);
  }
}

/** A list value as a SQL array literal, or null when it is empty. */
function arrayLiteral(value: AttributeValue, attribute: AttributeSql, name: string, lower: boolean): string | null {
  const v = value.value;
  let items: string[];
  switch (v.case) {
    case "valStrArray":
      requireKind(attribute.kind, ["string"], name, "val_str_array");
      items = v.value.values.map((s) => quoteString(lower ? s.toLowerCase() : s));
      break;
    case "valIntArray":
      requireKind(attribute.kind, ["int", "double"], name, "val_int_array");
      items = v.value.values.map((n) => n.toString());
      break;
    case "valDoubleArray":
    case "valFloatArray":
      requireKind(attribute.kind, ["int", "double"], name, v.case === "valDoubleArray" ? "val_double_array" : "val_float_array");
      items = v.value.values.map(numberLiteral);
      break;
    case "valArray":
      items = v.value.values.map((element) => scalarLiteral(element, attribute, name, lower));
      break;
    default:
      throw badRpcRequest(`OP_IN and OP_NOT_IN on attribute ${name} need a list value (val_array or val_str_array, val_int_array, val_double_array)`);
  }
  return items.length === 0 ? null : `(${items.join(", ")})`;
}

function numberLiteral(n: number): string {
  if (!Number.isFinite(n)) throw badRpcRequest(`the value ${n} cannot be compared: only finite numbers can`);
  return formatNumber(n);
}

function requireKind(kind: ScalarKind, allowed: readonly ScalarKind[], name: string, valueCase: string): void {
  if (!allowed.includes(kind)) throw badRpcRequest(`attribute ${name} holds ${kind} values and cannot be compared with a ${valueCase}`);
}
