/**
 * Conditions and the logical functions: what AND, OR and IN make where the probe's rules do not
 * say (a UInt8 or a Bool, Nullable or not), numbers beside a Boolean, an -If aggregate's
 * condition, and the floats ClickHouse cannot convert to a condition.
 */
import { atPosition as at, invalidQuery } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import type { ArgumentClass } from "../argument-classes.js";
import { literalClass, constnessIndex, typed, isPlainNumber, NUMBER_CLASSES, NULLABLE_NUMBER_CLASSES, type Typed } from "./typed-values.js";
import { describe, nameOf } from "./messages.js";
import type { FunctionFacts } from "./function-facts.js";

/**
 * A condition whose operands' types the pass does not know (`a AND x IN now()`): one of these
 * classes, Nullable or not, each judged in turn where it is used, refused only where none is
 * taken (`arrayElement(a AND b, 1)`, `toStartOfHour(x IN c AND d)`). An engine test holds the
 * engine's type of such conditions to one of them.
 */
function conditionsOf(classes: readonly ArgumentClass[]): readonly Typed[] {
  return [true, false, null].map((constant) => ({ cls: null, index: -1, constant, nullable: false, variant: -1, alternatives: classes.flatMap((cls) => [typed(cls, constant), typed(cls, constant, true)]) }));
}
const UINT8_CONDITIONS = conditionsOf(["uint8"]);
const BOOL_CONDITIONS = conditionsOf(["bool"]);
const ANY_CONDITIONS = conditionsOf(["uint8", "bool"]);
/** The alternatives of a UInt8 condition (an alias's type keeps them, not the object). */
export const UINT8_CONDITION_ALTERNATIVES: ReadonlySet<readonly Typed[] | undefined> = new Set(UINT8_CONDITIONS.map((t) => t.alternatives));

/**
 * What an AND, OR or IN of these operands is, where the probe's rules do not say: IN a UInt8
 * (`b IN (1)` of a Bool too); AND and OR a Bool where an operand is one (`b AND 1`), a UInt8
 * where every operand has a class (or is such a condition), else either. Nullable or not.
 */
export function condition(name: string, args: readonly Typed[], constant: boolean | null): Typed {
  const logical = LOGICAL_FUNCTIONS.has(name);
  const conditions = !logical
    ? UINT8_CONDITIONS
    : args.some((t) => t.cls === "bool")
      ? BOOL_CONDITIONS
      : args.every((t) => t.cls !== null || (t.alternatives !== undefined && UINT8_CONDITION_ALTERNATIVES.has(t.alternatives)))
        ? UINT8_CONDITIONS
        : ANY_CONDITIONS;
  return conditions[constnessIndex(constant)]!;
}

/**
 * `greatest(click_is_rage, TRUE, 2 + x)`: numbers with a Boolean among them are a number, but
 * which one the engine's rules for Bool decide (`greatest(TRUE, 1)` is a UInt8, `greatest(TRUE,
 * 1, 2)` a Bool, with a UInt16 a UInt16): one of the number classes, each judged in turn where
 * it is used, refused only where none is taken (`greatest(TRUE, 1) >= event_id`); Nullable
 * ones where any argument is Nullable. With a value of another type among them, no type. An
 * engine test holds the engine's result to one of them.
 */
export function numbersWithBool(args: readonly Typed[], constant: boolean | null): Typed {
  if (!args.every(isPlainNumber)) return typed(null, constant);
  return { cls: null, index: -1, constant, nullable: false, variant: -1, alternatives: args.some((t) => t.nullable) ? NULLABLE_NUMBER_CLASSES : NUMBER_CLASSES };
}

/** An aggregate with the -If combinator (`sumIf(x, c)`), called with a value and its condition. */
export function isIfAggregate(name: string, facts: FunctionFacts, count: number): boolean {
  return facts.aggregate && count >= 2 && name.endsWith("If");
}

/** What an -If aggregate's NULL condition counts as for the call's type: a UInt8 column (an engine test holds the types alike). */
export const CONDITION = typed("uint8", false);
export const BOOL_CONSTANT = typed("bool", true);

export const LOGICAL_FUNCTIONS: ReadonlySet<string> = new Set(["and", "or"]);

/**
 * A float other than 0 or 1 among the operands of AND or xor (`c AND 2.5`), or of an OR of
 * constants alone (`8.70503 IS NULL OR 54839.27`; seed 16): ClickHouse fails to convert it to a
 * condition while it plans the query (code 70, whatever the rows). Beside a column, OR reads it
 * as a condition and answers. An engine test holds it (logical-floats.test.ts).
 */
export function refuseFloatAmongConditions(name: string, args: readonly Expression[], types: readonly Typed[], grouped: boolean): void {
  if (args.length < 2 || (name === "or" && !types.every((t) => t.constant === true))) return;
  // A whole float (`2.0`) is printed as the integer it is, which the engine takes; past the
  // integers' range (`1e+30`) it is a Float64 again.
  let found: Expression | null = null;
  for (let i = 0; i < args.length && found === null; i++) found = foldedFloat(args[i]!, grouped);
  if (found === null) return;
  throw invalidQuery(
    `${describe(found)}${at(found.position)} is a float other than 0 or 1, and ${nameOf(name)}${name === "or" ? " of constants alone" : ""} converts it to a condition while the query is planned, which ClickHouse cannot do; compare it (${describe(found)} != 0)`,
    found.position,
  );
}

/** Aggregates the analyzer replaces by their argument where it is a constant, in a query that groups BY keys (`min(2.5)` is 2.5; seed 31). */
const FOLDED_OF_CONSTANT: ReadonlySet<string> = new Set(["min", "max", "any", "anyLast"]);

/** A float literal other than 0 or 1, or such an aggregate of one, as the engine sees it; else null. */
function foldedFloat(arg: Expression, grouped: boolean): Expression | null {
  if (grouped && arg.kind === "function" && FOLDED_OF_CONSTANT.has(arg.name) && arg.args.length === 1) return foldedFloat(arg.args[0]!, grouped);
  return arg.kind === "literal" && typeof arg.value === "number" && (arg.value < 0 || arg.value > 1) && literalClass(arg.value, arg.digits) === "float64" ? arg : null;
}

/**
 * `and(NULL, x)`, `or(a, NULL, b)`: a Nullable(UInt8) where the other values are numbers (or
 * NULLs too), whatever the NULL would make of most functions; a Nullable(Bool) where one of them
 * is a Bool that is not Nullable (`and(NULL, TRUE)`, and a constant-folded comparison on discover:
 * `like(s, (stack_level = 0) AND NULL)` is refused, code 43). A Nullable(Bool) alone makes no Bool
 * (`and(toNullable(TRUE), NULL)` is a Nullable(UInt8)). Beside a value of unknown type, no class.
 * An engine test holds it to the engine's result types.
 */
export function logicalBesideNull(others: readonly Typed[], constant: boolean | null): Typed {
  for (const t of others) if (!isPlainNumber(t)) return typed(null, constant);
  return typed(others.some((t) => t.cls === "bool" && !t.nullable) ? "bool" : "uint8", constant, true);
}
