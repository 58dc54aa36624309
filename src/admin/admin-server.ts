/**
 * The admin web UI on its own local port (ADMIN_PORT, 127.0.0.1 by default): the single-page
 * app (`ui/`), its read-only figures under `/api/admin/*` (admin-data.ts), and every other
 * `/api/*` request passed to the query server unchanged, so the UI runs queries, reads metrics
 * and lists subscriptions through the same operations as any client. Nothing here runs SQL a
 * request wrote or writes data.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import type { DatasetRegistry } from "../datasets/registry.js";
import type { ConsumerStatus } from "../ingestion/storage-consumer.js";
import { adminAssets } from "./admin-assets.js";
import { appliedMigrations, policiesInForce, recentQueries, tableFigures } from "./admin-data.js";

export interface AdminServerOptions {
  readonly host: string;
  readonly port: number;
  /** The query server's base URL (same process): the UI's queries go there. */
  readonly queryUrl: string;
  readonly columnstore: ColumnstoreClient;
  readonly registry: DatasetRegistry;
  readonly policyOverrides?: Readonly<Record<string, unknown>>;
  /** Each tenant's current usage of the policies (the query server's policy registry). */
  readonly policyUsage?: () => readonly Record<string, unknown>[];
  /** The ingestion consumers this process runs (QUARRY_CONSUMERS), each with its partitions. */
  readonly consumerStatuses?: () => readonly ConsumerStatus[];
}

export interface AdminServer {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Quarry admin</title>
<link rel="stylesheet" href="/assets/uplot.css">
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; color: #1d2330; }
  header { display: flex; gap: 24px; align-items: center; padding: 10px 20px; background: #1d2330; color: #fff; }
  header nav { display: flex; gap: 18px; }
  header a { color: #c9d3e6; text-decoration: none; } header a.active { color: #fff; font-weight: 600; }
  main { padding: 12px 20px; }
  textarea { width: 100%; font: 13px ui-monospace, monospace; box-sizing: border-box; }
  textarea.has-error { outline: 2px solid #d9534f; }
  .controls { display: flex; gap: 12px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
  .error { background: #fdecea; color: #8a1f11; padding: 8px; border-radius: 4px; margin: 8px 0; white-space: pre-wrap; }
  .muted { color: #6b7385; }
  table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
  th, td { border-bottom: 1px solid #e3e6ec; padding: 4px 8px; text-align: left; vertical-align: top; max-width: 520px; overflow-wrap: anywhere; }
  tr.clickable { cursor: pointer; } tr.clickable:hover { background: #f3f6fb; }
  pre { background: #f6f8fa; padding: 8px; overflow: auto; }
</style>
</head>
<body>
<header><strong>Quarry admin</strong><nav id="nav"></nav></header>
<main id="page"></main>
<script src="/assets/admin.js"></script>
</body>
</html>
`;

function send(response: ServerResponse, status: number, body: string, type: string): void {
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, JSON.stringify(body), "application/json");
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function optionalInteger(value: string | null, name: string): number | undefined {
  if (value === null || value === "") return undefined;
  if (!/^\d+$/.test(value)) throw new RangeError(`${name} must be a non-negative integer, got '${value}'`);
  return Number(value);
}

export async function startAdminServer(options: AdminServerOptions): Promise<AdminServer> {
  const queryLogTable = options.registry.storage("querylog")?.table ?? "querylog_local";
  const overview = {
    datasets: options.registry.datasets().map((dataset) => ({ name: dataset.name, entities: [...dataset.entities] })),
    subscribable: options.registry.datasets().flatMap((dataset) =>
      dataset.entities.filter((entity) => options.registry.entity(entity)?.subscriptions).map((entity) => ({ dataset: dataset.name, entity })),
    ),
    queryUrl: options.queryUrl,
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://admin");
    const path = url.pathname;
    if (request.method === "GET" && (path === "/" || path === "/index.html")) return send(response, 200, PAGE, "text/html; charset=utf-8");
    if (request.method === "GET" && path === "/assets/admin.js") return send(response, 200, (await adminAssets()).script, "text/javascript; charset=utf-8");
    if (request.method === "GET" && path === "/assets/uplot.css") return send(response, 200, (await adminAssets()).styles, "text/css; charset=utf-8");
    if (path === "/favicon.ico") return send(response, 204, "", "image/x-icon");
    if (path.startsWith("/api/admin/")) {
      if (request.method !== "GET") return sendJson(response, 405, { error: { type: "invalid_request", message: "the admin figures are read-only: use GET" } });
      switch (path) {
        case "/api/admin/overview":
          return sendJson(response, 200, overview);
        case "/api/admin/querylog": {
          const params = url.searchParams;
          const rows = await recentQueries(options.columnstore, queryLogTable, {
            ...(params.get("referrer") ? { referrer: params.get("referrer")! } : {}),
            ...(params.get("status") ? { status: params.get("status")! } : {}),
            ...(optionalInteger(params.get("organization_id"), "organization_id") !== undefined ? { organizationId: optionalInteger(params.get("organization_id"), "organization_id")! } : {}),
            ...(optionalInteger(params.get("min_duration_ms"), "min_duration_ms") !== undefined ? { minDurationMs: optionalInteger(params.get("min_duration_ms"), "min_duration_ms")! } : {}),
            limit: optionalInteger(params.get("limit"), "limit") ?? 100,
          });
          return sendJson(response, 200, { data: rows });
        }
        case "/api/admin/system":
          return sendJson(response, 200, {
            tables: await tableFigures(options.columnstore, options.registry),
            migrations: await appliedMigrations(options.columnstore),
            policies: policiesInForce(options.registry, options.policyOverrides ?? {}),
            usage: options.policyUsage?.() ?? [],
            consumers: options.consumerStatuses?.() ?? [],
          });
        default:
          return sendJson(response, 404, { error: { type: "not_found", message: `no admin route ${path}` } });
      }
    }
    if (path.startsWith("/api/")) {
      // The query server's own routes, unchanged: the UI is one more client.
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await readBody(request);
      const answer = await fetch(`${options.queryUrl}${path.slice("/api".length)}${url.search}`, {
        method: request.method ?? "GET",
        headers: { "content-type": request.headers["content-type"] ?? "application/json" },
        ...(body ? { body: new Uint8Array(body) } : {}),
      });
      return send(response, answer.status, await answer.text(), answer.headers.get("content-type") ?? "application/json");
    }
    return sendJson(response, 404, { error: { type: "not_found", message: `no admin page ${path}: the UI is at /` } });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((reason: unknown) => {
      const invalid = reason instanceof RangeError;
      if (!response.headersSent) {
        sendJson(response, invalid ? 400 : 502, {
          error: { type: invalid ? "invalid_request" : "admin", message: reason instanceof Error ? reason.message : String(reason) },
        });
      } else {
        response.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    host: options.host,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
