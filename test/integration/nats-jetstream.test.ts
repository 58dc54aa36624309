import { randomUUID } from "node:crypto";
import { connect, StringCodec, type KV, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

// Smoke test that the globalSetup's nats-server is real and has JetStream KV with
// the revision semantics the subscription scheduler's coordination relies on.

const sc = StringCodec();

function natsUrl(): string {
  const url = inject("natsUrl");
  if (!url) {
    throw new Error(
      "natsUrl was not provided: test/setup/global-services.ts did not start NATS " +
        "(QUARRY_TEST_SERVICES=none?). Unset it, or export NATS_URL from `npx tsx scripts/test-services/cli.ts`.",
    );
  }
  return url;
}

describe("NATS JetStream KV", () => {
  let nc: NatsConnection;
  let kv: KV;

  beforeAll(async () => {
    nc = await connect({ servers: natsUrl(), timeout: 5_000 });
    // A fresh bucket per run keeps reruns against a long-lived CLI server independent.
    kv = await nc.jetstream().views.kv(`quarry_smoke_${randomUUID().slice(0, 8)}`, { history: 5 });
  });

  afterAll(async () => {
    await kv?.destroy();
    await nc?.close();
  });

  it("creates a key only once", async () => {
    const revision = await kv.create("leader", sc.encode("node-a"));
    expect(revision).toBeGreaterThan(0);
    await expect(kv.create("leader", sc.encode("node-b"))).rejects.toThrow(/wrong last sequence/);
  });

  it("applies a revision-checked update only with the current revision, and a watch sees it", async () => {
    const created = await kv.create("lease", sc.encode("v1"));

    const watcher = await kv.watch({ key: "lease" });
    const seenUpdate = (async () => {
      for await (const entry of watcher) {
        if (entry.revision > created) return entry;
      }
      throw new Error("watch ended without seeing the update");
    })();

    const updated = await kv.update("lease", sc.encode("v2"), created);
    expect(updated).toBeGreaterThan(created);

    // `created` is now stale: a competing writer holding it must lose.
    await expect(kv.update("lease", sc.encode("v3"), created)).rejects.toThrow(/wrong last sequence/);

    const entry = await seenUpdate;
    watcher.stop();
    expect(entry.key).toBe("lease");
    expect(entry.revision).toBe(updated);
    expect(sc.decode(entry.value)).toBe("v2");

    const current = await kv.get("lease");
    expect(current?.revision).toBe(updated);
    expect(current && sc.decode(current.value)).toBe("v2");
  });
});
