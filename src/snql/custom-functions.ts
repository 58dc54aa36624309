/**
 * Snuba's custom functions: names that are not ClickHouse functions, which an entity's
 * processors expand into ones that are (Snuba's ApdexProcessor, FailureRateProcessor,
 * HandledFunctionsProcessor and DummyHandledFunctionsProcessor). Which an entity has is in its
 * YAML (`custom_functions`); the expansion runs before validation, so what it produces is
 * checked like anything a caller wrote. The expanded node keeps the call's alias and position.
 */
import type { CustomFunctionDefinition, EntityDefinition } from "../datasets/definition-types.js";
import { atPosition as at, invalidQuery } from "../errors/query-service-error.js";
import { mapClauses, mapExpression, queryExpressions, type Expression, type FunctionCallNode, type LogicalQuery } from "../query/ast.js";

/** Every custom function name, and the entity YAML entry that provides it. */
const PROVIDED_BY: Readonly<Record<string, readonly CustomFunctionDefinition["name"][]>> = {
  apdex: ["apdex"],
  failure_rate: ["failure_rate"],
  isHandled: ["handled", "handled_assumed"],
  notHandled: ["handled", "handled_assumed"],
};

/** Span status codes that are not failures (sentry_relay's SPAN_STATUS_NAME_TO_CODE: ok, cancelled, unknown). */
const NOT_FAILED_STATUSES = [0, 1, 2];

export function expandCustomFunctions(query: LogicalQuery, entity: EntityDefinition): LogicalQuery {
  if (!mentionsCustomFunction(query)) return query;
  const expand = (expression: Expression): Expression =>
    mapExpression(expression, (node) => (node.kind === "function" && Object.hasOwn(PROVIDED_BY, node.name) ? expandCall(node, entity) : node));
  return mapClauses(query, expand);
}

function mentionsCustomFunction(query: LogicalQuery): boolean {
  const mentions = (node: Expression): boolean => {
    switch (node.kind) {
      case "function":
        return Object.hasOwn(PROVIDED_BY, node.name) || node.args.some(mentions);
      case "curried":
        return node.params.some(mentions) || node.args.some(mentions);
      case "lambda":
        return mentions(node.body);
      default:
        return false;
    }
  };
  return queryExpressions(query).some(mentions);
}

function expandCall(call: FunctionCallNode, entity: EntityDefinition): Expression {
  const provider = entity.customFunctions.find((custom) => PROVIDED_BY[call.name]!.includes(custom.name));
  if (!provider) {
    throw invalidQuery(`${call.name}() is a Snuba custom function that entity '${entity.name}' does not provide${at(call.position)}`, call.position);
  }
  const position = call.position;
  const fn = (name: string, ...args: Expression[]): FunctionCallNode => ({ kind: "function", name, args, ...(position ? { position } : {}) });
  const literal = (value: number): Expression => ({ kind: "literal", value, ...(position ? { position } : {}) });
  const column = (name: string): Expression => ({ kind: "column", name, ...(position ? { position } : {}) });
  const argument: Expression = { kind: "argument", name: "x" };
  const named = (node: FunctionCallNode): FunctionCallNode => (call.alias === undefined ? node : { ...node, alias: call.alias });
  const arity = (count: number, usage: string) => {
    if (call.args.length !== count) {
      throw invalidQuery(`${call.name}() takes ${count === 0 ? "no arguments" : `${count} arguments`} (${usage}), got ${call.args.length}${at(position)}`, position);
    }
  };
  switch (provider.name) {
    case "apdex": {
      arity(2, "apdex(column, satisfied_threshold)");
      const [target, threshold] = call.args as [Expression, Expression];
      if (target.kind !== "column") throw invalidQuery(`the first argument of apdex() must be a column${at(target.position ?? position)}`, target.position ?? position);
      if (threshold.kind !== "literal" || typeof threshold.value !== "number" || !Number.isInteger(threshold.value)) {
        throw invalidQuery(`the second argument of apdex() must be an integer threshold${at(threshold.position ?? position)}`, threshold.position ?? position);
      }
      const satisfied = fn("countIf", fn("lessOrEquals", target, threshold));
      const tolerated = fn("countIf", fn("and", fn("greater", target, threshold), fn("lessOrEquals", target, fn("multiply", threshold, literal(4)))));
      return named(fn("divide", fn("plus", satisfied, fn("divide", tolerated, literal(2))), fn("count")));
    }
    case "failure_rate": {
      arity(0, "failure_rate()");
      const status = column(provider.column);
      // and(notEquals...) rather than notIn: a NULL status must not make the whole row unknown (as Snuba).
      const [first, ...rest] = NOT_FAILED_STATUSES.map((code) => fn("notEquals", status, literal(code)));
      const failed = rest.reduce<FunctionCallNode>((left, right) => fn("and", left, right), first!);
      return named(fn("divide", fn("countIf", failed), fn("count")));
    }
    case "handled": {
      arity(0, `${call.name}()`);
      const stacks = column(provider.column);
      const body =
        call.name === "isHandled"
          ? fn("or", fn("isNull", argument), fn("notEquals", fn("assumeNotNull", argument), literal(0)))
          : fn("and", fn("isNotNull", argument), fn("equals", fn("assumeNotNull", argument), literal(0)));
      const lambda: Expression = { kind: "lambda", params: ["x"], body, ...(position ? { position } : {}) };
      return named(fn(call.name === "isHandled" ? "arrayAll" : "arrayExists", lambda, stacks));
    }
    case "handled_assumed":
      // Snuba's DummyHandledFunctionsProcessor: entities without stack traces count every event as handled.
      arity(0, `${call.name}()`);
      return named(fn("toUInt8", literal(call.name === "isHandled" ? 1 : 0)));
  }
}
