/**
 * A lambda's parameters are the elements of the arrays after it (argument-types.ts, inLambda):
 * the typing pass judges a call on a parameter as the same call on a column of the element's type
 * (`arrayAll((x) -> ifNull(x, geo_city), _flags_hash_map)` reads x as a UInt64; seed 12). This
 * holds it two ways: against the pass itself (a call in a lambda body is refused exactly where the
 * call on a column of the element's type is), and against the embedded engine, for lambdas of
 * arrayMap and arrayExists over every array class and array variant the pass names (nothing the
 * pass refuses there does the engine answer, and it refuses some).
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, ARRAY_VARIANTS, CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE, elementClass, nullableSample, variantSamples } from "../../src/pipeline/argument-classes.js";
import type { Expression } from "../../src/query/ast.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import { passAgainstEngine, passRefusal } from "../support/typing-pass.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";

const TYPE_OR_COUNT_ERRORS = new Set([43, 386, 48, 42, 34, 35]);

const plainSamples = ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]);
const nullableSamples = NULLABLE_CLASSES.map((cls) => nullableSample(cls)!);
const variantColumns = ARRAY_VARIANTS.map((variant) => variantSamples(variant)[0]!);
const samples = [...plainSamples, ...nullableSamples, ...variantColumns];
const entity = probeColumnsEntity(samples);

/**
 * Each array column and a column of its elements' type the pass types the same way: an array
 * class's element class; an array variant's element, Nullable where it is (an
 * Array(Nullable(UInt16))'s elements are Nullable integers, as a Nullable(Int64) is to the pass).
 */
const ARRAYS: readonly { readonly array: string; readonly element: string }[] = [
  ...ARGUMENT_CLASSES.filter((cls) => elementClass(cls) !== null).map((cls) => ({ array: CLASS_SAMPLES[cls].column, element: CLASS_SAMPLES[elementClass(cls)!].column })),
  ...variantColumns.map((sample) => {
    const inner = /^Array\((.*)\)$/.exec(sample.type)![1]!;
    const nullable = /^Nullable\((.*)\)$/.exec(inner)?.[1];
    const element = nullable === undefined ? plainSamples.find((s) => s.type === inner) : nullableSamples.find((s) => s.type === `Nullable(${nullable})`);
    const widened = nullable === undefined ? undefined : /^UInt(8|16|32)$/.test(nullable) ? nullableSample(nullable === "UInt8" ? "uint8" : nullable === "UInt32" ? "uint32" : "int64") : undefined;
    const float32 = inner === "Float32" ? CLASS_SAMPLES.float64 : undefined;
    return { array: sample.column, element: (element ?? widened ?? float32)!.column };
  }),
];

const column = (name: string): Expression => ({ kind: "column", name });
const parameter: Expression = { kind: "argument", name: "x" };
const call = (name: string, args: readonly Expression[]): Expression => ({ kind: "function", name, args });
const lambdaOf = (body: Expression): Expression => ({ kind: "lambda", params: ["x"], body });

function sqlOf(node: Expression): string {
  switch (node.kind) {
    case "column":
      return node.name;
    case "argument":
      return node.name;
    case "literal":
      return typeof node.value === "string" ? `'${node.value}'` : String(node.value);
    case "function":
      return `${node.name}(${node.args.map(sqlOf).join(", ")})`;
    case "lambda":
      return `(${node.params.join(", ")}) -> ${sqlOf(node.body)}`;
    default:
      throw new Error(`no SQL for ${node.kind}`);
  }
}


/** Binary calls a body makes of the parameter and a column of each plain scalar class, both ways round. */
function bodies(of: Expression, names: readonly string[]): Expression[] {
  const scalars = plainSamples.filter((sample) => !sample.type.startsWith("Array(") && !sample.type.startsWith("AggregateFunction("));
  return names.flatMap((name) => scalars.flatMap((sample) => [call(name, [of, column(sample.column)]), call(name, [column(sample.column), of])]));
}

const engine = useProbeTablesEngine("lambda-parameters", samples);


