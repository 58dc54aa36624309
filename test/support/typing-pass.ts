/**
 * The typing pass as the engine tests ask it: does it refuse this expression over these columns?
 */
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { checkExpressionArgumentTypes } from "../../src/pipeline/argument-types.js";
import type { Expression } from "../../src/query/ast.js";

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
