/**
 * The real `quarry serve` process on the real clock: a subscription's results keep arriving
 * each minute across a SIGKILL (a window that came due while the process was dead is published
 * after the restart: nothing lost; only a window in flight at the crash may come twice, with the
 * same key and timestamp) and a SIGTERM (a clean stop exits 0). `quarry subscriptions tail`, a
 * process of its own, prints the results as they arrive. Takes about four minutes of wall clock.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/test-services/free-port.js";
import { jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import { startQuarry, waitFor, type QuarryProcess } from "../support/quarry-process.js";

describe("quarry serve, killed and restarted", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-serve-faults-"));
  let port = 0;
  let env: NodeJS.ProcessEnv;
  let serve: QuarryProcess | undefined;
  let tail: QuarryProcess | undefined;

  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  const healthy = () => fetch(url("/health")).then((r) => (r.ok ? true : undefined));

  async function windows(id: string): Promise<{ t: number; payload: string }[]> {
    const from = new Date(Date.now() - 3600_000).toISOString().slice(0, 19);
    const to = new Date(Date.now() + 3600_000).toISOString().slice(0, 19);
    const response = await fetch(url("/query"), {
      method: "POST",
      body: JSON.stringify({
        dataset: "events",
        query: `MATCH STORAGE(subscription_results) SELECT timestamp, payload WHERE timestamp >= toDateTime('${from}') AND timestamp < toDateTime('${to}') AND subscription_id = '${id}' ORDER BY timestamp ASC`,
        tenant_ids: { organization_id: 1, referrer: "test.faults" },
      }),
    });
    const body = (await response.json()) as { data: { timestamp: string; payload: string }[] };
    return body.data.map((row) => ({ t: Date.parse(row.timestamp) / 1000, payload: row.payload }));
  }

  beforeAll(async () => {
    port = await freePort();
    env = { QUARRY_DATA_DIR: dataDir, PORT: String(port), QUARRY_DEMO_ROWS: "2000", QUARRY_SUBSCRIPTION_DELAY_SECONDS: "0", QUARRY_QUERYLOG_FLUSH_MS: "200", KAFKA_BROKERS: "", NATS_URL: "" };
    serve = startQuarry(["serve", "--bootstrap"], env);
    await waitFor("the server to answer /health", healthy, 120_000);
  }, 180_000);

  afterAll(async () => {
    for (const process of [tail, serve]) {
      if (process && process.child.exitCode === null) {
        process.child.kill("SIGKILL");
        await process.exited;
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses no window across a SIGKILL, and stops cleanly on SIGTERM", async () => {
    const created = await fetch(url("/events/events/subscriptions"), {
      method: "POST",
      body: JSON.stringify({ project_id: 1, time_window: 3600, resolution: 60, query: "MATCH (events) SELECT count() AS count", tenant_ids: { organization_id: 1, referrer: "test.faults" } }),
    });
    expect(created.status).toBe(202);
    const { subscription_id: id } = (await created.json()) as { subscription_id: string };
    const jitter = jitterSeconds({ uuid: id.split("/")[1]!, resolution: 60 });

    const first = await waitFor("a first result", async () => ((await windows(id)).length > 0 ? (await windows(id))[0]!.t : undefined), 130_000);

    // Crash. Stay down past the next window's firing moment, so that window comes due while dead.
    serve!.child.kill("SIGKILL");
    await serve!.exited;
    const dueWhileDown = first + 60;
    const firesAt = (dueWhileDown + jitter) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firesAt - Date.now()) + 2000));

    serve = startQuarry(["serve", "--bootstrap"], env);
    await waitFor("the restarted server", healthy, 120_000);
    tail = startQuarry(["subscriptions", "tail", "--since", new Date((first - 1) * 1000).toISOString()], env);

    const afterRestart = await waitFor(
      "the window due while down, and the next one",
      async () => {
        const rows = await windows(id);
        return rows.some((row) => row.t >= dueWhileDown + 60) ? rows : undefined;
      },
      150_000,
    );
    const distinct = [...new Set(afterRestart.map((row) => row.t))];
    expect(distinct[0]).toBe(first);
    // Contiguous minutes: nothing missing, in particular the one due while the process was dead.
    expect(distinct).toEqual(distinct.map((_, i) => first + 60 * i));
    expect(distinct).toContain(dueWhileDown);
    // A window published twice (in flight at the crash) is the same message.
    for (const t of distinct) expect(new Set(afterRestart.filter((row) => row.t === t).map((row) => JSON.parse(row.payload).payload.timestamp)).size).toBe(1);

    // The tail printed what arrived: "<id>\t<message>" lines (a duplicate is printed twice).
    const printedWindows = () =>
      new Set(
        tail!.output
          .split("\n")
          .filter((line) => line.startsWith(`${id}\t`))
          .map((line) => JSON.parse(line.split("\t")[1]!) as { version: number; payload: { timestamp: string } })
          .filter((message) => message.version === 3)
          .map((message) => Date.parse(`${message.payload.timestamp}Z`) / 1000),
      );
    await waitFor("the tail to print every window", async () => (distinct.every((t) => printedWindows().has(t)) ? true : undefined), 30_000);
    expect([...printedWindows()].every((t) => distinct.includes(t) || t > distinct.at(-1)!)).toBe(true);

    serve!.child.kill("SIGTERM");
    expect(await serve!.exited).toBe(0);
    expect(serve!.output).toContain("shutting down");
  }, 420_000);
});
