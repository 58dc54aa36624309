/** The Connect / gRPC / gRPC-Web services, each a thin adapter over the shared handlers. */
import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { CheckResponseSchema, HealthService } from "../../gen/quarry/v1/health_pb.js";
import { QueryService } from "../../gen/quarry/v1/query_pb.js";
import { TimeSeriesService } from "../../gen/quarry/rpc/v1/time_series_pb.js";
import { DeleteSubscriptionResponseSchema, ListSubscriptionsResponseSchema, SubscriptionService } from "../../gen/quarry/v1/subscription_pb.js";
import { createSubscriptionRequestFrom, mqlRequestFrom, queryRequestFrom } from "../request/from-protobuf.js";
import { handleCreateSubscription, handleDeleteSubscription, handleHealth, handleMql, handleSnql, handleTimeSeries } from "./query-handlers.js";
import type { ServiceContext } from "./service-context.js";
import { subscriptionMessage } from "./subscription-views.js";
import { toConnectError, toQueryResponse, toWindowResponse } from "./to-protobuf.js";

/** Runs a handler and turns any failure into a typed ConnectError. */
async function typed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (reason) {
    throw toConnectError(reason);
  }
}

export function connectRoutes(context: ServiceContext) {
  return (router: ConnectRouter) => {
    router.service(QueryService, {
      snql: (request) => typed(async () => toQueryResponse(await handleSnql(context, queryRequestFrom(request)))),
      query: (request) => typed(async () => toQueryResponse(await handleSnql(context, queryRequestFrom(request)))),
      mql: (request) => typed(async () => toQueryResponse(await handleMql(context, mqlRequestFrom(request)))),
    });
    router.service(SubscriptionService, {
      createSubscription: (request) =>
        typed(async () => ({ subscriptionId: await handleCreateSubscription(context, createSubscriptionRequestFrom(request)) })),
      deleteSubscription: (request) =>
        typed(async () => {
          await handleDeleteSubscription(context, request.dataset, request.entity, String(request.partition), request.key);
          return create(DeleteSubscriptionResponseSchema, {});
        }),
      listSubscriptions: (request) =>
        typed(async () =>
          create(ListSubscriptionsResponseSchema, {
            subscriptions: (await context.subscriptions.list(request.dataset, request.entity)).map(subscriptionMessage),
          }),
        ),
      getSubscription: (request) =>
        typed(async () => subscriptionMessage(await context.subscriptions.get(request.dataset, request.entity, String(request.partition), request.key))),
      runSubscriptionWindow: (request) =>
        typed(async () => toWindowResponse(await context.subscriptionWindows.run(request.subscriptionJson, Number(request.windowEnd), request.referrer, { consistent: request.consistent }))),
    });
    router.service(TimeSeriesService, {
      timeSeries: (request) => typed(async () => (await handleTimeSeries(context, request)).response),
    });
    router.service(HealthService, {
      check: () =>
        typed(async () => {
          const health = await handleHealth(context);
          return create(CheckResponseSchema, { status: health.healthy ? "ok" : "down", dependencies: health.dependencies });
        }),
    });
  };
}
