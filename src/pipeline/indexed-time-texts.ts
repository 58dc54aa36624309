/**
 * Texts compared with the time column in WHERE. Every storage is partitioned by its time column
 * (`toMonday(timestamp)`), so ClickHouse keeps the column's least and greatest value per part,
 * and to skip parts it converts a text compared with the column to a DateTime strictly, before
 * reading a row (readsAsIndexedDateTime): `'31' = timestamp` is code 41 in WHERE, where the
 * comparison alone, in SELECT, reads '31' as a day of the month and answers. So does a text
 * compared with a function the index sees through (`toString(1) = bucketed_time`, which is
 * `toStartOfHour(timestamp)` at GRANULARITY 3600; seed 19), and the column by any name the entity
 * gives it (`timestamp` is finish_ts on discover_transactions; seed 29). The engine refuses it on a table
 * holding rows, which every storage in use does; refused here whatever the rows.
 * test/pipeline/indexed-time-texts.test.ts holds the rule to the embedded engine.
 */
import type { EntityDefinition, StorageDefinition } from "../datasets/definition-types.js";
import { atPosition as at, invalidQuery } from "../errors/query-service-error.js";
import type { Expression, LogicalQuery } from "../query/ast.js";
import { DATE_BUCKET_GRANULARITY } from "../clickhouse/expression-printer.js";
import { memoizePerDefinition } from "../query/memoize-per-definition.js";
import { constantText, readsAsIndexedDateTime } from "./literal-texts.js";

/** Comparisons the index reads a constant beside the column in, either side. */
const COMPARISONS: ReadonlySet<string> = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"]);

/** Functions of a DateTime the index sees through (monotonic), whose result is a DateTime: the text is read as one beside them too. */
const SEEN_THROUGH: ReadonlySet<string> = new Set([
  "toDateTime",
  "toStartOfMinute",
  "toStartOfFiveMinutes",
  "toStartOfTenMinutes",
  "toStartOfFifteenMinutes",
  "toStartOfHour",
  "toStartOfDay",
  "toStartOfInterval",
]);

/**
 * Refuses a text the index cannot read compared with the entity's time column in WHERE (through
 * AND, OR and NOT, where the index looks). Only where the storage is a table partitioned or sorted
 * by the column, a DateTime (a DateTime64 reads fractions, and a view has no index of its own).
 */
export function refuseTextsTheTimeIndexCannotRead(query: LogicalQuery, entity: EntityDefinition, storage: StorageDefinition, aliases: ReadonlyMap<string, Expression>): void {
  if (query.where !== null) judgeWhere(query.where, undefined, query.granularity, entity, storage, aliases);
}

/**
 * The same in a join, side by side: the engine pushes each conjunct of WHERE that reads one side
 * alone down to that side's table, whose index then reads it (`toStartOfHour(e.timestamp) =
 * toString(1)` is code 41 there too). A conjunct that reads both sides is not pushed down, and
 * no index reads it (`g.project_id = 2 OR '1' < e.timestamp` is answered).
 */
export function refuseJoinedTextsTheTimeIndexCannotRead(
  query: LogicalQuery,
  entities: ReadonlyMap<string, EntityDefinition>,
  storages: ReadonlyMap<string, StorageDefinition>,
): void {
  if (query.where === null) return;
  const conjuncts = conjunctsOf(query.where);
  for (const [entityAlias, entity] of entities) {
    const storage = storages.get(entityAlias);
    if (storage === undefined) continue;
    for (const conjunct of conjuncts) if (readsOnly(conjunct, entityAlias)) judgeWhere(conjunct, entityAlias, query.granularity, entity, storage, NO_ALIASES);
  }
}

/** A join's columns are qualified (`e.timestamp`): no SELECT alias stands for one. */
const NO_ALIASES: ReadonlyMap<string, Expression> = new Map();

function conjunctsOf(node: Expression): Expression[] {
  return node.kind === "function" && node.name === "and" ? node.args.flatMap(conjunctsOf) : [node];
}

/** Whether every column the expression reads is one of this join side's (a SELECT alias is none). */
function readsOnly(node: Expression, entityAlias: string): boolean {
  switch (node.kind) {
    case "column":
    case "subscript":
      return node.entityAlias === entityAlias;
    case "function":
      return node.args.every((arg) => readsOnly(arg, entityAlias));
    case "literal":
    case "datetime":
      return true;
    default:
      return false;
  }
}

