/**
 * The subscription API behind both wires: create (validated in Snuba's order, facts B5.3, and
 * stored durably before it answers), delete, get and list. The JSON routes and the Connect
 * SubscriptionService call these.
 */
import { randomUUID } from "node:crypto";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import type { EntityDefinition } from "../datasets/definition-types.js";
import { QueryServiceError, subscriptionError } from "../errors/query-service-error.js";
import { requireDataset } from "../datasets/require-dataset.js";
import { runPreparedQuery, type PipelineContext } from "../pipeline/run-prepared-query.js";
import { StageTimer } from "../query/stage-timer.js";
import type { CreateSubscriptionRequest } from "../request/subscription-body.js";
import type { Clock } from "./scheduling/clock.js";
import { CREATION_REFERRER, runRpcWindow, windowRequest } from "./execution/executor.js";
import { partitionFor } from "./scheduling/partitioner.js";
import { compileSubscription, prepareWindow } from "./execution/subscription-query.js";
import type { SubscriptionStatus } from "./store/subscription-status.js";
import type { SubscriptionStore } from "./store/subscription-store.js";
import { formatSubscriptionId, normaliseUuid, type Subscription } from "./store/subscription.js";
import type { CappedCounter } from "../metrics/capped-counter.js";
import { checkRpcSubscription, decodeTimeSeriesRequest, encodeTimeSeriesRequest, RPC_SUBSCRIPTION_ENTITY, storableRequest } from "./store/rpc-subscription.js";

const MIN_TIME_WINDOW_SECONDS = 60;
const MAX_TIME_WINDOW_SECONDS = 86_400;
const MIN_RESOLUTION_SECONDS = 60;

export interface SubscriptionServiceOptions {
  readonly pipeline: PipelineContext;
  readonly store: SubscriptionStore;
  readonly clock: Clock;
  /** The status of a subscription (last run, result, error), from the scheduler's book. */
  readonly statusOf: (subscription: Subscription) => SubscriptionStatus;
  /** Called after a create or delete, so an in-process scheduler re-reads the store. */
  readonly onChange?: () => void;
  /** Counts creation test runs by entity and outcome (each is a query: it writes a query-log row). */
  readonly testRuns?: CappedCounter<"entity" | "outcome">;
}

export interface SubscriptionView {
  readonly subscription: Subscription;
  readonly status: SubscriptionStatus;
}

/** The pair check of every subscription route (facts B5.1): 404 for the dataset, 400 for the pair. */
export function requireSubscriptionEntity(definitions: DefinitionLookup, dataset: string, entityName: string): EntityDefinition {
  requireDataset(definitions, dataset);
  const entity = definitions.entity(entityName);
  if (!entity || !definitions.dataset(dataset)!.entities.includes(entityName)) {
    throw subscriptionError("Invalid subscription dataset and entity combination", "entity");
  }
  return entity;
}

export class SubscriptionService {
  constructor(private readonly options: SubscriptionServiceOptions) {}

  private get definitions(): DefinitionLookup {
    return this.options.pipeline.definitions;
  }

  async create(request: CreateSubscriptionRequest): Promise<string> {
    const entity = requireSubscriptionEntity(this.definitions, request.dataset, request.entity);
    if (request.subscriptionType !== "snql" && request.subscriptionType !== "rpc") {
      throw subscriptionError(`'subscription_type' must be 'snql' or 'rpc', got '${request.subscriptionType}'`, "subscription_type");
    }
    if (request.timeWindow < MIN_TIME_WINDOW_SECONDS) throw subscriptionError("Time window must be greater than or equal to 1 minute", "time_window");
    if (request.timeWindow > MAX_TIME_WINDOW_SECONDS) throw subscriptionError("Time window must be less than or equal to 24 hours", "time_window");
    if (request.resolution < MIN_RESOLUTION_SECONDS) throw subscriptionError("Resolution must be greater than or equal to 1 minute", "resolution");
    const support = entity.subscriptions;
    if (!support) {
      const supported = this.definitions.entities().filter((e) => e.subscriptions).map((e) => e.name);
      throw subscriptionError(`Entity ${entity.name} does not support subscriptions; entities that do: ${supported.join(", ")}`, "entity");
    }
    const what = request.subscriptionType === "rpc" ? rpcFields(request, entity) : snqlFields(request);

    const now = this.options.clock.now();
    const uuid = randomUUID().replace(/-/g, "");
    const partition = partitionFor(request.projectId, support.partitions);
    const subscription: Subscription = {
      id: formatSubscriptionId(partition, uuid),
      dataset: request.dataset,
      entity: entity.name,
      partition,
      uuid,
      projectId: request.projectId,
      timeWindow: request.timeWindow,
      resolution: request.resolution,
      type: request.subscriptionType,
      ...what,
      organizationId: request.organization ?? request.organizationId,
      createdAt: now,
    };
    // Parse and validate (invalid_query with a position), then a real run over the window ending
    // now, as Snuba does: a query that cannot run is refused here, not at its first window.
    const windowEnd = Math.floor(now / 1000);
    const compiled = compileSubscription(this.definitions, subscription, windowEnd);
    const testRequest = windowRequest(compiled, request.referrer || CREATION_REFERRER);
    const testRun = () =>
      compiled.kind === "rpc"
        ? runRpcWindow(this.options.pipeline, compiled, windowEnd, testRequest.tenantIds.referrer)
        : runPreparedQuery(this.options.pipeline, { ...testRequest, consistent: true }, prepareWindow(compiled, windowEnd), new StageTimer());
    try {
      await testRun();
      this.options.testRuns?.inc({ entity: entity.name, outcome: "ok" });
    } catch (reason) {
      this.options.testRuns?.inc({ entity: entity.name, outcome: QueryServiceError.from(reason).type });
      throw reason;
    }

    await this.options.store.create(subscription);
    this.options.onChange?.();
    return subscription.id;
  }

