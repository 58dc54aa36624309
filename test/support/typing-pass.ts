/**
 * The typing pass as the engine tests ask it: does it refuse this expression over these columns?
 */
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { checkExpressionArgumentTypes, expressionTyping } from "../../src/pipeline/argument-types.js";
import type { Expression } from "../../src/query/ast.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import type { ScratchEngine } from "./scratch-engine.js";

/** The pass's refusal of an expression over an entity's columns (its message), or null where it takes it. */
export function passRefusal(expression: Expression, entity: Parameters<typeof checkExpressionArgumentTypes>[1]): string | null {
  try {
    checkExpressionArgumentTypes(expression, entity);
    return null;
  } catch (error) {
    if (error instanceof QueryServiceError) return error.message;
    throw error;
  }
}

/**
 * Each call (SQL over the entity's columns) judged by the pass and run by the engine on `table`:
 * the calls on which the two disagree, said both ways, and how many the pass refused.
 */
export async function passAgainstEngine(engine: ScratchEngine, entity: Parameters<typeof checkExpressionArgumentTypes>[1], calls: Iterable<string>, table: string): Promise<{ wrong: string[]; refused: number }> {
  const wrong: string[] = [];
  let refused = 0;
  for (const sql of calls) {
    const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
    const code = await engine.code(`SELECT ${sql} FROM ${table}`);
    if (refusal !== null) refused++;
    if ((refusal !== null) !== (code !== null)) wrong.push(`${sql}: the pass ${refusal === null ? "takes it" : "refuses it"}, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
  }
  return { wrong, refused };
}

/**
 * Each expression's type as the pass gives it (named by `name`) beside the engine's `toTypeName`
 * of it on `table`, where the two differ; `engineName` trims what the pass does not name (a
 * DateTime's zone).
 */
export async function typesAgainstEngine(
  engine: ScratchEngine,
  entity: Parameters<typeof checkExpressionArgumentTypes>[1],
  expressions: Iterable<string>,
  table: string,
  name: (pass: ReturnType<typeof expressionTyping>) => string,
  engineName: (type: string) => string = (type) => type,
): Promise<string[]> {
  const wrong: string[] = [];
  for (const sql of expressions) {
    const pass = name(expressionTyping(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity));
    const rows = (await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${table}`, format: "JSONEachRow" })).json()) as { t: string }[];
    const type = rows[0]!.t;
    if (pass !== engineName(type)) wrong.push(`${sql}: the engine ${type}, the pass ${pass}`);
  }
  return wrong;
}
