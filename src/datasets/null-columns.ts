/**
 * The columns an entity computes as a bare NULL: those it maps to a NULL literal, such as the
 * columns one half of discover lacks (`exception_stacks.*` on transactions). Their type in the SQL
 * is Nullable(Nothing), whatever the entity declares, so an array condition on one is its
 * constant answer (snql-array-conditions.ts).
 */
import type { EntityDefinition } from "./definition-types.js";
import { memoizePerDefinition } from "./memoize-per-definition.js";

export const nullColumns = memoizePerDefinition((entity: EntityDefinition): ReadonlySet<string> => {
  const names = new Set<string>();
  for (const [name, mapper] of Object.entries(entity.columnMappers)) if (mapper.kind === "literal" && mapper.value === null) names.add(name);
  return names;
});