  async delete(dataset: string, entityName: string, partitionText: string, key: string): Promise<void> {
    const entity = requireSubscriptionEntity(this.definitions, dataset, entityName);
    const { partition, uuid } = parseLocator(partitionText, key);
    const outcome = await this.options.store.delete(entity.name, partition, uuid);
    if (outcome === "not_found") throw notFound(entity.name, partition, uuid);
    if (outcome === "deleted") this.options.onChange?.();
  }

  async get(dataset: string, entityName: string, partitionText: string, key: string): Promise<SubscriptionView> {
    const entity = requireSubscriptionEntity(this.definitions, dataset, entityName);
    const { partition, uuid } = parseLocator(partitionText, key);
    const subscription = await this.options.store.get(entity.name, partition, uuid);
    if (!subscription) throw notFound(entity.name, partition, uuid);
    return { subscription, status: this.options.statusOf(subscription) };
  }

  async list(dataset: string, entityName: string): Promise<SubscriptionView[]> {
    const entity = requireSubscriptionEntity(this.definitions, dataset, entityName);
    const subscriptions = await this.options.store.list(entity.name);
    return subscriptions.map((subscription) => ({ subscription, status: this.options.statusOf(subscription) }));
  }
}

function notFound(entity: string, partition: number, uuid: string): QueryServiceError {
  return new QueryServiceError("not_found", `subscription ${formatSubscriptionId(partition, uuid)} does not exist on entity ${entity}`);
}

/** `{partition}/{key}` of a path: a non-negative integer and a UUID (hex, dashes allowed). */
function parseLocator(partitionText: string, key: string): { partition: number; uuid: string } {
  if (!/^\d{1,5}$/.test(partitionText)) {
    throw subscriptionError(`the partition '${partitionText}' is not a non-negative integer: use the part before '/' of the subscription id`, "partition");
  }
  const uuid = normaliseUuid(key);
  if (!uuid) throw subscriptionError(`the key '${key}' is not a UUID: use the 32 hex digits after '/' of the subscription id`, "key");
  return { partition: Number(partitionText), uuid };
}

function snqlFields(request: CreateSubscriptionRequest): Pick<Subscription, "query"> {
  if (request.query === null || request.query.trim() === "") {
    throw subscriptionError("'query' is required: the SnQL to run each window, e.g. MATCH (events) SELECT count() AS count", "query");
  }
  return { query: request.query };
}

/** An rpc subscription's request, decoded and checked (spec §4.4 rule 5), stored as Snuba stores it. */
function rpcFields(request: CreateSubscriptionRequest, entity: EntityDefinition): Pick<Subscription, "query" | "rpc"> {
  if (entity.name !== RPC_SUBSCRIPTION_ENTITY) {
    throw subscriptionError(`subscription_type 'rpc' runs on ${RPC_SUBSCRIPTION_ENTITY} (POST /events_analytics_platform/${RPC_SUBSCRIPTION_ENTITY}/subscriptions), not on ${entity.name}`, "subscription_type");
  }
  const required = (value: string | null | undefined, field: string, example: string): string => {
    if (value === null || value === undefined || value.trim() === "") throw subscriptionError(`'${field}' is required for subscription_type 'rpc': ${example}`, field);
    return value;
  };
  const requestName = required(request.requestName, "request_name", "the request message's name, TimeSeriesRequest");
  const requestVersion = required(request.requestVersion, "request_version", "the request message's version, v1");
  const encoded = required(request.timeSeriesRequest, "time_series_request", "the base64 of a serialised sentry_protos.snuba.v1.TimeSeriesRequest");
  if (request.query !== null && request.query.trim() !== "") throw subscriptionError("'query' is for subscription_type 'snql': an rpc subscription runs its time_series_request", "query");
  const decoded = decodeTimeSeriesRequest(encoded);
  checkRpcSubscription(requestName, requestVersion, decoded);
  const project = Number(decoded.meta!.projectIds[0]);
  if (project !== request.projectId) {
    throw subscriptionError(`'project_id' (${request.projectId}) must be the project of the TimeSeriesRequest (meta.project_ids [${project}])`, "project_id");
  }
  return { query: "", rpc: { requestName, requestVersion, timeSeriesRequest: encodeTimeSeriesRequest(storableRequest(decoded)) } };
}
