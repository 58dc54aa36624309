/**
 * The parts of an entity's Nested columns (`tags` of type Nested(key String, value String) has
 * `tags.key` and `tags.value`), read from the declared types once per entity definition. The
 * validation's known names and the condition rewrite's array columns both read them here.
 */
import type { EntityDefinition } from "./definition-types.js";
import { memoizePerDefinition } from "./memoize-per-definition.js";

export const nestedColumnParts = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, readonly string[]> => {
  const parts = new Map<string, readonly string[]>();
  for (const column of entity.columns) {
    const nested = /^Nested\((.*)\)$/.exec(column.type);
    if (nested === null) continue;
    const names: string[] = [];
    for (const part of nested[1]!.split(",")) {
      const sub = part.trim().split(/\s+/)[0];
      if (sub) names.push(`${column.name}.${sub}`);
    }
    parts.set(column.name, names);
  }
  return parts;
});
