/**
 * The exact integer types the typing pass knows (integer-types.ts), held to the embedded engine:
 * the type it gives integer arithmetic, literals, conversions and counts is the engine's
 * `toTypeName`, and greatest and least refuse two numbers exactly where the engine finds no
 * common type for them (a 64-bit integer beside a float; past two plain arguments, a UInt64
 * beside a signed integer), and take the rest (an Int32 beside a float).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickHouseCodeOf } from "../../src/clickhouse/clickhouse-error.js";
import { columnsEntity } from "../../src/datasets/columns-entity.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { ELEMENT_DEPENDENT_INTEGER_RESULTS, FIXED_INTEGER_RESULTS, integerShapeOfLiteral, integerTypeName } from "../../src/pipeline/integer-types.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import type { Expression } from "../../src/query/ast.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { passRefusal } from "../support/typing-pass.js";
import { openScratchEngine, type ScratchEngine } from "../support/scratch-engine.js";

const INTEGERS = ["UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64"];
const NUMBERS = [...INTEGERS, "Bool", "Float32", "Float64"];
/** Each number type as a plain column (`c_Int32`) and a Nullable one (`n_Int32`), and a DateTime. */
const COLUMNS = [
  ...NUMBERS.map((type) => ({ name: `c_${type}`, type })),
  ...NUMBERS.filter((type) => type !== "Bool").map((type) => ({ name: `n_${type}`, type: `Nullable(${type})` })),
  { name: "c_DateTime", type: "DateTime" },
  // An IP address as the entities hold it.
  { name: "n_IPv4", type: "Nullable(IPv4)" },
];
const ENTITY = columnsEntity("numbers", COLUMNS);
/** Integer literals at each end of each type ClickHouse gives a literal. */
const LITERALS = [0, 255, 256, 65535, 65536, 4294967295, 4294967296, 2 ** 53, -1, -128, -129, -32768, -32769, -2147483648, -2147483649, -(2 ** 53)];

const column = (name: string): Expression => ({ kind: "column", name });
const literal = (value: unknown): Expression => ({ kind: "literal", value }) as Expression;
const call = (name: string, args: readonly Expression[]): Expression => ({ kind: "function", name, args });
const sqlOf = (node: Expression): string =>
  node.kind === "function" ? `${node.name}(${node.args.map(sqlOf).join(", ")})` : node.kind === "column" ? node.name : node.kind === "literal" && node.value === null ? "NULL" : String((node as { value: unknown }).value);

let engine: ScratchEngine;

beforeAll(async () => {
  engine = openScratchEngine("integer-types");
  await engine.store.client.command({ query: `CREATE TABLE numbers (${COLUMNS.map((c) => `${c.name} ${c.type}`).join(", ")}) ENGINE = Memory` });
  await engine.store.client.command({ query: `INSERT INTO numbers SELECT ${COLUMNS.map((c) => (c.type === "DateTime" ? "now()" : c.type.includes("IPv4") ? "toIPv4('1.2.3.4')" : "1")).join(", ")}` });
});

afterAll(async () => {
  await engine.close();
});

