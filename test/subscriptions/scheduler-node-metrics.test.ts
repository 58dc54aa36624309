/**
 * A scheduler node's own GET /metrics, on a real NATS and a fixture server's engine: its leases,
 * its subscription figures, and prom-client's process and runtime metrics, each once.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ClickHouseResultsPublisher } from "../../src/subscriptions/publishing/clickhouse-results-publisher.js";
import { PipelineExecutor } from "../../src/subscriptions/execution/executor.js";
import { openClusterBuckets, type ClusterBuckets } from "../../src/subscriptions/cluster/nats-buckets.js";
import { startSchedulerNode, type RunningSchedulerNode } from "../../src/subscriptions/cluster/scheduler-node.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;
let buckets: ClusterBuckets;
let node: RunningSchedulerNode;

beforeAll(async () => {
  server = await startFixtureServer();
  buckets = await openClusterBuckets(inject("natsUrl"), { prefix: `t_${randomBytes(4).toString("hex")}` });
  node = await startSchedulerNode({
    definitions: server.definitions,
    buckets,
    nodeId: "metrics-node",
    executor: new PipelineExecutor({ definitions: server.definitions, columnstore: server.columnstore, statsInResponse: false, backend: server.backend }, 2),
    executorDescription: "in-process",
    publisher: new ClickHouseResultsPublisher(server.columnstore.client),
    host: "127.0.0.1",
    port: 0,
  });
});

afterAll(async () => {
  await node?.stop(1_000);
  await buckets?.close();
  await server?.close();
});

describe("a scheduler node's GET /metrics", () => {
  it("exports its leases and subscription figures beside prom-client's process metrics", async () => {
    const response = await fetch(`http://127.0.0.1:${node.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    // Its own node has a heartbeat; no subscription, so no partition is wanted or held.
    expect(value("quarry_scheduler_nodes_live")).toBeGreaterThanOrEqual(1);
    expect(value("quarry_scheduler_partitions_owned")).toBe(0);
    expect(value("quarry_scheduler_leases_acquired_total")).toBe(0);
    expect(value("quarry_subscriptions")).toBe(0);
    expect(text).toContain("# TYPE quarry_scheduler_lease_epoch gauge");
    expect(text).toContain("# TYPE quarry_subscription_lag_seconds histogram");
    expect(text).toContain("# TYPE quarry_subscription_windows_scheduled_total counter");
    expect(text).toContain("# TYPE process_cpu_user_seconds_total counter");
    expect(value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(value("nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    const types = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
    expect(new Set(types).size).toBe(types.length);
  });
});
