/**
 * greatest and least compare their arguments in one common type, and an array has none with a
 * value that is no array, whatever its elements: `greatest(retention_days,
 * array(transaction_source))` on discover_events (an Array(Nullable(Nothing)) there) is code 386
 * (seed 16). The typing pass refuses an array whose elements it cannot name (an array of NULLs,
 * of Nullable numbers or DateTimes, arrayMap's) beside a scalar or a NULL, and leaves it beside
 * another array (typing/common-types.ts, refuseArrayOfUnknownElementsBesideScalar and
 * refuseNullBesideContainer); this holds it to the embedded engine, each way round.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, nullableSample, variantSamples } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passRefusal } from "../support/typing-pass.js";

const scalars = (["string", "uint8", "int64", "float64", "datetime", "uuid", "bool"] as const).map((cls) => CLASS_SAMPLES[cls]);
const arrays = (["arrayString", "arrayNumber"] as const).map((cls) => CLASS_SAMPLES[cls]);
const nullable = nullableSample("string")!;
/** Arrays of Nullable strings and of Nullable UInt32s (exception_frames.filename, .colno). */
const [nullableStrings, nullableUInt32s] = (["nullableStrings", "nullableUInt32"] as const).map((variant) => variantSamples(variant)[0]!);
const samples = [...scalars, ...arrays, nullable, nullableStrings!, nullableUInt32s!];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("common-type-arrays", samples);

const { c_uint8: u, c_datetime: d, c_array_string: strings } = Object.fromEntries(samples.map((sample) => [sample.column, sample.column]));
/** Arrays whose elements the pass cannot name. */
const unnamed = ["array(NULL)", `array(NULL, ${u})`, `array(NULL, ${d})`, `arrayMap((\`x\`) -> divide(${u}, TRUE), ${strings})`];

describe("greatest and least of an array whose elements the pass cannot name", () => {
  it("are refused beside a scalar or a NULL, as the engine refuses them, and left to it beside an array", async () => {
    const wrong: string[] = [];
    let refused = 0;
    const partners = [...scalars.map((sample) => sample.column), nullable.column, "NULL", ...arrays.map((sample) => sample.column)];
    for (const array of unnamed)
      for (const partner of partners)
        for (const name of ["greatest", "least"])
          for (const sql of [`${name}(${array}, ${partner})`, `${name}(${partner}, ${array})`]) {
            const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
            // The SnQL text is the SQL here (ClickHouse reads a lambda's backquoted parameter as SnQL does).
            const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
            const besideArray = arrays.some((sample) => sample.column === partner);
            if (refusal !== null) refused++;
            if (refusal !== null && code === null) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 120)}), the engine answers`);
            if (refusal === null && !besideArray) wrong.push(`${sql}: the pass takes it, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
          }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(unnamed.length * (scalars.length + 2) * 2 * 2);
  });
});

describe("an if or a multiIf of arrays of strings, some of Nullable ones", () => {
  it("is an Array(Nullable(String)) in the pass and in the engine, and compared with an array of numbers it is refused as the engine refuses it (found by the fuzz: if(0, exception_frames.filename, contexts.key) = exception_frames.colno, code 43, seed 24)", async () => {
    const { column: plain } = arrays[0]!;
    const wrong: string[] = [];
    for (const sql of [`if(${u}, ${nullableStrings!.column}, ${plain})`, `if(0, ${nullableStrings!.column}, ${plain})`, `multiIf(${u}, ${plain}, ${u} > 1, ${nullableStrings!.column}, ${plain})`]) {
      const expression = parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression;
      const typeName = String((await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" }).then((result) => result.json<{ t: string }>()))[0]!.t);
      if (typeName !== "Array(Nullable(String))" || expressionTyping(expression, entity).variant !== "nullableStrings") wrong.push(`${sql}: the engine ${typeName}, the pass ${JSON.stringify(expressionTyping(expression, entity))}`);
      for (const other of [nullableUInt32s!.column, arrays[1]!.column, plain]) {
        const compared = `equals(${sql}, ${other})`;
        const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${compared} AS zz`).selected[0]!.expression, entity);
        const code = await engine.code(`SELECT ${compared} FROM ${PROBE_ROW_TABLE}`);
        if ((refusal === null) !== (code === null)) wrong.push(`${compared}: the pass ${refusal === null ? "takes it" : "refuses it"}, the engine ${code === null ? "answers" : `fails (${code})`}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("greatest and least of a Variant (an if of branches with no common type)", () => {
  it("are refused beside a value of any other type, a NULL among them or not, as the engine refuses them, and taken beside a NULL or the same Variant (found by the fuzz: greatest(1000, if(site, 'error', measurements[lcp]), sample_weight), code 386, seed 43)", async () => {
    const s = CLASS_SAMPLES.string.column;
    const f = CLASS_SAMPLES.float64.column;
    const variants = [`if(${u}, ${s}, ${f})`, `if(0, ${s}, ${f})`, `if(${u}, 'error', 1000)`, `if(${u}, ${d}, ${s})`];
    const partners = [...scalars.map((sample) => sample.column), nullable.column, "1000", "'x'", ...arrays.map((sample) => sample.column)];
    const wrong: string[] = [];
    let refused = 0;
    for (const variant of variants)
      for (const name of ["greatest", "least"]) {
        const calls = [...partners.flatMap((partner) => [`${name}(${variant}, ${partner})`, `${name}(${partner}, ${variant}, NULL)`, `${name}(NULL, ${variant}, ${partner})`]), `${name}(${variant}, NULL)`, `${name}(${variant}, ${variant})`];
        for (const sql of calls) {
          const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
          const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
          if (refusal !== null) refused++;
          const engineRefuses = code === 386 || code === 43;
          if ((refusal !== null) !== engineRefuses) wrong.push(`${sql}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 120)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
        }
      }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(200);
  });
});
