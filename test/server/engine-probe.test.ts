/**
 * /health's view of the engine comes from a background probe: a slow answer (the probe queued
 * behind other queries) keeps the engine healthy while a recent probe succeeded; a failure is
 * reported at once; an engine that stops answering is reported once the last success is stale.
 */
import { afterEach, describe, expect, it } from "vitest";
import { EngineProbe } from "../../src/server/engine-probe.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const probes: EngineProbe[] = [];
afterEach(() => probes.splice(0).forEach((p) => p.stop()));

function engineProbe(probe: () => Promise<void>) {
  const created = new EngineProbe({ name: "clickhouse (test)", probe, intervalMs: 50, staleAfterMs: 400, firstAnswerTimeoutMs: 150 });
  probes.push(created);
  return created;
}

describe("EngineProbe", () => {
  it("stays ok while probes answer slowly but within the stale limit", async () => {
    let calls = 0;
    const probe = engineProbe(async () => {
      calls++;
      if (calls > 1) await sleep(250); // queued behind other queries
    });
    expect(await probe.status()).toBe("ok");
    for (let i = 0; i < 8; i++) {
      await sleep(60);
      const started = Date.now();
      expect(await probe.status()).toBe("ok");
      expect(Date.now() - started).toBeLessThan(50); // answered from the last probe, not by waiting
    }
    expect(calls).toBeGreaterThan(1);
  });

  it("reports a failing engine at once and recovers with the next success", async () => {
    let failing = true;
    const probe = engineProbe(async () => {
      if (failing) throw new Error("connect ECONNREFUSED 127.0.0.1:8123");
    });
    expect(await probe.status()).toBe("connect ECONNREFUSED 127.0.0.1:8123");
    failing = false;
    await sleep(120);
    expect(await probe.status()).toBe("ok");
    failing = true;
    await sleep(120);
    expect(await probe.status()).toBe("connect ECONNREFUSED 127.0.0.1:8123");
  });

  it("reports an engine that stops answering once its last success is stale", async () => {
    let hang = false;
    const probe = engineProbe(() => (hang ? new Promise<void>(() => {}) : Promise.resolve()));
    expect(await probe.status()).toBe("ok");
    hang = true;
    await sleep(200);
    expect(await probe.status()).toBe("ok");
    await sleep(400);
    expect(await probe.status()).toBe("clickhouse (test) did not answer within 400 ms");
  });

  it("waits a little for the first answer, then says the engine did not answer", async () => {
    const probe = engineProbe(() => new Promise<void>(() => {}));
    expect(await probe.status()).toBe("clickhouse (test) did not answer within 150 ms");
  });
});
