import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { readSettings } from "../../src/config/settings.js";
import { executeSql } from "../../src/execution/execute-sql.js";
import { parseJsonCompact } from "../../src/execution/parse-json-compact.js";

/** What chDB 3.4 wrote for an empty `GROUP BY … WITH TOTALS` (captured from the engine). */
const MISORDERED =
  '\n\t],\n\n\t"totals": [0, 0]{\n\t"meta":\n\t[\n\t\t{\n\t\t\t"name": "k",\n\t\t\t"type": "UInt8"\n\t\t},\n\t\t{\n\t\t\t"name": "c",\n\t\t\t"type": "UInt64"\n\t\t}\n\t],\n\n\t"data":\n\t[\n,\n\n\t"rows": 0,\n\n\t"statistics":\n\t{\n\t\t"elapsed": 0.004659496,\n\t\t"rows_read": 0,\n\t\t"bytes_read": 0\n\t}\n}\n';

describe("parseJsonCompact", () => {
  it("parses well-formed answers as they are", () => {
    expect(parseJsonCompact('{"meta":[],"data":[[1]],"rows":1}')).toEqual({ meta: [], data: [[1]], rows: 1 });
  });

  it("puts the totals of an empty WITH TOTALS answer back in place", () => {
    expect(parseJsonCompact(MISORDERED)).toMatchObject({
      meta: [
        { name: "k", type: "UInt8" },
        { name: "c", type: "UInt64" },
      ],
      data: [],
      totals: [0, 0],
      rows: 0,
    });
  });

  it("lets other malformed text fail", () => {
    expect(() => parseJsonCompact('{"meta": [')).toThrow(SyntaxError);
    expect(() => parseJsonCompact('garbage{\n\t"meta": []}')).toThrow(SyntaxError);
  });
});

describe("WITH TOTALS on the embedded engine", () => {
  let dir: string;
  let store: ColumnstoreClient;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "quarry-totals-"));
    store = createColumnstoreClient({ ...readSettings({}), clickhouseUrl: null, dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = (filter: string) =>
    `SELECT number % 2 AS k, count() AS c FROM numbers(10) WHERE ${filter} GROUP BY k WITH TOTALS ORDER BY k`;

  it("returns rows and totals when rows match", async () => {
    const result = await executeSql(store.client, query("number < 5"), { columnNames: ["k", "c"], settings: {} });
    expect(result.data).toEqual([
      { k: 0, c: 3 },
      { k: 1, c: 2 },
    ]);
    expect(result.totals).toEqual({ k: 0, c: 5 });
  });

  it("returns no rows and zero totals when nothing matches", async () => {
    const result = await executeSql(store.client, query("number > 100"), { columnNames: ["k", "c"], settings: {} });
    expect(result.data).toEqual([]);
    expect(result.totals).toEqual({ k: 0, c: 0 });
  });
});
