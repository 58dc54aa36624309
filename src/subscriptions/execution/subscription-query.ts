/**
 * A subscription's query, parsed and validated once (at creation and when a scheduler loads it),
 * then turned into SQL for each window. Each run ANDs Snuba's conditions onto the stored WHERE
 * (facts B6.4): `project_id = P`, `<time column> >= T − W`, `<time column> < T`, and
 * `<organization column> = O` on metrics entities. Only the two datetimes change between runs,
 * so validation is not repeated; translation (microseconds) is.
 */
import type { DefinitionLookup } from "../../datasets/definition-lookup.js";
import type { EntityDefinition, StorageDefinition } from "../../datasets/definition-types.js";
import { invalidQuery } from "../../errors/query-service-error.js";
import type { Expression, LogicalQuery } from "../../query/ast.js";
import type { PreparedQuery } from "../../query/prepared-query.js";
import { prepareValidatedSnql } from "../../snql/run-snql-query.js";
import { validateSnqlQuery } from "../../snql/validation.js";
import { parseSnql } from "../../snql/parse-snql.js";
import type { Subscription } from "../store/subscription.js";
import { checkSubscriptionQuery } from "../store/subscription-rules.js";
import type { TimeSeriesRequest } from "../../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { prepareTimeSeries } from "../../rpc/run-time-series.js";
import { checkRpcSubscription, decodeTimeSeriesRequest, windowTimeSeriesRequest } from "../store/rpc-subscription.js";
import { EXECUTOR_REFERRER } from "./executor.js";

/** A subscription ready to run windows: its SnQL parsed and validated, or its TimeSeriesRequest decoded and checked. */
export type CompiledSubscription = CompiledSnqlSubscription | CompiledRpcSubscription;

export interface CompiledRpcSubscription {
  readonly kind: "rpc";
  readonly subscription: Subscription;
  readonly entity: EntityDefinition;
  /** The stored request (no window). */
  readonly request: TimeSeriesRequest;
}

export interface CompiledSnqlSubscription {
  readonly kind: "snql";
  readonly subscription: Subscription;
  readonly entity: EntityDefinition;
  readonly storage: StorageDefinition;
  /** The stored query as parsed, without the window. */
  readonly query: LogicalQuery;
  readonly aliases: ReadonlySet<string>;
}

function condition(name: string, lhs: Expression, rhs: Expression): Expression {
  return { kind: "function", name, args: [lhs, rhs] };
}

/** The stored query with the window [windowEnd − time_window, windowEnd) and the project (and organization) pinned. */
function withWindow(query: LogicalQuery, entity: EntityDefinition, subscription: Subscription, windowEnd: number): LogicalQuery {
  const timeColumn = entity.requiredTimeColumn;
  const conditions: Expression[] = query.where ? [query.where] : [];
  conditions.push(condition("equals", { kind: "column", name: "project_id" }, { kind: "literal", value: subscription.projectId }));
  if (timeColumn) {
    const column: Expression = { kind: "column", name: timeColumn };
    conditions.push(condition("greaterOrEquals", column, { kind: "datetime", epochSeconds: windowEnd - subscription.timeWindow }));
    conditions.push(condition("less", column, { kind: "datetime", epochSeconds: windowEnd }));
  }
  const organizationColumn = entity.subscriptions?.organizationColumn;
  if (organizationColumn) {
    conditions.push(condition("equals", { kind: "column", name: organizationColumn }, { kind: "literal", value: subscription.organizationId }));
  }
  return { ...query, where: conditions.length === 1 ? conditions[0]! : { kind: "function", name: "and", args: conditions } };
}

/**
 * Parses the stored SnQL, applies the entity's subscription rules, and validates the query with
 * the window of `windowEnd` added (any T gives the same verdict). Throws `invalid_query`.
 */
export function compileSubscription(definitions: DefinitionLookup, subscription: Subscription, windowEnd: number): CompiledSubscription {
  const entity = definitions.entity(subscription.entity);
  if (!entity) throw invalidQuery(`entity '${subscription.entity}' does not exist`);
  const support = entity.subscriptions;
  if (!support) throw invalidQuery(`entity ${entity.name} does not support subscriptions`);
  if (subscription.type === "rpc") return compileRpcSubscription(definitions, subscription, entity, windowEnd);
  const query = parseSnql(subscription.query);
  checkSubscriptionQuery(query, entity, support);
  const validated = validateSnqlQuery(withWindow(query, entity, subscription, windowEnd), definitions);
  if (validated.kind !== "entity") throw invalidQuery(`a subscription query reads one entity with MATCH (${entity.name})`);
  return { kind: "snql", subscription, entity, storage: validated.storage, query, aliases: validated.aliases };
}

/** Decodes and checks the stored request, and applies EndpointTimeSeries' rules to one window of it. */
function compileRpcSubscription(definitions: DefinitionLookup, subscription: Subscription, entity: EntityDefinition, windowEnd: number): CompiledRpcSubscription {
  if (!subscription.rpc) throw invalidQuery(`subscription ${subscription.id} is of type rpc but holds no TimeSeriesRequest`);
  let request: TimeSeriesRequest;
  try {
    request = decodeTimeSeriesRequest(subscription.rpc.timeSeriesRequest);
    checkRpcSubscription(subscription.rpc.requestName, subscription.rpc.requestVersion, request);
  } catch (reason) {
    throw invalidQuery(reason instanceof Error ? reason.message : String(reason));
  }
  prepareTimeSeries(definitions, windowTimeSeriesRequest(request, subscription.timeWindow, windowEnd, EXECUTOR_REFERRER));
  return { kind: "rpc", subscription, entity, request };
}

/** The SQL of one window, [windowEnd − time_window, windowEnd). */
export function prepareWindow(compiled: CompiledSnqlSubscription, windowEnd: number): PreparedQuery {
  const { subscription, entity, storage, aliases } = compiled;
  const query = withWindow(compiled.query, entity, subscription, windowEnd);
  const timeRange = entity.requiredTimeColumn ? { from: windowEnd - subscription.timeWindow, to: windowEnd } : null;
  return prepareValidatedSnql({ kind: "entity", query, entity, storage, aliases, timeRange }, false);
}
