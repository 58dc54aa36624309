/**
 * Subscriptions across server lifetimes (chDB opens one data directory per process, so each
 * server here is opened after the previous one closed): accepted ones survive a restart; a test
 * run refused by the allocation policies stores nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { describe, expect, it } from "vitest";
import { HealthService } from "../../gen/quarry/v1/health_pb.js";
import { startFixtureServer } from "../server/fixture-server.js";

const VALID = {
  project_id: 1,
  time_window: 3600,
  resolution: 60,
  query: "MATCH (events) SELECT count() AS count WHERE level = 'error'",
  tenant_ids: { organization_id: 1, referrer: "test.subscriptions" },
};

describe("refused by the allocation policies", () => {
  it("refuses a test run the allocation policies refuse (429) and stores nothing", async () => {
    // One query per second: the first create's test run uses it, the second is refused.
    const strict = await startFixtureServer({ policyOverrides: { PerSecondRateLimitAllocationPolicy: { per_second_limit: 1 } } });
    try {
      const create = () => fetch(`${strict.baseUrl}/events/events/subscriptions`, { method: "POST", body: JSON.stringify(VALID) });
      const first = await create();
      const second = await create();
      expect(first.status).toBe(202);
      expect(second.status).toBe(429);
      expect(second.headers.get("retry-after")).not.toBeNull();
      expect(((await second.json()) as { error: { type: string } }).error.type).toBe("rate-limited");
      const rows = await strict.columnstore.client.query({ query: "SELECT count() AS n FROM subscriptions_local", format: "JSONEachRow" });
      expect(await rows.json()).toEqual([{ n: 1 }]);
    } finally {
      await strict.close();
    }
  });
});

describe("durability", () => {
  it("keeps accepted subscriptions across a restart on the same data directory", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "quarry-subscriptions-restart-"));
    try {
      const first = await startFixtureServer({}, { dataDir });
      const created = await fetch(`${first.baseUrl}/events/events/subscriptions`, { method: "POST", body: JSON.stringify(VALID) });
      expect(created.status).toBe(202);
      const { subscription_id: id } = (await created.json()) as { subscription_id: string };
      await first.close();

      const second = await startFixtureServer({}, { dataDir });
      try {
        const list = (await (await fetch(`${second.baseUrl}/events/events/subscriptions`)).json()) as { data: { subscription_id: string }[] };
        expect(list.data.map((s) => s.subscription_id)).toEqual([id]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("health", () => {
  it("reports the scheduler and the publisher when this server runs the scheduler, and a scheduler that stopped", async () => {
    const server = await startFixtureServer({}, { subscriptions: { scheduler: true } });
    try {
      const health = createClient(HealthService, createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" }));
      expect((await health.check({})).dependencies).toEqual({ clickhouse: "ok", scheduler: "ok", publisher: "ok" });
      expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
      await server.subscriptions.scheduler!.stop();
      const down = await fetch(`${server.baseUrl}/health`);
      expect(down.status).toBe(502);
      expect(await down.json()).toEqual({ status: "down", clickhouse: "ok", scheduler: "stopped", publisher: "ok" });
    } finally {
      await server.close();
    }
  });
});