function judgeWhere(
  where: Expression,
  entityAlias: string | undefined,
  granularity: number | null,
  entity: EntityDefinition,
  storage: StorageDefinition,
  aliases: ReadonlyMap<string, Expression>,
): void {
  const columns = indexedDateTimes(storage);
  if (columns.size === 0) return;
  // A time bucket (`bucketed_time`) is a function of the column the index sees through, but a Date at a day's granularity.
  const buckets = granularity === DATE_BUCKET_GRANULARITY ? NO_BUCKETS : timeBucketsOf(entity);
  const indexed = (node: Expression): boolean => {
    // The column by any name the entity gives it (`timestamp` is `finish_ts` on discover_transactions; seed 29).
    if (node.kind === "column") {
      if (node.entityAlias !== entityAlias || aliases.has(node.name)) return false;
      const stored = storedName(entity, node.name);
      return (stored !== null && columns.has(stored)) || buckets.has(node.name);
    }
    if (node.kind !== "function" || node.args.length === 0) return false;
    if (SEEN_THROUGH.has(node.name)) return indexed(node.args[0]!);
    // `timestamp - 3600`: a number added or taken away.
    return (node.name === "plus" || node.name === "minus") && node.args.length === 2 && indexed(node.args[0]!) && node.args[1]!.kind === "literal" && typeof node.args[1]!.value === "number";
  };
  const judge = (node: Expression): void => {
    if (node.kind !== "function") return;
    if (node.name === "and" || node.name === "or" || node.name === "not") {
      for (const arg of node.args) judge(arg);
      return;
    }
    if (node.args.length !== 2) return;
    const [left, right] = node.args as [Expression, Expression];
    if (COMPARISONS.has(node.name)) {
      if (indexed(left)) refuseUnreadable(right, left);
      else if (indexed(right)) refuseUnreadable(left, right);
    } else if ((node.name === "in" || node.name === "notIn") && indexed(left)) {
      const listed = right.kind === "function" && (right.name === "tuple" || right.name === "array") ? right.args : [right];
      for (const value of listed) refuseUnreadable(value, left);
    }
  };
  judge(where);
}

function refuseUnreadable(value: Expression, compared: Expression): void {
  const text = constantText(value);
  if (text === null || readsAsIndexedDateTime(text)) return;
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  const what = value.kind === "literal" ? `'${shown}'` : `${value.kind === "function" ? `${value.name}(…)` : "the value"} (the text '${shown}')`;
  const column = compared.kind === "column" ? `column ${compared.entityAlias === undefined ? "" : `${compared.entityAlias}.`}${compared.name}` : compared.kind === "function" ? `${compared.name}(…)` : "the time column";
  throw invalidQuery(
    `${what}${at(value.position)} is compared in WHERE with ${column}${at(compared.position)}, which the table's time index covers: ClickHouse reads the text strictly as a datetime there, to skip parts by that index, and cannot read this one; write it as 'YYYY-MM-DD hh:mm:ss', 'YYYY-MM-DD' or a Unix time of 5 digits or more, or use toDateTime('…')`,
    value.position ?? compared.position,
  );
}

/** The storage column an entity column reads: itself, or the one it is renamed to; null where the entity computes it. */
function storedName(entity: EntityDefinition, column: string): string | null {
  const mapper = entity.columnMappers[column];
  return mapper === undefined ? column : mapper.kind === "column" ? mapper.column : null;
}

/**
 * The DateTime columns a storage table keeps an index of: those it is partitioned by, or sorted
 * by bare. None for a view. Read from its keys once per definition.
 */
const indexedDateTimes = memoizePerDefinition((storage: StorageDefinition): ReadonlySet<string> => {
  const indexed = new Set<string>();
  if (storage.view !== undefined) return indexed;
  const bare = (key: string | null, column: string) => key !== null && key.replace(/^\(|\)$/g, "").split(",").some((part) => part.trim() === column);
  for (const { name, type } of storage.columns) {
    if (!/^DateTime(?:\(|$)/.test(type)) continue;
    const word = new RegExp(`(?:^|[^\\w.])${name}(?![\\w.])`);
    if ((storage.partitionBy !== null && word.test(storage.partitionBy)) || bare(storage.orderBy, name) || bare(storage.primaryKey, name)) indexed.add(name);
  }
  return indexed;
});

const NO_BUCKETS: ReadonlySet<string> = new Set();

/** The entity's time buckets of its required time column (`bucketed_time` of `timestamp`), once per definition. */
const timeBucketsOf = memoizePerDefinition(
  (entity: EntityDefinition): ReadonlySet<string> => new Set(Object.entries(entity.timeBucketColumns).flatMap(([name, of]) => (of === entity.requiredTimeColumn ? [name] : []))),
);
