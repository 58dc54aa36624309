/**
 * Validation of every SnQL source (`MATCH (entity)`, `MATCH STORAGE(name)`, joins, subqueries)
 * against the YAML definitions. Single entities use `entity-validation.ts`; this file adds the
 * other sources: a storage is checked as an entity made of its own columns, a join per entity
 * alias (as Snuba), a subquery recursively with the outer level reading the inner outputs.
 */
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import type { EntityDefinition, StorageDefinition } from "../datasets/definition-types.js";
import { atPosition as at, invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import {
  mapClauses,
  mapExpression,
  queryExpressions,
  type Expression,
  type JoinSource,
  type LogicalQuery,
  type SubquerySource,
} from "../query/ast.js";
import { ownProperty } from "../query/own-property.js";
import { didYouMean } from "./did-you-mean.js";
import {
  checkClauses,
  checkExpressions,
  checkSubscriptable,
  checkLiteralTypes,
  knownColumnNames,
  requireColumns,
  requireTimeRange,
  validateAgainstEntity,
  validateEntityQuery,
  type TimeRange,
} from "./entity-validation.js";
import { collectAliases, resolveAliases } from "./alias-resolution.js";
import { storageAsEntity } from "./storage-entity.js";

export type ValidatedSnql =
  | {
      readonly kind: "entity" | "storage";
      readonly query: LogicalQuery;
      /** For a storage: the storage's columns as an entity (no mappers). */
      readonly entity: EntityDefinition;
      readonly storage: StorageDefinition;
      readonly aliases: ReadonlySet<string>;
      readonly timeRange: TimeRange | null;
    }
  | {
      readonly kind: "join";
      /** The query with every column qualified by its entity alias. */
      readonly query: LogicalQuery;
      readonly source: JoinSource;
      /** Entity alias -> entity, in the order the join names them. */
      readonly entities: ReadonlyMap<string, EntityDefinition>;
      readonly storages: ReadonlyMap<string, StorageDefinition>;
      readonly aliases: ReadonlySet<string>;
    }
  | {
      readonly kind: "subquery";
      readonly query: LogicalQuery;
      readonly inner: ValidatedSnql;
      readonly aliases: ReadonlySet<string>;
    };

function readableStorage(definitions: DefinitionLookup, entity: EntityDefinition): StorageDefinition {
  const storage = definitions.storage(entity.readableStorage);
  if (!storage) throw invalidQuery(`entity '${entity.name}' names a missing storage '${entity.readableStorage}'`);
  return storage;
}

function requireEntity(definitions: DefinitionLookup, name: string, position: TextPosition | undefined): EntityDefinition {
  const entity = definitions.entity(name);
  if (entity) return entity;
  const names = definitions.entities().map((e) => e.name);
  throw invalidQuery(`entity '${name}' does not exist${at(position)}${didYouMean(name, names)}`, position);
}

export function validateSnqlQuery(parsed: LogicalQuery, definitions: DefinitionLookup): ValidatedSnql {
  const query = resolveAliases(parsed);
  switch (query.from.kind) {
    case "entity": {
      const validated = validateEntityQuery(query, definitions);
      const storage = readableStorage(definitions, validated.entity);
      return { kind: "entity", query: validated.query, entity: validated.entity, storage, aliases: new Set(validated.aliases.keys()), timeRange: validated.timeRange };
    }
    case "storage": {
      const storage = definitions.storage(query.from.name);
      if (!storage) {
        const names = new Set(definitions.entities().flatMap((e) => [e.readableStorage, ...(e.writableStorage ? [e.writableStorage] : [])]));
        throw invalidQuery(`storage '${query.from.name}' does not exist${at(query.from.position)}${didYouMean(query.from.name, names)}`, query.from.position);
      }
      const entity = storageAsEntity(storage);
      const validated = validateAgainstEntity(query, entity, "storage");
      return { kind: "storage", query: validated.query, entity, storage, aliases: new Set(validated.aliases.keys()), timeRange: validated.timeRange };
    }
    case "join":
      return validateJoin(query, query.from, definitions);
    case "subquery":
      return validateSubquery(query, query.from, definitions);
  }
}

/**
 * `e.project_id` arrives as one identifier; in a join it is column `project_id` of alias `e`.
 * Unqualified names must be aliases the query declares (as Snuba's `_qualify_columns`).
 */
function qualifyColumns(query: LogicalQuery, entityAliases: ReadonlySet<string>, declared: ReadonlySet<string>): LogicalQuery {
  const qualify = (expression: Expression): Expression =>
    mapExpression(expression, (node) => {
      if (node.kind !== "column" && node.kind !== "subscript") return node;
      const name = node.kind === "column" ? node.name : node.column;
      const dot = name.indexOf(".");
      const prefix = dot > 0 ? name.slice(0, dot) : "";
      if (entityAliases.has(prefix)) {
        const rest = name.slice(dot + 1);
        return node.kind === "column" ? { ...node, name: rest, entityAlias: prefix } : { ...node, column: rest, entityAlias: prefix };
      }
      if (node.kind === "column" && declared.has(name)) return node;
      throw invalidQuery(
        `column ${name} must be qualified in a join query${at(node.position)}: write <alias>.${name} with one of the aliases ${[...entityAliases].join(", ")}`,
        node.position,
      );
    });
  return mapClauses(query, qualify);
}

function validateJoin(original: LogicalQuery, source: JoinSource, definitions: DefinitionLookup): ValidatedSnql {
  const entities = new Map<string, EntityDefinition>();
  const storages = new Map<string, StorageDefinition>();
  for (const node of source.entities) {
    const entity = requireEntity(definitions, node.entity, node.position);
    entities.set(node.alias, entity);
    storages.set(node.alias, readableStorage(definitions, entity));
  }
  for (const edge of source.edges) {
    const lhs = entities.get(edge.lhs)!;
    const rhs = entities.get(edge.rhs)!;
    const relationship = ownProperty(lhs.joinRelationships, edge.relationship);
    if (!relationship) {
      const declared = Object.keys(lhs.joinRelationships);
      throw invalidQuery(
        `ParsingException: ${lhs.name} does not have a join relationship -[${edge.relationship}]->${at(edge.position)}${didYouMean(edge.relationship, declared)}; declared: ${declared.join(", ") || "none"}`,
        edge.position,
      );
    }
    if (relationship.rhsEntity !== rhs.name) {
      throw invalidQuery(
        `ParsingException: -[${edge.relationship}]-> cannot be used to join ${lhs.name} to ${rhs.name}${at(edge.position)}; it joins ${lhs.name} to ${relationship.rhsEntity}`,
        edge.position,
      );
    }
  }
  const declaredAliases = collectAliases(original);
  const query = qualifyColumns(original, new Set(entities.keys()), new Set(declaredAliases.keys()));
  checkExpressions(query, (node) => {
    if (node.entityAlias === undefined) return; // a declared alias (checked by qualifyColumns)
    const entity = entities.get(node.entityAlias)!;
    if (node.kind === "subscript") {
      checkSubscriptable(node, entity, "entity");
      return;
    }
    const known = knownColumnNames(entity);
    if (!known.has(node.name)) {
      throw invalidQuery(
        `column '${node.entityAlias}.${node.name}' does not exist on entity '${entity.name}'${at(node.position)}${didYouMean(node.name, known)}`,
        node.position,
      );
    }
  });
  checkClauses(query, declaredAliases);
  const typed = checkLiteralTypes(query, (alias) => (alias === undefined ? undefined : entities.get(alias)));
  for (const [alias, entity] of entities) {
    const position = source.entities.find((node) => node.alias === alias)?.position;
    if (entity.requiredTimeColumn) requireTimeRange(typed, entity, "entity", alias, position);
    requireColumns(typed, entity, alias, position);
  }
  return { kind: "join", query: typed, source, entities, storages, aliases: new Set(declaredAliases.keys()) };
}

function validateSubquery(query: LogicalQuery, source: SubquerySource, definitions: DefinitionLookup): ValidatedSnql {
  const inner = validateSnqlQuery(source.query, definitions);
  const outputs = new Set(source.query.selected.map((item) => item.name));
  const aliases = collectAliases(query);
  checkExpressions(query, (node) => {
    if (node.kind === "subscript") {
      throw invalidQuery(
        `'${node.column}[${node.key}]'${at(node.position)}: the outer query of a subquery reads the subquery's output columns; select the subscript in the subquery with an alias`,
        node.position,
      );
    }
    if (!outputs.has(node.name) && (node.insideOwnAlias || !aliases.has(node.name))) {
      throw invalidQuery(
        `column '${node.name}' is not an output of the subquery${at(node.position)}${didYouMean(node.name, outputs)}; outputs: ${[...outputs].join(", ")}`,
        node.position,
      );
    }
  });
  checkClauses(query, aliases);
  if (query.granularity !== null && queryExpressions(query).length > 0 && query.from.kind === "subquery") {
    // GRANULARITY buckets an entity's time column; the outer level has none.
    throw invalidQuery("GRANULARITY applies to the query that reads the entity: move it into the subquery");
  }
  return { kind: "subquery", query, inner, aliases: new Set(aliases.keys()) };
}

/** The storage a prepared query is admitted against: the left-most entity's for a join, the innermost's for a subquery. */
export function primaryStorage(validated: ValidatedSnql): StorageDefinition {
  switch (validated.kind) {
    case "entity":
    case "storage":
      return validated.storage;
    case "join":
      return validated.storages.values().next().value!;
    case "subquery":
      return primaryStorage(validated.inner);
  }
}

/** The entity name recorded for the query (the left-most / innermost one). */
export function primaryEntityName(validated: ValidatedSnql): string {
  switch (validated.kind) {
    case "entity":
    case "storage":
      return validated.entity.name;
    case "join":
      return validated.entities.values().next().value!.name;
    case "subquery":
      return primaryEntityName(validated.inner);
  }
}
