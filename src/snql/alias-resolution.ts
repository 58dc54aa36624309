/**
 * Snuba's one rule for names that are both an alias and a column (its parser's
 * `AliasExpanderVisitor`), applied once to a query level before validation:
 *
 * - A bare column whose name an alias declares refers to that alias (`WHERE c > 1` with
 *   `count() AS c`), wherever it stands...
 * - ...except inside the definition of that very alias, as its innermost alias: there it is the
 *   column itself (`toString(partition) AS partition`, `sum(value) AS value`, `profile_id AS
 *   profile_id`). Such a node is marked `insideOwnAlias`, and every later stage (validation,
 *   the SQL printer) reads it as the column.
 * - Any other way back into an alias being defined is a cycle (`f(b) AS a, g(a) AS b`,
 *   `f(g(a) AS b) AS a`): an `invalid_query` that names it, where ClickHouse would fail.
 */
import { invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import { mapClauses, queryExpressions, visitExpression, type ColumnNode, type Expression, type LogicalQuery } from "../query/ast.js";

interface AliasDefinition {
  /** The expression the alias names (for a function: the function node itself). */
  readonly expression: Expression;
  readonly position?: TextPosition;
}

export function resolveAliases(query: LogicalQuery): LogicalQuery {
  const definitions = aliasDefinitions(query);
  if (definitions.size === 0) return query;
  const references = new Map<string, Set<string>>();
  let selfReferences = false;
  for (const [alias, definition] of definitions) {
    const referenced = new Set<string>();
    const walk = (node: Expression, root: boolean): void => {
      switch (node.kind) {
        case "column":
          if (node.entityAlias !== undefined || !definitions.has(node.name)) return;
          if (node.name === alias) selfReferences = true;
          else referenced.add(node.name);
          return;
        case "function":
        case "curried":
          if (!root && node.alias !== undefined) {
            // A nested alias is a definition of its own: what it reads is its own edge.
            referenced.add(node.alias);
            return;
          }
          if (node.kind === "curried") for (const param of node.params) walk(param, false);
          for (const arg of node.args) walk(arg, false);
          return;
        case "lambda":
          walk(node.body, false);
          return;
        default:
          return;
      }
    };
    walk(definition.expression, true);
    references.set(alias, referenced);
  }
  refuseCycles(definitions, references);
  return selfReferences ? markOwnColumns(query, definitions) : query;
}

/**
 * Alias -> what it names: `expr AS name` on a select item, and every aliased function, the first
 * definition of each name. A select item that is the bare name it is aliased to (`time AS time`)
 * selects that alias again where another definition names it (`(argMax(t, r)) AS time, time AS
 * time`, as the SQL reads it), and is the column itself only where none does. Validation, typing
 * and this rule read the same map.
 */
export function collectAliases(query: LogicalQuery): Map<string, Expression> {
  const aliases = new Map<string, Expression>();
  const reselections: { readonly alias: string; readonly expression: Expression }[] = [];
  for (const item of query.selected) {
    if (item.alias === undefined) continue;
    const { expression } = item;
    if (expression.kind === "column" && expression.entityAlias === undefined && expression.name === item.alias) reselections.push({ alias: item.alias, expression });
    else if (!aliases.has(item.alias)) aliases.set(item.alias, expression);
  }
  for (const expression of queryExpressions(query)) {
    visitExpression(expression, (node) => {
      if ((node.kind === "function" || node.kind === "curried") && node.alias !== undefined && !aliases.has(node.alias)) aliases.set(node.alias, node);
    });
  }
  for (const { alias, expression } of reselections) if (!aliases.has(alias)) aliases.set(alias, expression);
  return aliases;
}

function aliasDefinitions(query: LogicalQuery): Map<string, AliasDefinition> {
  const definitions = new Map<string, AliasDefinition>();
  for (const [alias, expression] of collectAliases(query)) definitions.set(alias, { expression, position: expression.position });
  return definitions;
}

/** Depth-first over the alias graph; the first cycle found is the error, path and all. */
function refuseCycles(definitions: ReadonlyMap<string, AliasDefinition>, references: ReadonlyMap<string, ReadonlySet<string>>): void {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (alias: string): void => {
    if (done.has(alias)) return;
    if (onPath.has(alias)) {
      const cycle = [...path.slice(path.indexOf(alias)), alias];
      const position = definitions.get(cycle[0]!)?.position;
      const where = position ? ` at line ${position.line}, column ${position.column}` : "";
      throw invalidQuery(`cyclic aliases: ${cycle.join(" -> ")}${where}; an alias cannot be defined through itself`, position);
    }
    onPath.add(alias);
    path.push(alias);
    for (const next of references.get(alias) ?? []) visit(next);
    path.pop();
    onPath.delete(alias);
    done.add(alias);
  };
  for (const alias of definitions.keys()) visit(alias);
}

/** The query with every column that its own alias shadows marked as the column itself. */
function markOwnColumns(query: LogicalQuery, definitions: ReadonlyMap<string, AliasDefinition>): LogicalQuery {
  const mark = (node: Expression, innermost: string | undefined): Expression => {
    switch (node.kind) {
      case "column":
        if (node.entityAlias === undefined && node.name === innermost && definitions.has(node.name)) {
          const own: ColumnNode = { ...node, insideOwnAlias: true };
          return own;
        }
        return node;
      case "function": {
        const scope = node.alias ?? innermost;
        return { ...node, args: node.args.map((arg) => mark(arg, scope)) };
      }
      case "curried": {
        const scope = node.alias ?? innermost;
        return { ...node, params: node.params.map((param) => mark(param, scope)), args: node.args.map((arg) => mark(arg, scope)) };
      }
      case "lambda":
        return { ...node, body: mark(node.body, innermost) };
      default:
        return node;
    }
  };
  // A SELECT item's own alias is the innermost alias of its expression.
  return mapClauses(query, (node) => mark(node, undefined), (node, item) => mark(node, item.alias));
}
