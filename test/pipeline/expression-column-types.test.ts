/**
 * The entity columns the SQL computes (an `expression` column mapper: `ip_address` is a coalesce
 * of the two stored IP columns, `user` a nullIf) are declared with the type the engine gives the
 * expression on the storage's own table, Nullable or not: the declaration documents the column
 * (the entity's described columns) and must not contradict what a query reads.
 */
import { describe, expect, it } from "vitest";
import { isNullableType, parseClickHouseType } from "../../src/datasets/clickhouse-type.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { useMigratedEngine } from "../support/scratch-engine.js";

const registry = defaultRegistry();
const engine = useMigratedEngine("expression-column-types");

describe("an entity column computed by an expression", () => {
  it("is declared Nullable exactly where the engine types the expression Nullable", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const entity of registry.entities()) {
      const storage = registry.storage(entity.readableStorage)!;
      for (const [name, mapper] of Object.entries(entity.columnMappers)) {
        if (mapper.kind !== "expression") continue;
        const declared = entity.columns.find((column) => column.name === name)?.type;
        if (declared === undefined) continue;
        const described = (await (await engine.store.client.query({ query: `DESCRIBE (SELECT ${mapper.sql} AS x FROM ${storage.table})`, format: "JSONEachRow" })).json()) as { type: string }[];
        const actual = described[0]!.type;
        checked++;
        if (isNullableType(parseClickHouseType(declared)) !== isNullableType(parseClickHouseType(actual))) wrong.push(`${entity.name}.${name}: declared ${declared}, the engine ${actual}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(20);
  });

});
