/**
 * The typing pass types columns from the entities' declared types and their column mappers,
 * without asking the engine. This holds what it knows to what the embedded engine says: for
 * every entity column (Nested sub-columns and subscripts included), the class and nullability
 * the pass gives the column are those of the engine's type of the SQL Quarry prints for it
 * (DESCRIBE over the entity's storage), so is the variant it gives a type without a class (a
 * Nested column read whole is an array of tuples), and a column the storage computes as a bare NULL is
 * known to be one. A declared type that drifts from its storage fails here, before it turns a
 * valid query into a refused one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { ExpressionPrinter } from "../../src/clickhouse/expression-printer.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { parseClickHouseType } from "../../src/datasets/clickhouse-type.js";
import type { EntityDefinition } from "../../src/datasets/definition-types.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import type { Expression } from "../../src/query/ast.js";
import { classOfTypeName, nullableClassOfTypeName, variantOfTypeName } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";

const registry = defaultRegistry();
let dataDir: string;
let engine: ColumnstoreClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "quarry-column-types-"));
  engine = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  await runMigrations(engine.client, registry);
});

afterAll(async () => {
  await engine?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every column expression a query can write on the entity: columns, Nested sub-columns, one subscript per subscriptable. */
function columnExpressions(entity: EntityDefinition): Expression[] {
  // Virtual columns that only a mapped aggregate takes (`sum(value)` on metrics) have no SQL of their own.
  const skipped = new Set((entity.functionMappers ?? []).map((mapper) => mapper.argument));
  // A bucketed Map (`attributes_string`) is read by key only: each key lives in one bucket column.
  for (const [name, definition] of Object.entries(entity.subscriptables)) if (definition.kind === "map" && definition.buckets) skipped.add(name);
  const expressions: Expression[] = [];
  for (const column of entity.columns) {
    if (skipped.has(column.name)) continue;
    expressions.push({ kind: "column", name: column.name });
    const type = parseClickHouseType(column.type);
    if (type.kind === "nested") for (const field of type.fields) expressions.push({ kind: "column", name: `${column.name}.${field.name}` });
  }
  for (const [name, definition] of Object.entries(entity.subscriptables)) {
    expressions.push({ kind: "subscript", column: name, key: definition.kind === "nested" && definition.integerKeys ? "1" : "some.key" });
  }
  return expressions;
}

/** The class and nullability the pass would give a column of this engine type. */
function classOfEngineType(type: string): { cls: string | null; nullable: boolean } {
  const plain = classOfTypeName(type);
  if (plain) return { cls: plain, nullable: false };
  const wrapped = nullableClassOfTypeName(type);
  return wrapped ? { cls: wrapped, nullable: true } : { cls: null, nullable: false };
}

