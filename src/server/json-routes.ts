/**
 * The plain JSON HTTP routes of spec §4. They validate the body, call the same handlers as the
 * RPC services, and answer in the spec's exact shapes: results per §2.3, errors per §2.4.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { QueryServiceError } from "../errors/query-service-error.js";
import { stringifyResponse } from "../execution/result-values.js";
import { PROMETHEUS_CONTENT_TYPE } from "../metrics/process-metrics.js";
import { parseJsonObject } from "../request/parse-json-body.js";
import { readBody } from "./read-body.js";
import { isRpcPath, rpcRoute } from "./rpc-routes.js";
import { readSnqlBody } from "../request/query-body-schema.js";
import { readMqlBody } from "../request/mql-body-schema.js";
import { readSubscriptionBody } from "../request/subscription-body.js";
import { requireSubscriptionEntity } from "../subscriptions/subscription-service.js";
import { subscriptionJson } from "./subscription-views.js";
import { requireDataset } from "../datasets/require-dataset.js";
import { renderBrowsableForm } from "./browsable-form.js";
import { handleCreateSubscription, handleDeleteSubscription, handleHealth, handleMql, handleSnql } from "./query-handlers.js";
import type { ServiceContext } from "./service-context.js";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

function send(response: Response, status: number, body: string, contentType: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  (response as ServerResponse).writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body), ...headers });
  (response as ServerResponse).end(body);
}

function sendJson(response: Response, status: number, body: unknown): void {
  send(response, status, stringifyResponse(body), "application/json");
}

function sendError(response: Response, reason: unknown): void {
  const error = QueryServiceError.from(reason);
  const headers: Record<string, string> = {};
  const retryAfter = error.extra.retry_after_seconds;
  if (error.type === "rate-limited" && typeof retryAfter === "number") headers["retry-after"] = String(Math.ceil(retryAfter));
  const { retry_after_seconds: _omit, ...extra } = error.extra;
  send(response, error.httpStatus, stringifyResponse({ error: error.toErrorBody(), ...extra }), "application/json", headers);
}

function methodNotAllowed(allowed: string): QueryServiceError {
  return new QueryServiceError("invalid_query", `method not allowed here; use ${allowed}`, { httpStatus: 405 });
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new QueryServiceError("invalid_query", `the path segment '${segment}' is not valid percent-encoding`);
  }
}

export function jsonRoutes(context: ServiceContext) {
  return async function route(request: Request, response: Response): Promise<void> {
    try {
      const url = new URL(request.url ?? "/", "http://quarry");
      const parts = url.pathname.split("/").filter(Boolean).map(decodeSegment);
      const method = request.method ?? "GET";

      if (parts.length === 1 && parts[0] === "health") {
        if (method !== "GET" && method !== "HEAD") throw methodNotAllowed("GET");
        const health = await handleHealth(context);
        sendJson(response, health.healthy ? 200 : 502, health.healthy ? { status: "ok" } : { status: "down", ...health.dependencies });
        return;
      }
      if (parts.length === 1 && parts[0] === "metrics") {
        if (method !== "GET" && method !== "HEAD") throw methodNotAllowed("GET");
        send(response, 200, await context.backend.metrics.render(), PROMETHEUS_CONTENT_TYPE);
        return;
      }
      if (parts.length === 1 && parts[0] === "favicon.ico") {
        // A browser asks for it on loading the browsable form; no icon, and no 404 for it to log.
        send(response, 204, "", "image/x-icon");
        return;
      }
      if (isRpcPath(parts)) {
        // Snuba's RPC transport: protobuf in, protobuf out, failures as its Error message.
        await rpcRoute(context, parts, method, request, response);
        return;
      }
      if (parts.length === 1 && parts[0] === "query") {
        if (method !== "POST") throw methodNotAllowed("POST");
        const body = parseJsonObject(await readBody(request));
        sendJson(response, 200, await handleSnql(context, readSnqlBody(body, null)));
        return;
      }
      if (parts.length === 2 && parts[1] === "snql") {
        const dataset = parts[0]!;
        if (method === "GET") {
          requireDataset(context.definitions, dataset);
          send(response, 200, renderBrowsableForm(dataset, context.adminUrl), "text/html; charset=utf-8");
          return;
        }
        if (method !== "POST") throw methodNotAllowed("POST (or GET for the browsable form)");
        const body = parseJsonObject(await readBody(request));
        sendJson(response, 200, await handleSnql(context, readSnqlBody(body, dataset)));
        return;
      }
      if (parts.length === 2 && parts[1] === "mql") {
        if (method !== "POST") throw methodNotAllowed("POST");
        requireDataset(context.definitions, parts[0]!);
        const body = parseJsonObject(await readBody(request));
        sendJson(response, 200, await handleMql(context, readMqlBody(body, parts[0]!)));
        return;
      }
      if (parts.length === 3 && parts[2] === "subscriptions") {
        const [dataset, entity] = [parts[0]!, parts[1]!];
        if (method === "GET" || method === "HEAD") {
          const views = await context.subscriptions.list(dataset, entity);
          sendJson(response, 200, { data: views.map(subscriptionJson) });
          return;
        }
        if (method !== "POST") throw methodNotAllowed("POST (or GET for the list)");
        // The pair is checked before the body is read, as Snuba's view does (facts B5.3).
        requireSubscriptionEntity(context.definitions, dataset, entity);
        const body = parseJsonObject(await readBody(request));
        sendJson(response, 202, { subscription_id: await handleCreateSubscription(context, readSubscriptionBody(body, dataset, entity)) });
        return;
      }
      if (parts.length === 5 && parts[2] === "subscriptions") {
        const [dataset, entity, , partition, key] = parts as [string, string, string, string, string];
        if (method === "GET" || method === "HEAD") {
          sendJson(response, 200, subscriptionJson(await context.subscriptions.get(dataset, entity, partition, key)));
          return;
        }
        if (method !== "DELETE") throw methodNotAllowed("DELETE (or GET for the subscription)");
        await handleDeleteSubscription(context, dataset, entity, partition, key);
        send(response, 202, "ok", "text/plain");
        return;
      }
      throw new QueryServiceError("not_found", `no route for ${method} ${url.pathname}; see the README for the routes`);
    } catch (reason) {
      sendError(response, reason);
    }
  };
}
