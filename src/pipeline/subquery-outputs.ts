/**
 * A subquery's outputs as the columns of an entity, so the typing pass can judge the outer level
 * (`MATCH { MATCH (groupedmessage) SELECT offset } SELECT count() WHERE offset LIKE '%a%'` reads
 * a UInt64 with like, code 43; seed 22). Each output is a column of the type the pass knows for
 * it on the inner query's entity: a stored column's declared type (a UUID column's, which the
 * SQL selects as its text, a String), else the type its typing names exactly. An output it cannot
 * name is a column of no known type, judged as an unknown column is. A subquery inside a subquery
 * is typed level by level.
 *
 * The outer level is left unjudged (null) where an output may be a constant or a NULL of no type
 * (`SELECT 1 AS x`, `plus(x, NULL) AS y`), which the engine may fold into the outer query where a
 * column is no constant to the pass, or where the inner query is a join or ARRAY JOINs.
 */
import type { ColumnDefinition, EntityDefinition } from "../datasets/definition-types.js";
import { columnsEntity } from "../datasets/columns-entity.js";
import { outputItems, uuidColumns } from "../clickhouse/sql-builder.js";
import { collectAliases } from "./alias-resolution.js";
import { expressionTyping } from "./argument-types.js";
import type { ValidatedSnql } from "./snql-validation.js";
import type { LogicalQuery } from "../query/ast.js";

/** The outputs of the inner query as an entity's columns, or null where the outer level is left unjudged. */
export function subqueryOutputsEntity(inner: ValidatedSnql): EntityDefinition | null {
  switch (inner.kind) {
    case "entity":
    case "storage":
      return outputsEntity(inner.query, inner.entity, uuidColumns(inner.entity));
    case "subquery": {
      // A subquery's own outer level reads its inner outputs, and selects a UUID as it is.
      const below = subqueryOutputsEntity(inner.inner);
      return below === null ? null : outputsEntity(inner.query, below, NO_UUIDS);
    }
    default:
      return null;
  }
}

const NO_UUIDS: ReadonlySet<string> = new Set();

/** The outputs of one query level over its source (an entity, or the outputs below it) as columns. */
function outputsEntity(query: LogicalQuery, source: EntityDefinition, uuids: ReadonlySet<string>): EntityDefinition | null {
  if (query.arrayJoin !== undefined && query.arrayJoin.length > 0) return null;
  const aliases = collectAliases(query);
  const declared = new Map(source.columns.map((column) => [column.name, column.type]));
  const columns: ColumnDefinition[] = [];
  for (const item of outputItems(query, new Set(aliases.keys()))) {
    const typing = expressionTyping(item.expression, source, query.granularity, aliases);
    if (typing.constant !== false || typing.mayBeNothing) return null;
    const expression = item.expression;
    const stored = expression.kind === "column" && expression.entityAlias === undefined && !aliases.has(expression.name) ? expression.name : undefined;
    // A selected UUID column is returned as its dash-less text (selectItem): a String to the outer level.
    const type = stored !== undefined && uuids.has(stored) ? (typing.nullable ? "Nullable(String)" : "String") : ((stored !== undefined ? declared.get(stored) : undefined) ?? typeNameOf(typing));
    if (type !== null) columns.push({ name: item.name, type });
  }
  return columnsEntity("subquery outputs", columns);
}

type Typing = ReturnType<typeof expressionTyping>;

/** The ClickHouse type the typing names exactly, or null (a Variant, an integer or an array of unknown exact type, a state). */
function typeNameOf(typing: Typing): string | null {
  if (typing.variant !== null || typing.alternatives !== null) return null;
  const scalar = scalarTypeNameOf(typing);
  if (scalar !== null) return typing.nullable ? `Nullable(${scalar})` : scalar;
  if (typing.nullable) return null;
  if (typing.cls === "arrayString") return "Array(String)";
  if (typing.cls === "arrayNumber" && typing.elementInteger !== null) return `Array(${typing.elementInteger})`;
  return null;
}

function scalarTypeNameOf(typing: Typing): string | null {
  switch (typing.cls) {
    case "string":
      return "String";
    case "bool":
      return "Bool";
    case "uuid":
      return "UUID";
    case "datetime":
      return "DateTime";
    // A float the pass computes is a Float64 (avg, divide, a float literal's arithmetic).
    case "float64":
      return "Float64";
    case "uint8":
    case "uint32":
    case "int64":
      return typing.integer;
    default:
      return null;
  }
}