describe("column types the typing pass knows", () => {
  for (const entity of registry.entities()) {
    it(`${entity.name}: the engine's types`, async () => {
      const table = registry.storage(entity.readableStorage)!.table;
      const printer = new ExpressionPrinter({ kind: "entity", entity }, new Set(), 3600);
      const mismatches: string[] = [];
      for (const expression of columnExpressions(entity)) {
        const sql = printer.expression(expression);
        const result = await engine.client.query({ query: `DESCRIBE (SELECT ${sql} AS c FROM ${table})`, format: "JSONEachRow" });
        const engineType = ((await result.json()) as { type: string }[])[0]!.type;
        const known = expressionTyping(expression, entity);
        const expected = classOfEngineType(engineType);
        const name = expression.kind === "subscript" ? `${expression.column}[${expression.key}]` : (expression as { name: string }).name;
        if (known.cls !== expected.cls || (known.cls !== null && known.nullable !== expected.nullable)) {
          mismatches.push(`${name}: the pass has ${known.cls ?? "no class"}${known.nullable ? " (Nullable)" : ""}, the engine ${engineType}`);
        }
        // A type without a class: the variant the pass gives it is the engine type's.
        const expectedVariant = expected.cls === null ? variantOfTypeName(engineType) : null;
        if (known.variant !== expectedVariant) mismatches.push(`${name}: the pass has the variant ${known.variant ?? "none"}, the engine ${engineType} (${expectedVariant ?? "none"})`);
        if (engineType === "Nullable(Nothing)" && !known.mayBeNothing) mismatches.push(`${name}: a bare NULL in the storage, not known as one`);
      }
      expect(mismatches).toEqual([]);
    });
  }

  it("types `x IN column` as the engine does: a Nullable(UInt8) with a storage column on the right", async () => {
    const mismatches: string[] = [];
    let typedCalls = 0;
    for (const entity of registry.entities()) {
      const table = registry.storage(entity.readableStorage)!.table;
      const printer = new ExpressionPrinter({ kind: "entity", entity }, new Set(), 3600);
      for (const right of columnExpressions(entity)) {
        if (right.kind !== "column") continue;
        for (const left of [{ kind: "literal", value: 1 }, { kind: "literal", value: "a" }, { kind: "literal", value: null }] as const) {
          const expression: Expression = { kind: "function", name: "in", args: [left, right] };
          let known: ReturnType<typeof expressionTyping> | null = null;
          try {
            known = expressionTyping(expression, entity);
          } catch {
            // Refused by the pass: the engine must refuse it too (checked below).
          }
          if (known?.cls === null) continue;
          const engineType = await engine.client
            .query({ query: `DESCRIBE (SELECT ${printer.expression(expression)} AS c FROM ${table})`, format: "JSONEachRow" })
            .then(async (result) => ((await result.json()) as { type: string }[])[0]!.type, () => null);
          if (known === null) {
            // A column the storage computes is compared row by row as `=` compares: the engine
            // refuses a value of no common type on the first row holding one, not while typing
            // (held on rows by the probe's test of `x IN` a computed Nullable column).
            const computed = ["expression", "subscript"].includes(entity.columnMappers[right.name]?.kind ?? "");
            if (engineType !== null && !computed) mismatches.push(`${entity.name}: ${printer.expression(expression)}: refused by the pass, typed ${engineType} by the engine`);
            continue;
          }
          if (engineType === null) continue;
          typedCalls += 1;
          const expected = classOfEngineType(engineType);
          if (known.cls !== expected.cls || known.nullable !== expected.nullable) mismatches.push(`${entity.name}: ${printer.expression(expression)}: the pass has ${known.cls}${known.nullable ? " (Nullable)" : ""}, the engine ${engineType}`);
        }
      }
    }
    expect(typedCalls).toBeGreaterThan(200);
    expect(mismatches).toEqual([]);
  }, 120_000);

  it("types a time-bucket column (`time`) as the engine types its bucket at each granularity: a Date by the day, else a DateTime", async () => {
    const mismatches: string[] = [];
    let typed = 0;
    for (const entity of registry.entities()) {
      const table = registry.storage(entity.readableStorage)!.table;
      for (const name of Object.keys(entity.timeBucketColumns))
        for (const granularity of [60, 3600, 86400, 120]) {
          const expression: Expression = { kind: "column", name };
          const sql = new ExpressionPrinter({ kind: "entity", entity }, new Set(), granularity).expression(expression);
          const result = await engine.client.query({ query: `DESCRIBE (SELECT ${sql} AS c FROM ${table})`, format: "JSONEachRow" });
          const engineType = ((await result.json()) as { type: string }[])[0]!.type;
          const known = expressionTyping(expression, entity, granularity);
          const expected = classOfEngineType(engineType);
          typed += 1;
          if (known.cls !== expected.cls || known.variant !== (expected.cls === null ? variantOfTypeName(engineType) : null)) {
            mismatches.push(`${entity.name}.${name} at ${granularity}: the pass has ${known.cls ?? known.variant ?? "nothing"}, the engine ${engineType}`);
          }
        }
    }
    expect(typed).toBeGreaterThan(20);
    expect(mismatches).toEqual([]);
  });

  it("types a column mapped to a literal as that literal, a constant", () => {
    const discover = registry.entity("discover")!;
    expect(discover.columnMappers["group_id"]).toEqual({ kind: "literal", value: 0 });
    expect(expressionTyping({ kind: "column", name: "group_id" }, discover)).toMatchObject({ cls: "uint8", constant: true, mayBeNothing: false });
    expect(expressionTyping({ kind: "column", name: "primary_hash" }, discover)).toMatchObject({ cls: null, mayBeNothing: true });
  });
});
