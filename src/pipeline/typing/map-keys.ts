/**
 * `arrayElement(attributes_int, sampling_weight)`: a map is looked up by a value of its key type.
 * Every map the entities store is keyed by String, and ClickHouse refuses any other key type
 * there (a number, a Boolean, a DateTime: code 43), with rows or none, while it may still name
 * the call's type (toTypeName takes it), which is how the probe let numbers through (seed 45). A
 * NULL key is a NULL, and a key of unknown type stays with the engine. An engine test holds it
 * (map-keys.test.ts).
 */
import { atPosition as at, invalidQuery } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { VARIANTS, variantWhat } from "../argument-classes.js";
import { MAP_VARIANT_AT, type Typed } from "./typed-values.js";
import { describe, typeName } from "./messages.js";

export function refuseMapKeyOfOtherType(name: string, args: readonly Expression[], types: readonly Typed[]): void {
  if (name !== "arrayElement" || types.length !== 2) return;
  const [map, key] = types as [Typed, Typed];
  if (map.variant < 0 || !MAP_VARIANT_AT[map.variant]!) return;
  const notText = (t: Typed) => t.variant < 0 && t.cls !== null && t.cls !== "string";
  if (!(notText(key) || (key.cls === null && key.variant < 0 && key.alternatives !== undefined && key.alternatives.length > 0 && key.alternatives.every(notText)))) return;
  const [mapNode, keyNode] = args as [Expression, Expression];
  throw invalidQuery(
    `${describe(keyNode)}${at(keyNode.position)} is ${key.cls !== null ? typeName(key) : "a value of one of some types, none a text"}, and ${describe(mapNode)}${at(mapNode.position)} is ${variantWhat(VARIANTS[map.variant]!)}, keyed by strings: ClickHouse looks a map up only by a value of its key type; write the key as a text ('…')`,
    keyNode.position,
  );
}