/** The engine's type of an expression over the numbers table, Nullable kept. */
async function engineTypeName(sql: string): Promise<string> {
  const rows = (await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM numbers`, format: "JSONEachRow" })).json()) as { t: string }[];
  return rows[0]!.t;
}

/** The same, Nullable taken off. */
async function engineType(sql: string): Promise<string> {
  return (await engineTypeName(sql)).replace(/^Nullable\((.*)\)$/, "$1");
}

async function engineCode(sql: string): Promise<number | null> {
  try {
    await (await engine.store.client.query({ query: `SELECT ${sql} AS r FROM numbers`, format: "JSONEachRow" })).json();
    return null;
  } catch (error) {
    return clickHouseCodeOf(error);
  }
}

/** The number type the pass gives: an exact integer type, or "a float" (Float32 and Float64 are one class); null for none. */
function numberTypeOf(typing: ReturnType<typeof expressionTyping>): string | null {
  return typing.integer ?? (typing.cls === "float64" ? "a float" : null);
}

/** Where the pass's number type (numberTypeOf) or Nullability differs from the engine's type of the expression. */
function numberTypeDisagreements(expression: Expression, typing: ReturnType<typeof expressionTyping>, engineSays: string): string[] {
  const pass = numberTypeOf(typing);
  const plain = engineSays.replace(/^Nullable\((.*)\)$/, "$1");
  const wrong: string[] = [];
  if (pass === "a float" ? !["Float32", "Float64"].includes(plain) : pass !== plain) wrong.push(`${sqlOf(expression)}: the pass ${pass}, the engine ${engineSays}`);
  if (typing.nullable !== engineSays.startsWith("Nullable(")) wrong.push(`${sqlOf(expression)}: Nullable ${typing.nullable} in the pass, the engine ${engineSays}`);
  return wrong;
}

/**
 * Where the pass's type of a call of numbers differs from the engine's: a Variant (mixed) exactly
 * where the engine makes one, of as many alternatives; else the number type (numberTypeDisagreements).
 * The kind says which was compared ("other" where the pass names no number type).
 */
async function variantOrNumberDisagreements(expression: Expression): Promise<{ wrong: string[]; kind: "variant" | "number" | "other" }> {
  const typing = expressionTyping(expression, ENTITY);
  const engineSays = await engineTypeName(sqlOf(expression));
  const engineVariant = /^Variant\((.*)\)$/.exec(engineSays)?.[1];
  if ((typing.variant === "mixed") !== (engineVariant !== undefined)) return { wrong: [`${sqlOf(expression)}: the pass ${typing.variant ?? typing.cls}, the engine ${engineSays}`], kind: "other" };
  if (engineVariant !== undefined) {
    const wrong = typing.alternatives!.length !== engineVariant.split(", ").length ? [`${sqlOf(expression)}: the pass ${typing.alternatives!.length} alternatives, the engine ${engineSays}`] : [];
    return { wrong, kind: "variant" };
  }
  if (numberTypeOf(typing) === null) return { wrong: [], kind: "other" };
  return { wrong: numberTypeDisagreements(expression, typing, engineSays), kind: "number" };
}

/** variantOrNumberDisagreements over many calls: every disagreement, and how many Variants and number types were compared. */
async function variantOrNumberTally(expressions: readonly Expression[]): Promise<{ wrong: string[]; variants: number; typed: number }> {
  const wrong: string[] = [];
  let variants = 0;
  let typed = 0;
  for (const expression of expressions) {
    const outcome = await variantOrNumberDisagreements(expression);
    wrong.push(...outcome.wrong);
    if (outcome.kind === "variant") variants += 1;
    if (outcome.kind === "number") typed += 1;
  }
  return { wrong, variants, typed };
}

describe("exact integer types", () => {
  it("gives an integer literal the type the engine gives it", async () => {
    for (const value of LITERALS) {
      const pass = integerShapeOfLiteral(value);
      const engineSays = await engineType(String(value));
      expect(pass === null ? null : integerTypeName(pass), String(value)).toBe(engineSays);
      expect(expressionTyping(literal(value), ENTITY).integer, String(value)).toBe(engineSays);
    }
  });

  it("gives an integer written past 2^53 the engine's type by its digits: 2^64 - 1 is a UInt64 and -2^63 an Int64, one further a Float64", async () => {
    // JavaScript's nearest numbers to 2^64 - 1 and -2^63 lie on or past the types' ends; the SQL
    // prints the digits, which the engine reads exactly.
    const texts = ["9007199254740993", "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775807", "-9223372036854775808", "-9223372036854775809"];
    for (const text of texts) {
      const typing = expressionTyping(parseSnql(`MATCH (x) SELECT ${text} AS zz`).selected[0]!.expression, ENTITY);
      const engineSays = await engineType(text);
      expect(typing.integer ?? typing.cls, text).toBe(engineSays === "Float64" ? "float64" : engineSays);
    }
  });

  it("gives integer arithmetic of two integers (columns, Nullable ones, literals, Booleans) the engine's type", async () => {
    const wrong: string[] = [];
    let judged = 0;
    const operands = [...[...INTEGERS, "Bool"].map((type) => column(`c_${type}`)), ...INTEGERS.map((type) => column(`n_${type}`)), ...LITERALS.map(literal)];
    for (const name of ["plus", "minus", "multiply", "intDiv", "intDivOrZero", "modulo"])
      for (const left of operands)
        for (const right of operands) {
          if (left.kind === "literal" && right.kind === "literal") continue;
          // Dividing by a literal zero is refused at analysis (code 153), not a type.
          if (right.kind === "literal" && right.value === 0 && name !== "plus" && name !== "minus" && name !== "multiply" && name !== "intDivOrZero") continue;
          const expression = call(name, [left, right]);
          const typing = expressionTyping(expression, ENTITY);
          const engineSays = await engineType(sqlOf(expression));
          // A UInt8 and a UInt32 are classes of their own; a Bool's class has no integer type.
          const pass = typing.integer ?? (typing.cls === "uint8" ? "UInt8" : typing.cls === "uint32" ? "UInt32" : null);
          judged += 1;
          if (pass !== engineSays) wrong.push(`${sqlOf(expression)}: the pass ${pass ?? `has no type (${typing.cls})`}, the engine ${engineSays}`);
        }
    expect(wrong.slice(0, 20), `${wrong.length} of ${judged}`).toEqual([]);
    expect(judged).toBeGreaterThan(3000);
  }, 300_000);

  it("gives arithmetic with an IPv4 (an integer on a UInt32) the engine's type, Nullable (found by the fuzz: uniqIf(0, length(s) + ip_address_v4))", async () => {
    const wrong: string[] = [];
    const operands = [...[...INTEGERS, "Bool"].map((type) => column(`c_${type}`)), ...INTEGERS.map((type) => column(`n_${type}`)), literal(1), literal(-1), literal(300), column("n_IPv4")];
    for (const name of ["plus", "minus", "multiply"])
      for (const other of operands)
        for (const expression of [call(name, [column("n_IPv4"), other]), call(name, [other, column("n_IPv4")])]) {
          const typing = expressionTyping(expression, ENTITY);
          wrong.push(...numberTypeDisagreements(expression, typing, await engineTypeName(sqlOf(expression))));
        }
    expect(wrong).toEqual([]);
    // And an -If aggregate refuses such a value as its condition, as the engine does.
    const condition = call("uniqIf", [literal(0), call("plus", [column("c_UInt64"), column("n_IPv4")])]);
    expect(passRefusal(condition, ENTITY)).not.toBeNull();
    expect(await engineCode(sqlOf(condition))).toBe(43);
  });

  it("gives abs and negate of an integer (a column, a Nullable one, a literal, a Boolean) the engine's type (found by the fuzz: coalesce(abs(segment_id), FALSE), seed 19)", async () => {
    const wrong: string[] = [];
    const operands = [...[...INTEGERS, "Bool"].map((type) => column(`c_${type}`)), ...INTEGERS.map((type) => column(`n_${type}`)), ...LITERALS.map(literal)];
    for (const name of ["abs", "negate"])
      for (const operand of operands) {
        const expression = call(name, [operand]);
        wrong.push(...numberTypeDisagreements(expression, expressionTyping(expression, ENTITY), await engineTypeName(sqlOf(expression))));
      }
    expect(wrong).toEqual([]);
  });

  it("gives a DateTime minus a DateTime the engine's type", async () => {
    const expression = call("minus", [column("c_DateTime"), call("now", [])]);
    expect(expressionTyping(expression, ENTITY).integer).toBe(await engineType(sqlOf(expression)));
  });

  it("knows the fixed integer type of every function the probe found always of the integer class, but those following an array's elements", async () => {
    const alwaysInteger = [...PROBED_FUNCTION_SIGNATURES].filter(([, signature]) => signature.result === "int64").map(([name]) => name);
    expect([...FIXED_INTEGER_RESULTS.keys(), ...ELEMENT_DEPENDENT_INTEGER_RESULTS].sort()).toEqual(alwaysInteger.sort());
    // One call of each, as the engine takes it.
    const CALLS: Readonly<Record<string, string>> = {
      cityHash64: "cityHash64('a')", count: "count()", countDistinct: "countDistinct(c_Int8)", countIf: "countIf(c_Bool)", indexOf: "indexOf([1], 1)", length: "length('a')",
      lengthUTF8: "lengthUTF8('a')", multiSearchFirstIndex: "multiSearchFirstIndex('a', ['a'])", murmurHash3_64: "murmurHash3_64('a')", position: "position('a', 'a')",
      positionCaseInsensitive: "positionCaseInsensitive('a', 'a')", positionCaseInsensitiveUTF8: "positionCaseInsensitiveUTF8('a', 'a')", positionUTF8: "positionUTF8('a', 'a')",
      reinterpretAsUInt64: "reinterpretAsUInt64('a')", sipHash64: "sipHash64('a')", toUInt64: "toUInt64(c_Int8)", toUInt64OrZero: "toUInt64OrZero('1')", uniq: "uniq(c_Int8)",
      uniqCombined: "uniqCombined(c_Int8)", uniqCombined64: "uniqCombined64(c_Int8)", uniqExact: "uniqExact(c_Int8)", uniqExactIf: "uniqExactIf(c_Int8, c_Bool)", uniqHLL12: "uniqHLL12(c_Int8)",
      uniqIf: "uniqIf(c_Int8, c_Bool)", xxHash64: "xxHash64('a')", sign: "sign(c_UInt64)", toInt8: "toInt8(c_UInt64)", toInt16: "toInt16(c_UInt64)", toInt32: "toInt32(c_UInt64)",
      toInt64: "toInt64(c_UInt64)", toInt64OrZero: "toInt64OrZero('1')", toUInt16: "toUInt16(c_Int64)", toDayOfYear: "toDayOfYear(c_DateTime)", toYear: "toYear(c_DateTime)",
    };
    expect(Object.keys(CALLS).sort()).toEqual([...FIXED_INTEGER_RESULTS.keys()].sort());
    for (const [name, integer] of FIXED_INTEGER_RESULTS) expect(integerTypeName(integer), CALLS[name]).toBe(await engineType(CALLS[name]!));
    // And the walk gives the call that type (`sign(1.5)`, of a float, too).
    expect(expressionTyping(call("sign", [literal(1.5)]), ENTITY).integer).toBe(await engineType("sign(1.5)"));
    expect(expressionTyping(call("count", []), ENTITY).integer).toBe("UInt64");
  });

  it("gives greatest and least of numbers (integers, floats, a Bool, a Nullable and a NULL among them) the engine's type", async () => {
    const wrong: string[] = [];
    let typed = 0;
    const integers = [...NUMBERS.map((type) => column(`c_${type}`)), ...NUMBERS.filter((type) => type !== "Bool").map((type) => column(`n_${type}`)), literal(-1), literal(300), literal(0.5)];
    for (const name of ["greatest", "least"])
      for (const first of integers)
        for (const second of integers)
          for (const args of [[first, second], [first, second, column("c_Bool")], [first, second, literal(null)], [first, column("c_UInt16"), second]]) {
            const expression = call(name, args);
            if (passRefusal(expression, ENTITY) !== null) continue;
            const typing = expressionTyping(expression, ENTITY);
            if (numberTypeOf(typing) === null) continue;
            typed += 1;
            wrong.push(...numberTypeDisagreements(expression, typing, await engineTypeName(sqlOf(expression))));
          }
    expect(wrong.slice(0, 40), `${wrong.length} of ${typed}`).toEqual([]);
    expect(typed).toBeGreaterThan(2500);
  }, 300_000);

  it("gives an array of integers of known types (columns, literals) the engine's type: an array of their common type", async () => {
    const wrong: string[] = [];
    let typed = 0;
    const integers = [...INTEGERS.map((type) => column(`c_${type}`)), ...LITERALS.map(literal)];
    for (const first of integers)
      for (const second of integers)
        for (const args of [[first], [first, second], [first, second, column("c_UInt16")], [first, second, literal(0.5)]]) {
          const expression = call("array", args);
          const typing = expressionTyping(expression, ENTITY);
          const pass = typing.cls === "arrayNumber" ? "an array of the integer class" : typing.variant === "uint8s" ? "Array(UInt8)" : typing.variant === "float64s" ? "Array(Float64)" : null;
          if (pass === null) continue;
          typed += 1;
          const engineSays = await engineType(sqlOf(expression));
          const integerClass = /^Array\((?:U?Int(?:8|16|32|64))\)$/.test(engineSays) && !["Array(UInt8)", "Array(UInt32)"].includes(engineSays);
          if (pass === "an array of the integer class" ? !integerClass : pass !== engineSays) wrong.push(`${sqlOf(expression)}: the pass ${pass}, the engine ${engineSays}`);
        }
    expect(wrong.slice(0, 40), `${wrong.length} of ${typed}`).toEqual([]);
    expect(typed).toBeGreaterThan(300);
  }, 300_000);

  it("makes an if of numbers without a common type (a 64-bit integer and a float, a UInt64 and a signed integer) a Variant of each exactly where the engine does, and gives the rest (an IPv4 among them) the engine's common type", async () => {
    const numbers = [...NUMBERS.map((type) => column(`c_${type}`)), ...["UInt64", "Int64", "Float64", "IPv4"].map((type) => column(`n_${type}`)), literal(-1), literal(0.5)];
    const expressions: Expression[] = [];
    for (const first of numbers)
      for (const second of numbers)
        for (const expression of [call("if", [column("c_Bool"), first, second]), call("multiIf", [column("c_Bool"), first, column("c_UInt8"), literal(null), second])]) {
          // An IPv4 beside a float or a signed integer is refused (the IPv4 test below holds it to the engine).
          if (passRefusal(expression, ENTITY) === null) expressions.push(expression);
        }
    const { wrong, variants, typed } = await variantOrNumberTally(expressions);
    expect(wrong.slice(0, 40), `${wrong.length}`).toEqual([]);
    expect(variants).toBeGreaterThan(50);
    expect(typed).toBeGreaterThan(200);
  }, 300_000);

  it("makes an ifNull or a coalesce of numbers without a common type a Variant of each exactly where the engine does, and gives the rest (a Bool among them) the engine's common type, Nullable where the last is (found by the fuzz: coalesce(abs(segment_id), FALSE), seed 19)", async () => {
    const numbers = [...NUMBERS.map((type) => column(`c_${type}`)), ...NUMBERS.filter((type) => type !== "Bool").map((type) => column(`n_${type}`)), literal(-1), literal(300), literal(0.5), literal(null)];
    const nullable = NUMBERS.filter((type) => type !== "Bool").map((type) => column(`n_${type}`));
    const expressions = nullable.flatMap((first) =>
      numbers.flatMap((second) => [call("ifNull", [first, second]), call("coalesce", [first, second]), call("coalesce", [first, column("n_UInt16"), second]), call("coalesce", [first, literal(null), second])]),
    );
    const { wrong, variants, typed } = await variantOrNumberTally(expressions);
    expect(wrong.slice(0, 40), `${wrong.length}`).toEqual([]);
    expect(variants).toBeGreaterThan(50);
    expect(typed).toBeGreaterThan(300);
  }, 300_000);

  it("gives greatest, least, if and coalesce of Booleans alone (a NULL beside them) the engine's type: a Bool, or a UInt8 where greatest compares two plain ones as numbers (found by the fuzz: greatest(FALSE, NULL) IN transaction_source, seed 20)", async () => {
    const wrong: string[] = [];
    const booleans = [column("c_Bool"), literal(true), literal(false)];
    const expressions: Expression[] = [];
    for (const a of booleans)
      for (const b of [...booleans, literal(null)]) {
        expressions.push(call("greatest", [a, b]), call("least", [b, a]), call("greatest", [a, b, a]), call("if", [column("c_Bool"), a, b]), call("coalesce", [b, a]));
      }
    for (const expression of expressions) {
      const typing = expressionTyping(expression, ENTITY);
      const engineSays = await engineTypeName(sqlOf(expression));
      const name = typing.cls === "bool" ? "Bool" : typing.cls === "uint8" ? "UInt8" : `${typing.cls}`;
      const pass = typing.nullable ? `Nullable(${name})` : name;
      if (pass !== engineSays) wrong.push(`${sqlOf(expression)}: the pass ${pass}, the engine ${engineSays}`);
    }
    expect(wrong).toEqual([]);
    // A Bool beside another number is one of the number classes still (numbersWithBool).
    expect(expressionTyping(call("greatest", [literal(false), column("c_UInt8")]), ENTITY).cls).toBeNull();
  });

  it("refuses an if or a multiIf that may return an IPv4 beside a float or a signed integer exactly where the engine fails to convert it (found by the fuzz: if(2, ip_address_v4, 0.5), seed 20)", async () => {
    const wrong: string[] = [];
    let refused = 0;
    let judged = 0;
    const others = [...NUMBERS.map((type) => column(`c_${type}`)), ...["Int64", "Float64", "UInt32"].map((type) => column(`n_${type}`)), literal(-1), literal(0.5), literal(300), literal(null)];
    const ip = column("n_IPv4");
    // The table's one row holds c_Bool = 1: `c_Bool` picks the first branch there, `c_Bool = 0` the second.
    const first = column("c_Bool");
    const second = call("equals", [column("c_Bool"), literal(0)]);
    for (const other of others)
      for (const expression of [
        call("if", [first, ip, other]),
        call("if", [second, other, ip]),
        call("if", [literal(2), ip, other]),
        call("if", [literal(0), ip, other]),
        call("if", [literal(null), other, ip]),
        call("multiIf", [literal(0), other, first, ip, other]),
        call("multiIf", [literal(1), other, first, ip, other]),
      ]) {
        const refusal = passRefusal(expression, ENTITY);
        const code = await engineCode(sqlOf(expression));
        judged += 1;
        if (refusal !== null) refused += 1;
        if ((refusal !== null) !== (code !== null)) wrong.push(`${sqlOf(expression)}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 100)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
      }
    expect(wrong.slice(0, 40), `${wrong.length} of ${judged}`).toEqual([]);
    expect(refused).toBeGreaterThan(20);
  }, 300_000);

  it("refuses in greatest and least exactly the numbers the engine finds no common type for, two or three, Nullable or beside a NULL", async () => {
    const disagreements: string[] = [];
    let refused = 0;
    let judged = 0;
    const plain = NUMBERS.map((type) => column(`c_${type}`));
    const nullable = NUMBERS.filter((type) => type !== "Bool").map((type) => column(`n_${type}`));
    for (const name of ["greatest", "least"])
      for (const first of [...plain, ...nullable.slice(0, 4), literal(-1), literal(4294967296), literal(1.5)])
        for (const second of [...plain, ...nullable])
          for (const args of [[first, second], [first, second, second], [first, second, literal(null)], [first, literal(1), second]]) {
            const expression = call(name, args);
            const refusal = passRefusal(expression, ENTITY);
            const code = await engineCode(sqlOf(expression));
            judged += 1;
            if (refusal !== null) refused += 1;
            // The pass refuses only what the engine refuses for want of a type; where the engine refuses for want of one, the pass refuses it.
            if ((refusal !== null) !== (code === 43 || code === 386) || (code !== null && code !== 43 && code !== 386)) {
              disagreements.push(`${sqlOf(expression)}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 120)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
            }
          }
    expect(disagreements.slice(0, 80), `${disagreements.length} of ${judged}`).toEqual([]);
    expect(refused).toBeGreaterThan(300);
  }, 300_000);
});
