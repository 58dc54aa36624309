/**
 * Functions whose first argument is of a kind no class of the pass is: a map (`mapKeys`), a tuple
 * (`tupleElement`), an aggregate state of the function a -Merge combinator names (`avgMerge`).
 * The probe, finding every class refused there, could not tell the count from one a type outside
 * its classes takes, and marked it unknown, so such calls went unjudged to the engine. A value of
 * a class there, Nullable or not, is refused (code 43).
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import type { Typed } from "./typed-values.js";
import { describe, nameOf, typeName } from "./messages.js";

/** What each takes first, as a refusal names it, and the counts it takes (other counts are judged as counts). */
const FIRST_OF_NO_CLASS: ReadonlyMap<string, { readonly what: string; readonly counts: readonly number[] }> = new Map([
  ["mapKeys", { what: "a map", counts: [1] }],
  ["mapValues", { what: "a map", counts: [1] }],
  ["mapContains", { what: "a map", counts: [2] }],
  ["tupleElement", { what: "a tuple, or an array of tuples", counts: [2, 3] }],
]);

/** What `name` takes first given `count` arguments, where it is none of the pass's classes, or undefined. */
function kindTakenFirst(name: string, isAggregate: boolean, count: number): string | undefined {
  const container = FIRST_OF_NO_CLASS.get(name);
  if (container !== undefined) return container.counts.includes(count) ? container.what : undefined;
  return isAggregate && name.endsWith("Merge") && count === 1 ? `an aggregate state (AggregateFunction) of ${name.slice(0, -"Merge".length)}` : undefined;
}

/**
 * Refuses a first argument of a class where `name` takes a kind no class is (a NULL is left to
 * the engine: `mapKeys(NULL)` is answered). A state is left too: the pass does not tell a state's
 * function, which -Merge needs to match.
 */
export function refuseClassWhereNoneFits(name: string, isAggregate: boolean, nodes: readonly Expression[], args: readonly Typed[], isNull: (node: Expression) => boolean, position: TextPosition | undefined): void {
  if (nodes.length === 0) return;
  const t = args[0]!;
  if (t.cls === null || t.cls === "aggregateState" || t.variant >= 0 || t.alternatives !== undefined) return;
  const what = kindTakenFirst(name, isAggregate, nodes.length);
  if (what === undefined || isNull(nodes[0]!)) return;
  const first = nodes[0]!;
  throw invalidQuery(`${describe(first)}${at(first.position ?? position)} is ${typeName(t)}, and ${nameOf(name)} takes ${what} as its first argument`, first.position ?? position);
}
