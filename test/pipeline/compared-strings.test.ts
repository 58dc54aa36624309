/**
 * The typing pass refuses a string compared with a value it cannot be read as (`project_id =
 * 'abc'`), by the patterns of literal-texts.ts. This holds them to the embedded engine, for every
 * ClickHouse type of each class and each way a comparison is written: a string the pass refuses
 * fails in ClickHouse, on an empty table as on one with a row (the conversion happens while the
 * query is planned). The reverse is not required: the patterns may let a string through that the
 * engine then refuses (`'00012'` as an integer), never the other way round.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { classOfTypeName, type ArgumentClass } from "../../src/pipeline/argument-classes.js";
import { STRING_READ_AS } from "../../src/pipeline/literal-texts.js";

/** The ClickHouse types of each judged class (argument-classes.ts, classOfTypeName). */
const TYPES: Readonly<Record<string, readonly string[]>> = {
  uint8: ["UInt8"],
  int64: ["Int8", "Int16", "Int32", "Int64", "UInt16", "UInt64"],
  float64: ["Float32", "Float64"],
  datetime: ["DateTime", "DateTime('UTC')"],
  uuid: ["UUID"],
};

/** Strings a caller writes: numbers in every shape, dates, UUIDs, words, blanks. */
const STRINGS = [
  "abc", "", " ", "1", "0", "-1", "+1", " 1", "1 ", "300", "70000", "-5000000000", "18446744073709551615", "00012",
  "1.5", "-1.5", ".5", "1.", "1e3", "1E-2", "1e", "0x10", "1_000", "inf", "-inf", "Infinity", "nan", "NaN", "true",
  "2024-01-01", "2024-01-01 00:00:00", "2024-01-01T00:00:00", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00+02:00",
  "yesterday", "now()", "00000000-0000-0000-0000-000000000001", "0000000000000000000000000000000a", "{00000000-0000-0000-0000-000000000001}",
];

const quote = (text: string): string => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

let dir: string;
let store: ColumnstoreClient;
const columns = Object.values(TYPES).flat().map((type, i) => ({ name: `c${i}`, type }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "quarry-compared-strings-"));
  store = createColumnstoreClient({ dataDir: dir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const definition = columns.map((c) => `${c.name} ${c.type}`).join(", ");
  await store.client.command({ query: `CREATE TABLE empty_values (${definition}) ENGINE = MergeTree ORDER BY tuple()` });
  await store.client.command({ query: `CREATE TABLE one_row (${definition}) ENGINE = Memory` });
  // One row of default values (0, 1970-01-01, the zero UUID).
  await store.client.command({ query: "INSERT INTO one_row (c0) VALUES (1)" });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function accepted(query: string): Promise<boolean> {
  try {
    await (await store.client.query({ query, format: "JSONEachRow" })).json();
    return true;
  } catch {
    return false;
  }
}

describe("strings compared with a value of a class", () => {
  it("covers every class the pass judges, with the types that class stands for", () => {
    expect(Object.keys(TYPES).sort()).toEqual([...STRING_READ_AS.keys()].sort());
    for (const [cls, types] of Object.entries(TYPES)) for (const type of types) expect(classOfTypeName(type), type).toBe(cls as ArgumentClass);
  });

  for (const [cls, rule] of STRING_READ_AS) {
    it(`${cls}: every string the pass refuses fails in ClickHouse, and each rule refuses something`, async () => {
      const wrongly: string[] = [];
      let refusedSomething = false;
      for (const text of STRINGS) {
        if (rule.text.test(text)) continue;
        refusedSomething = true;
        for (const column of columns.filter((c) => classOfTypeName(c.type) === cls)) {
          for (const condition of [`${column.name} = ${quote(text)}`, `${quote(text)} < ${column.name}`, `${column.name} IN (${quote(text)}, ${quote(text)})`]) {
            for (const table of ["empty_values", "one_row"]) {
              if (await accepted(`SELECT count() FROM ${table} WHERE ${condition}`)) wrongly.push(`${table}: ${condition} (${column.type})`);
            }
          }
        }
      }
      expect(refusedSomething).toBe(true);
      expect(wrongly).toEqual([]);
    });
  }
});
