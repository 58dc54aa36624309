/**
 * The entity columns the SQL computes (an `expression` column mapper: `ip_address` is a coalesce
 * of the two stored IP columns, `user` a nullIf) are declared with the type the engine gives the
 * expression on the storage's own table, Nullable or not: the aggregation rule folds `isNull` of
 * such a column by its declared type (aggregation-keys.ts), and a wrong declaration would make it
 * refuse a query the engine answers, or let through one it refuses (seed 26).
 */
import { describe, expect, it } from "vitest";
import { isNullableType, parseClickHouseType } from "../../src/datasets/clickhouse-type.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { prepareSnqlQuery } from "../../src/pipeline/run-snql-query.js";
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

  it("read by isNull beside an aggregate is refused where Nullable, as the engine refuses its SQL (code 215)", async () => {
    const R = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";
    const refused = `MATCH (search_issues) SELECT ip_address IS NOT NULL AND uniqExact(tags.key) AS c WHERE project_id = 2 AND ${R}`;
    expect(() => prepareSnqlQuery(registry, refused, false)).toThrow("column ip_address at line 1, column 30 is neither a BY key nor inside an aggregate");
    // The SQL it would have run, with the rule's refusal set aside: the engine refuses it.
    const sql = prepareSnqlQuery(registry, `MATCH (search_issues) SELECT uniqExact(tags.key) AS c WHERE project_id = 2 AND ${R}`, false).sql;
    const withIp = sql.replace("SELECT ", "SELECT isNotNull(coalesce(IPv4NumToString(ip_address_v4), IPv6NumToString(ip_address_v6))) AND uniqExact(tags.key) AS z, ");
    expect(withIp).not.toBe(sql);
    expect(await engine.code(withIp)).toBe(215);
  });
});
