/**
 * The small HTTP server of a process that serves no queries (a scheduler node, a consumer
 * process): GET /health (200 when healthy, else 502, with the body the role gives) and
 * GET /metrics (its registry in Prometheus' text format), nothing else.
 */
import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";
import { exposition, PROMETHEUS_CONTENT_TYPE } from "./process-metrics.js";

export interface HousekeepingOptions {
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  readonly registry: Registry;
  health(): { readonly healthy: boolean; readonly body: Record<string, unknown> };
  /** What the process is, for the 404 message ("a scheduler node"). */
  readonly role: string;
}

export interface HousekeepingServer {
  readonly port: number;
  close(): Promise<void>;
}

function sendJson(response: import("node:http").ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

export async function startHousekeepingServer(options: HousekeepingOptions): Promise<HousekeepingServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method === "GET" && path === "/health") {
      const { healthy, body } = options.health();
      sendJson(response, healthy ? 200 : 502, body);
    } else if (request.method === "GET" && path === "/metrics") {
      exposition(options.registry).then(
        (text) => {
          response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE });
          response.end(text);
        },
        (error: unknown) =>
          sendJson(response, 500, { error: { type: "internal_server_error", message: `metrics could not be collected: ${error instanceof Error ? error.message : String(error)}` } }),
      );
    } else {
      sendJson(response, 404, { error: { type: "not_found", message: `${options.role} serves GET /health and GET /metrics, not ${request.method} ${path}` } });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
