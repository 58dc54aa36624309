/**
 * The embedded engine leaks the beginning of a failed query's output into the next query's
 * answer (chDB 3.4); the serialized connection drains it, so the next caller — here a health
 * probe reading JSONEachRow and a concurrent JSONCompact query — gets only its own answer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { readSettings } from "../../src/config/settings.js";

const OVER_RESULT_LIMIT = "SELECT number % 50 AS g, count() AS n FROM numbers(100000) GROUP BY g SETTINGS max_result_rows = 5";

describe("embedded connection after a failed query", () => {
  let dir: string;
  let store: ColumnstoreClient;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "quarry-drain-"));
    store = createColumnstoreClient({ ...readSettings({}), clickhouseUrl: null, dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives the next query only its own answer", async () => {
    await expect(store.client.query({ query: OVER_RESULT_LIMIT, format: "JSONCompact" })).rejects.toMatchObject({ code: "396" });
    const probe = await store.client.query({ query: "SELECT 1 AS ok", format: "JSONEachRow" });
    expect(await probe.text()).toBe('{"ok":1}\n');
  });

  it("keeps answers apart when failures and reads are in flight together", async () => {
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? store.client.query({ query: OVER_RESULT_LIMIT, format: "JSONCompact" }).then(
            () => "unexpected success",
            () => "refused",
          )
        : store.client.query({ query: `SELECT ${i} AS i`, format: "JSONCompact" }).then(async (r) => (await r.json<{ data: unknown[][] }>()).data),
    );
    const answers = await Promise.all(calls);
    answers.forEach((answer, i) => expect(answer).toEqual(i % 2 === 0 ? "refused" : [[i]]));
  });
});