describe("a lambda's parameter", () => {
  it("is judged in arrayMap's body as a column of its array's element type is", () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const { array, element } of ARRAYS)
      for (const body of bodies(parameter, ["equals", "less", "plus", "ifNull", "concat", "like"])) {
        const inLambda = passRefusal(call("arrayMap", [lambdaOf(body), column(array)]), entity);
        const onColumn = passRefusal(bodies(column(element), [(body as { name: string }).name]).find((b) => sqlOf(b) === sqlOf(body).replace(/\bx\b/, element))!, entity);
        if ((inLambda === null) !== (onColumn === null)) wrong.push(`${sqlOf(body)} over ${array}: in the lambda ${inLambda ?? "taken"}; on ${element} ${onColumn ?? "taken"}`);
        if (inLambda !== null) refused += 1;
      }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(200);
  });

  it("typed so, refuses nothing the engine answers in arrayMap and arrayExists bodies, over each array class and variant", async () => {
    const disagreements: string[] = [];
    let refused = 0;
    let engineRefused = 0;
    for (const { array } of ARRAYS)
      for (const name of ["arrayMap", "arrayExists"])
        for (const body of bodies(parameter, ["equals", "plus", "ifNull"])) {
          const expression = call(name, [lambdaOf(body), column(array)]);
          const refusal = passRefusal(expression, entity);
          const code = await engine.code(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`);
          if (refusal !== null) refused += 1;
          if (code !== null && TYPE_OR_COUNT_ERRORS.has(code)) engineRefused += 1;
          if (refusal !== null && (code === null || !TYPE_OR_COUNT_ERRORS.has(code))) disagreements.push(`${sqlOf(expression)}: the pass refuses it (${refusal.slice(0, 120)}), the engine ${code === null ? "answers" : `fails (${code})`}`);
        }
    expect(disagreements).toEqual([]);
    // Most of what the engine refuses, the pass does now (before, none: parameters had no type).
    expect(refused).toBeGreaterThan(engineRefused * 0.9);
  });

  it("given to arrayFilter, arraySort or arrayFill, makes a call that is its first array's type: judged as the array is, and refused where the engine refuses it (found by the fuzz: now() < arrayFilter(…, tags.key / 100), seed 23)", async () => {
    const wrong: string[] = [];
    let refused = 0;
    const partners = plainSamples.filter((sample) => !sample.type.startsWith("AggregateFunction(")).map((sample) => column(sample.column));
    for (const { array } of ARRAYS)
      for (const name of ["arrayFilter", "arrayReverseSort", "arrayFill"]) {
        const kept = call(name, [lambdaOf(call("isNotNull", [parameter])), column(array)]);
        for (const partner of partners)
          for (const op of ["equals", "less", "has"]) {
            const expression = call(op, [kept, partner]);
            const refusal = passRefusal(expression, entity);
            const asArray = passRefusal(call(op, [column(array), partner]), entity);
            if ((refusal === null) !== (asArray === null)) wrong.push(`${sqlOf(expression)}: the pass ${refusal ?? "takes it"}; of ${array} itself ${asArray ?? "takes it"}`);
            if (refusal === null) continue;
            refused += 1;
            const code = await engine.code(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`);
            if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${sqlOf(expression)}: the pass refuses it (${refusal.slice(0, 100)}), the engine ${code === null ? "answers" : `fails (${code})`}`);
          }
      }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(100);
  }, 300_000);

  it("returning a value of a type without a class (a Date, a tuple, a Variant) is refused where the function takes only conditions from its lambda, as the engine refuses it", async () => {
    const conditionsOnly = ["arrayAll", "arrayCount", "arrayExists", "arrayFilter", "arrayFirst", "arrayFirstIndex", "arrayLast"];
    const datetime = column(CLASS_SAMPLES.datetime.column);
    const uint8 = column(CLASS_SAMPLES.uint8.column);
    const disagreements: string[] = [];
    let refused = 0;
    for (const { array, element } of ARRAYS) {
      const bodiesOfVariants = [
        call("toDate", [datetime]),
        call("toDateTime64", [datetime, { kind: "literal", value: 3 }]),
        call("tuple", [parameter]),
        call("if", [uint8, parameter, column(element === CLASS_SAMPLES.string.column ? CLASS_SAMPLES.int64.column : CLASS_SAMPLES.string.column)]),
        call("map", [{ kind: "literal", value: "k" }, parameter]),
      ];
      for (const name of [...conditionsOnly, "arrayMap"])
        for (const body of bodiesOfVariants) {
          const expression = call(name, [lambdaOf(body), column(array)]);
          const refusal = passRefusal(expression, entity);
          const code = await engine.code(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`);
          if (refusal !== null) refused += 1;
          if (refusal !== null && (code === null || !TYPE_OR_COUNT_ERRORS.has(code))) disagreements.push(`${sqlOf(expression)}: the pass refuses it (${refusal.slice(0, 120)}), the engine ${code === null ? "answers" : `fails (${code})`}`);
          if (name === "arrayMap" && refusal !== null) disagreements.push(`${sqlOf(expression)}: arrayMap takes any lambda, the pass refuses it`);
        }
    }
    expect(disagreements).toEqual([]);
    // Every function of conditions over each array, of the Date, the tuple and the if's Variant
    // (the pass names no type for toDateTime64 of a column, nor for a map built by map()).
    expect(refused).toBeGreaterThanOrEqual(conditionsOnly.length * ARRAYS.length * 3);
  });

  it("names the parameter in a refusal, and leaves a body over an array it cannot type alone", () => {
    const message = passRefusal(call("arrayExists", [lambdaOf(call("equals", [parameter, column(CLASS_SAMPLES.uint8.column)])), column(CLASS_SAMPLES.arrayString.column)]), entity);
    expect(message).toContain("the lambda's parameter `x`");
    // An array of NULLs: its elements are of no type the pass names.
    expect(passRefusal(call("arrayExists", [lambdaOf(call("equals", [parameter, column(CLASS_SAMPLES.uint8.column)])), call("array", [{ kind: "literal", value: null }])]), entity)).toBeNull();
  });

  it("is no lambda where a function that takes one gets two arguments or more: refused as the engine refuses it, and a lambda first taken", async () => {
    const lambdaFunctions = [...PROBED_FUNCTION_SIGNATURES].filter(([, signature]) => signature.lambda).map(([name]) => name);
    expect(lambdaFunctions.length).toBeGreaterThan(10);
    const arrays = [CLASS_SAMPLES.arrayNumber.column, CLASS_SAMPLES.arrayString.column];
    const firsts = [...arrays, CLASS_SAMPLES.uint8.column, "1"];
    const refusedCalls = lambdaFunctions.flatMap((name) => firsts.flatMap((first) => [`${name}(${first}, ${arrays[0]})`, `${name}(${first}, ${arrays[0]}, ${arrays[0]})`]));
    const takenCalls = lambdaFunctions.map((name) => `${name}((\`x\`) -> identity(\`x\`), ${arrays[0]})`);
    const refused = await passAgainstEngine(engine, entity, refusedCalls, PROBE_ROW_TABLE);
    expect(refused.wrong).toEqual([]);
    expect(refused.refused).toBe(refusedCalls.length);
    const taken = await passAgainstEngine(engine, entity, takenCalls, PROBE_ROW_TABLE);
    expect(taken.wrong).toEqual([]);
  });
});

