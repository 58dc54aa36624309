/**
 * The table the typing pass reads was measured on the embedded engine; this checks it still
 * describes the engine the project runs: it covers the allow-list, and each refusal it records
 * (one call per function, count, position and form) is still refused by ClickHouse with a type
 * or count error. A chDB upgrade that changes a signature fails here: run the probe again.
 *
 * The checks run in two test files, each its own process with its own engine, so that the test
 * runner can run them side by side (vitest.config.ts): test/pipeline/probed-function-signatures
 * (the table and most rules) and test/pipeline/probed-signatures-variants (the cross-checks over
 * if/coalesce Variants, arrays of values of no class and IP arithmetic, about half the time).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { clickHouseCodeOf } from "../../src/clickhouse/clickhouse-error.js";
import { ALLOWED_FUNCTIONS } from "../../src/clickhouse/function-allow-list.js";
import { readSettings } from "../../src/config/settings.js";
import {
  ARGUMENT_CLASSES,
  ARRAY_VARIANTS,
  CLASS_SAMPLES,
  MAX_COUNTED_ARGUMENTS,
  NULLABLE_CLASSES,
  OTHER_TYPE_SAMPLES,
  UNPROBED_FUNCTIONS,
  classOfTypeName,
  elementClass,
  isArrayVariant,
  keepsPlainResult,
  nullableClassOfTypeName,
  nullableSample,
  VARIANTS,
  variantKeptByResult,
  variantOfTypeName,
  variantSamples,
  type ArgumentClass,
  type CallForm,
  type ProbedSignature,
  PROBE_ROW_TABLE,
  probeTableStatements,
} from "../../src/pipeline/argument-classes.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import { checkExpressionArgumentTypes, expressionTyping } from "../../src/pipeline/argument-types.js";
import { commonTypeBesideNullOf, commonTypeRefusal } from "../../src/pipeline/typing/common-types.js";
import { foldedResultClassOf, NOTHING_OF_NULL, NOTHING_OF_NULL_PAIR, NOTHING_OF_NULL_TRIPLE, nothingOfNullArgument } from "../../src/pipeline/typing/result-types.js";
import { SINGLE_LEVEL_QUANTILE, SIZED_AGGREGATE } from "../../src/pipeline/typing/function-facts.js";
import { TUPLE_ARITHMETIC, ELEMENT_WISE_ARITHMETIC } from "../../src/pipeline/typing/arithmetic-types.js";
import { columnsEntity } from "../../src/datasets/columns-entity.js";
import { parseClickHouseType } from "../../src/datasets/clickhouse-type.js";
import { AGGREGATE_FUNCTIONS } from "../../src/clickhouse/function-allow-list.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import type { Expression } from "../../src/query/ast.js";
import { passRefusal } from "./typing-pass.js";

/**
 * The probe's type errors (43, 386, and 48 for a conversion the engine has no code for), wrong
 * counts (42, 34, 35), and 44 for a value read per row where a constant goes (a time zone).
 */
const TYPE_OR_COUNT_ERRORS = new Set([43, 386, 48, 42, 34, 35, 44]);
/** ClickHouse's codes for a text that does not read as the type it is converted to (a number, a DateTime, a UUID, an array). */
const TEXT_CONVERSION_ERRORS = new Set([53, 72, 41, 376, 6, 27, 38, 130]);

/** Which of the two files a check runs in. */
export type ProbedSignaturesPart = "table and rules" | "variant cross-checks";

/** The checks of the second file: the longest cross-checks with the engine (each several minutes on two cores). */
const VARIANT_CROSS_CHECKS = [
  "a call given an if whose constant condition picks its NULL branch",
  "a call given an if or a coalesce of two families",
  "an aggregate's array of values the pass names no array for",
  "a call given an IP plus, minus or times an integer",
  "a call given an if's Variant whose conditions pick one branch for every row",
  "a call given an if of a tuple and a value of another family",
  "an ifNull or a coalesce of an if's Variant",
];

function partOf(title: string): ProbedSignaturesPart {
  return VARIANT_CROSS_CHECKS.some((prefix) => title.startsWith(prefix)) ? "variant cross-checks" : "table and rules";
}

/** Defines the checks of one part (each check is in exactly one). */
export function describeProbedSignatures(part: ProbedSignaturesPart): void {
  /** `it`, for the checks of this part only. */
  const probeIt = (title: string, check: () => Promise<void> | void, timeout?: number): void => {
    if (partOf(title) === part) it(title, check, timeout);
  };
  describe(`probed function signatures: ${part}`, () => {
    let dir: string;
    let store: ColumnstoreClient;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "quarry-signatures-"));
      store = createColumnstoreClient({ ...readSettings({}), clickhouseUrl: null, dataDir: dir });
      const samples = [...ARGUMENT_CLASSES.map((c) => CLASS_SAMPLES[c]), ...Object.values(OTHER_TYPE_SAMPLES), ...NULLABLE_CLASSES.map((c) => nullableSample(c)!), ...VARIANTS.flatMap((variant) => variantSamples(variant))];
      for (const statement of probeTableStatements(samples)) await store.client.command({ query: statement });
    });
    afterAll(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** How a form writes each position (the mixed forms have two arguments). */
    const written = (form: CallForm, position: number): "constant" | "column" =>
      form === "constant" || form === "column" ? form : (form === "constantColumn") === (position === 0) ? "constant" : "column";

    /** A sample's text: a class's, `other:<type>`, `nullable:<class>`, `variant:<variant>:<k>` (its k-th sample) or `null`. */
    function sampleText(arg: string, form: CallForm, position: number): string {
      if (arg === "null") return "NULL";
      const sample = arg.startsWith("other:")
        ? OTHER_TYPE_SAMPLES[arg.slice(6)]!
        : arg.startsWith("nullable:")
          ? nullableSample(arg.slice(9) as ArgumentClass)!
          : arg.startsWith("variant:")
            ? variantSamples(arg.split(":")[1]!)[Number(arg.split(":")[2])]!
            : CLASS_SAMPLES[arg as ArgumentClass];
      return sample[written(form, position)];
    }

    /** The engine's error code for a query, or null when it answered. */
    async function codeOf(query: string): Promise<number | null> {
      try {
        await store.client.query({ query, format: "JSONCompact" }).then((r) => r.text());
        return null;
      } catch (error) {
        return clickHouseCodeOf(error);
      }
    }

    /**
     * The engine's error code for the call (arguments as sampleText takes them; an optional lambda
     * first), or null when it was accepted. As the probe judges it: over columns, computed on the
     * one-row table first, and only analysed when the row's value is what fails.
     */
    async function refusal(name: string, args: readonly string[], form: CallForm, lambda = ""): Promise<number | null> {
      const call = `${name}(${[lambda, ...args.map((arg, i) => sampleText(arg, form, i))].filter((t) => t !== "").join(", ")})`;
      if (form !== "constant") {
        const computed = await codeOf(`SELECT ${call} AS r FROM ${PROBE_ROW_TABLE}`);
        if (computed === null || TYPE_OR_COUNT_ERRORS.has(computed)) return computed;
      }
      return codeOf(`SELECT ${call} AS r${form === "constant" ? "" : " FROM probe"} LIMIT 0`);
    }

    probeIt("covers every allowed function", () => {
      const missing = [...ALLOWED_FUNCTIONS].filter((name) => !UNPROBED_FUNCTIONS.has(name) && !PROBED_FUNCTION_SIGNATURES.has(name));
      expect(missing).toEqual([]);
    });

    probeIt("records refusals the engine makes only as it computes a row (a Nullable(String) column against a DateTime or a number)", async () => {
      const pairs = PROBED_FUNCTION_SIGNATURES.get("equals")!.nullablePairs[2]!;
      expect(pairs.columnConstant).toContain("0 1 string datetime 0");
      expect(PROBED_FUNCTION_SIGNATURES.get("greaterOrEquals")!.nullablePairs[2]!.constantColumn).toContain("0 1 uint8 string 1");
      const column = nullableSample("string")!.column;
      const datetime = CLASS_SAMPLES.datetime.constant;
      // Analysis alone takes it: over the empty table nothing is refused ...
      expect(await codeOf(`SELECT equals(${column}, ${datetime}) AS r FROM probe LIMIT 0`)).toBeNull();
      // ... but the first row with a value is (386 NO_COMMON_TYPE), as it is on the demo data.
      expect(await codeOf(`SELECT equals(${column}, ${datetime}) AS r FROM ${PROBE_ROW_TABLE}`)).toBe(386);
      expect(await refusal("greaterOrEquals", ["uint8", "nullable:string"], "constantColumn")).toBe(386);
    });

    probeIt("records refusals for the functions where the fuzzer found type errors", () => {
      // substring('abc' only): a number as its first argument is refused, as ClickHouse does (code 43).
      expect(PROBED_FUNCTION_SIGNATURES.get("substring")!.refused[3]!.constant[0]).toContain("float64");
      expect(PROBED_FUNCTION_SIGNATURES.get("plus")!.refused[2]!.column[0]).toContain("string");
      expect(PROBED_FUNCTION_SIGNATURES.get("toStartOfHour")!.refused[1]!.constant[0]).toContain("string");
      expect(PROBED_FUNCTION_SIGNATURES.get("countIf")!.result).toBe("int64");
    });

    /** The result type of a call over the probe table's columns, or "refused". */
    function resultType(name: string, columns: readonly string[]): Promise<string> {
      return store.client
        .query({ query: `SELECT ${name}(${columns.join(", ")}) AS r FROM probe LIMIT 0`, format: "JSONCompact" })
        .then((r) => r.json<{ meta: { type: string }[] }>())
        .then((r) => r.meta?.[0]?.type ?? "refused", () => "refused");
    }

    /** Per position, a class a Nullable can wrap that the function takes there as a column (undefined: none). */
    function nullablePartners(refused: { column: readonly (readonly ArgumentClass[])[] } | undefined, count: number): (ArgumentClass | undefined)[] {
      return Array.from({ length: count }, (_, i) => NULLABLE_CLASSES.find((c) => !(refused?.column[i] ?? []).includes(c)));
    }

    /** The partners' columns, the one at `position` Nullable (none when position is -1). */
    function columnsWithNullable(partners: readonly ArgumentClass[], position: number): string[] {
      return partners.map((partner, i) => (i === position ? nullableSample(partner)!.column : CLASS_SAMPLES[partner].column));
    }

    probeIt("each refusal in the table is still a type or count error on the engine", async () => {
      const wrong: string[] = [];
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, forms] of Object.entries(signature.refused)) {
          const count = Number(countText);
          for (const form of Object.keys(forms!) as CallForm[]) {
            const refusedAt = forms![form]!;
            for (let position = 0; position < count; position++) {
              const cls = refusedAt[position]![0];
              if (cls === undefined) continue;
              // Partners: whatever the others take (a refusal holds whatever they are).
              const args = refusedAt.map((refused, i) => (i === position ? cls : (ARGUMENT_CLASSES.find((c) => !refused.includes(c)) ?? "string")));
              const code = await refusal(name, args, form);
              checked += 1;
              if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${name}(${args.join(", ")}) as ${form}s: ${code ?? "accepted"}`);
            }
          }
        }
        for (const [countText, state] of Object.entries(signature.counts)) {
          if (state !== "refused" || countText === "0") continue;
          const code = await refusal(name, new Array<ArgumentClass>(Number(countText)).fill("string"), "constant");
          checked += 1;
          if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${name} with ${countText} arguments: ${code ?? "accepted"}`);
        }
      }
      expect(checked).toBeGreaterThan(500);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("each robust refusal still holds beside a type without a class", async () => {
      const wrong: string[] = [];
      const others = Object.keys(OTHER_TYPE_SAMPLES);
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, forms] of Object.entries(signature.robust)) {
          const count = Number(countText);
          for (const form of ["constant", "column"] as const) {
            const robustAt = forms![form];
            for (let position = 0; position < count; position++) {
              const cls = robustAt[position]![0];
              if (cls === undefined) continue;
              // Beside it, a type the typing pass cannot name (a different one each time).
              const other = `other:${others[checked % others.length]!}`;
              const args = robustAt.map((_, i) => (i === position ? cls : other));
              const code = await refusal(name, args, form);
              checked += 1;
              if (code === null) wrong.push(`${name}(${args.join(", ")}) as ${form}s: accepted`);
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("each refusal recorded beside a NULL, with the argument Nullable, or both, still holds", async () => {
      const wrong: string[] = [];
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const kind of ["besideNull", "nullable", "nullableBesideNull"] as const) {
          for (const [countText, forms] of Object.entries(signature[kind])) {
            const count = Number(countText);
            const refused = signature.refused[count]!;
            for (const form of ["constant", "column"] as const) {
              for (let position = 0; position < count; position++) {
                const cls = forms![form][position]![0];
                if (cls === undefined) continue;
                // Partners: classes taken at their positions; a NULL beside, or the argument Nullable.
                const partners = refused[form].map((classes) => ARGUMENT_CLASSES.find((c) => !classes.includes(c)) ?? "string");
                const args = partners.map((partner, i) => (i === position ? (kind === "besideNull" ? cls : `nullable:${cls}`) : kind === "nullable" ? partner : "null"));
                const code = await refusal(name, args, form);
                checked += 1;
                if (code === null) wrong.push(`${name}(${args.join(", ")}) as ${form}s: accepted`);
              }
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    /** A variant's samples as sampleText takes them: a refusal held for every one. */
    const samplesOf = (variant: string) => variantSamples(variant).map((_, k) => `variant:${variant}:${k}`);

    /**
     * Per function, count, form and position of a variant field: the variants to check there
     * (`pick` of those recorded) and a class taken at every position as the other arguments.
     */
    function* variantsAt(fieldOf: (signature: ProbedSignature) => ProbedSignature["variants"], pick: (recorded: readonly string[]) => Iterable<string | undefined>) {
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, forms] of Object.entries(fieldOf(signature))) {
          const count = Number(countText);
          const refused = signature.refused[count]!;
          for (const form of ["constant", "column"] as const) {
            const partners = refused[form].map((classes) => ARGUMENT_CLASSES.find((c) => !classes.includes(c)) ?? "string");
            for (let position = 0; position < count; position++) {
              for (const variant of pick(forms![form][position]!)) if (variant !== undefined) yield { name, form, count, position, variant, partners };
            }
          }
        }
      }
    }

    probeIt("each variant refused at a position is still refused there, with every sample", async () => {
      const wrong: string[] = [];
      let checked = 0;
      // The first array variant and the last scalar one refused there.
      for (const { name, form, position, variant, partners } of variantsAt((signature) => signature.variants, (recorded) => new Set([recorded[0], recorded[recorded.length - 1]]))) {
        for (const sample of samplesOf(variant)) {
          const args = partners.map((partner, i) => (i === position ? sample : partner));
          const code = await refusal(name, args, form);
          checked += 1;
          if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${name}(${args.join(", ")}) as ${form}s: ${code ?? "accepted"}`);
        }
      }
      expect(checked).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    /**
     * The first pair recorded per function, count and form in a signature's pair field, split
     * ("i j first second ..."), with a class taken at every position as the other arguments.
     */
    /** Per position, the first class the signature takes there at this count and form: the other arguments of a checked call. */
    function partnerClasses(signature: ProbedSignature, count: number, form: CallForm): string[] {
      const refusedAt = signature.refused[count]?.[form] ?? Array.from({ length: count }, () => []);
      return refusedAt.map((classes) => ARGUMENT_CLASSES.find((c) => !classes.includes(c)) ?? "string");
    }

    function* firstPairs(pairsOf: (signature: ProbedSignature) => ProbedSignature["pairs"], keep: (parts: readonly string[]) => boolean = () => true) {
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, forms] of Object.entries(pairsOf(signature))) {
          const count = Number(countText);
          for (const [form, keys] of Object.entries(forms!) as [CallForm, readonly string[]][]) {
            const key = keys.find((k) => keep(k.split(" ")));
            if (key === undefined) continue;
            yield { name, form, parts: key.split(" "), partners: partnerClasses(signature, count, form) };
          }
        }
      }
    }

    /** Every call still refused by the engine (at least `atLeast` of them checked). */
    async function expectRefused(calls: Iterable<{ name: string; form: CallForm; args: string[] }>, atLeast: number): Promise<void> {
      const wrong: string[] = [];
      let checked = 0;
      for (const { name, form, args } of calls) {
        const code = await refusal(name, args, form);
        checked += 1;
        if (code === null) wrong.push(`${name}(${args.join(", ")}) as ${form}: accepted`);
      }
      expect(checked).toBeGreaterThan(atLeast);
      expect(wrong).toEqual([]);
    }

    probeIt("each variant refused beside a NULL is still refused, with every sample and a NULL at each other position", async () => {
      const wrong: string[] = [];
      let checked = 0;
      for (const { name, form, count, position, variant, partners } of variantsAt((signature) => signature.variantsBesideNull, (recorded) => [recorded[0]])) {
        for (const sample of samplesOf(variant)) {
          for (let other = 0; other < count; other++) {
            if (other === position) continue;
            const args = partners.map((partner, i) => (i === position ? sample : i === other ? "null" : partner));
            const code = await refusal(name, args, form);
            checked += 1;
            if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${name}(${args.join(", ")}) as ${form}s: ${code ?? "accepted"}`);
          }
        }
      }
      expect(PROBED_FUNCTION_SIGNATURES.get("multiIf")!.variantsBesideNull[3]?.column[0]).toContain("float32s");
      expect(checked).toBeGreaterThan(50);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("each pair refused with one of the two Nullable is still refused", async () => {
      const calls = [...firstPairs((signature) => signature.nullablePairs, (parts) => parts[4] !== "both")].map(({ name, form, parts: [i, j, first, second, nullableAt], partners: args }) => {
        args[Number(i)] = first!;
        args[Number(j)] = second!;
        args[Number(nullableAt)] = `nullable:${args[Number(nullableAt)]}`;
        return { name, form, args };
      });
      await expectRefused(calls, 50);
    }, 120_000);

    probeIt("each pair refused with both Nullable is still refused", async () => {
      const calls = [...firstPairs((signature) => signature.nullablePairs, (parts) => parts[4] === "both")].map(({ name, form, parts: [i, j, first, second], partners: args }) => {
        args[Number(i)] = `nullable:${first!}`;
        args[Number(j)] = `nullable:${second!}`;
        return { name, form, args };
      });
      expect(PROBED_FUNCTION_SIGNATURES.get("equals")!.nullablePairs[2]?.column).toContain("0 1 uint8 uuid both");
      await expectRefused(calls, 30);
    }, 120_000);

    probeIt("each pair refused with a variant and its partner Nullable is still refused, with every sample", async () => {
      const calls = [...firstPairs((signature) => signature.variantPairs, (parts) => parts.length === 5)].flatMap(({ name, form, parts: [i, j, first, second, nullableAt], partners }) => {
        const variantAt = VARIANTS.includes(first!) ? Number(i) : Number(j);
        const variant = VARIANTS.includes(first!) ? first! : second!;
        const partner = VARIANTS.includes(first!) ? second! : first!;
        return samplesOf(variant).map((sample) => {
          const args = [...partners];
          args[variantAt] = sample;
          args[Number(nullableAt)] = `nullable:${partner}`;
          return { name, form, args };
        });
      });
      await expectRefused(calls, 50);
    }, 120_000);

    probeIt("what a higher-order function refuses its lambda to return is still refused", async () => {
      const wrong: string[] = [];
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const cls of signature.lambdaBodyRefused) {
          for (const form of ["constant", "column"] as const) {
            const code = await refusal(name, [], form, `x -> ${form === "constant" ? CLASS_SAMPLES[cls].constant : CLASS_SAMPLES[cls].column}, [1]`);
            checked += 1;
            if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${name}(x -> ${cls}, [1]) as a ${form}: ${code ?? "accepted"}`);
          }
          // A Nullable of it too (`arrayExists((k) -> multiIf(c, geo_subdivision, t), a)`, a Nullable(String)), which the pass refuses as it refuses the class.
          const nullable = nullableSample(cls);
          if (nullable === null) continue;
          for (const form of ["constant", "column"] as const) {
            const code = await refusal(name, [], form, `x -> ${form === "constant" ? nullable.constant : nullable.column}, [1]`);
            checked += 1;
            if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${name}(x -> Nullable ${cls}, [1]) as a ${form}: ${code ?? "accepted"}`);
          }
        }
      }
      expect(PROBED_FUNCTION_SIGNATURES.get("arrayFilter")!.lambdaBodyRefused).toContain("datetime");
      expect(checked).toBeGreaterThan(10);
      expect(wrong).toEqual([]);
    }, 60_000);

    /** Each function's first variant pair (of those `keep` keeps) as calls, with every sample of each variant in it (a class stands for itself). */
    function variantPairCalls(keep?: (parts: readonly string[]) => boolean) {
      const samples = (type: string) => (VARIANTS.includes(type) ? samplesOf(type) : [type]);
      return [...firstPairs((signature) => signature.variantPairs, keep)].flatMap(({ name, form, parts: [i, j, first, second], partners }) =>
        samples(first!).flatMap((a) =>
          samples(second!).map((b) => {
            const args = [...partners];
            args[Number(i)] = a;
            args[Number(j)] = b;
            return { name, form, args };
          }),
        ),
      );
    }

    probeIt("each pair refused with a variant is still refused, with every sample", async () => {
      await expectRefused(variantPairCalls(), 50);
    }, 120_000);

    probeIt("a class refused at its position but not beside every type is still refused beside each variant paired with it, with every sample (has(Array(Nullable(String)), DateTime))", async () => {
      const calls: { name: string; form: CallForm; args: string[] }[] = [];
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, forms] of Object.entries(signature.variantPairs)) {
          const count = Number(countText);
          for (const [form, keys] of Object.entries(forms!) as [CallForm, readonly string[]][]) {
            const partners = partnerClasses(signature, count, form);
            // A class recorded as refused at its position at this count and form.
            const singleRefusal = (position: number, cls: string) => (signature.refused[count]?.[form]?.[position] as readonly string[] | undefined)?.includes(cls) === true;
            for (const key of keys) {
              const [i, j, first, second, nullableAt] = key.split(" ") as [string, string, string, string, string | undefined];
              const [variant, variantAt, cls, classAt] = VARIANTS.includes(first) ? [first, Number(i), second, Number(j)] : [second, Number(j), first, Number(i)];
              if (!VARIANTS.includes(variant) || !singleRefusal(classAt, cls)) continue;
              for (const sample of samplesOf(variant)) {
                const args = [...partners];
                args[variantAt] = sample;
                args[classAt] = nullableAt === undefined ? cls : `nullable:${cls}`;
                calls.push({ name, form, args });
              }
            }
          }
        }
      }
      expect(calls.some(({ name, args }) => name === "has" && args[0] === "variant:nullableStrings:0" && args[1] === "datetime")).toBe(true);
      await expectRefused(calls, 100);
      // Its engine calls took over 120 s three times on a loaded two-core machine (CI beside a fuzz census).
    }, 300_000);

    probeIt("each pair refused with two variants (arrays, tuples, IPs, ...) is still refused, with every sample of each", async () => {
      await expectRefused(variantPairCalls((parts) => parts.length === 4 && VARIANTS.includes(parts[2]!) && VARIANTS.includes(parts[3]!)), 20);
    }, 120_000);

    probeIt("each pair refused beside any type is still refused with a type without a class or a NULL at each other position", async () => {
      const beside = [...Object.keys(OTHER_TYPE_SAMPLES).map((other) => `other:${other}`), "null"];
      const calls = [...firstPairs((signature) => signature.robustPairs)].flatMap(({ name, form, parts: [i, j, first, second], partners }) =>
        partners.flatMap((_, k) =>
          k === Number(i) || k === Number(j)
            ? []
            : beside.map((sample) => {
                const args = [...partners];
                args[Number(i)] = first!;
                args[Number(j)] = second!;
                args[k] = sample;
                return { name, form, args };
              }),
        ),
      );
      expect(PROBED_FUNCTION_SIGNATURES.get("greatest")!.robustPairs[3]?.column).toContain("0 1 string uint8");
      await expectRefused(calls, 20);
    }, 120_000);

    probeIt("what a higher-order function refuses after its lambda is still refused", async () => {
      const wrong: string[] = [];
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [arraysText, forms] of Object.entries(signature.afterLambda)) {
          const arrays = Number(arraysText);
          for (const form of ["constant", "column"] as const) {
            for (let position = 0; position < arrays; position++) {
              const cls = forms![form][position]![0];
              if (cls === undefined) continue;
              const args = Array.from({ length: arrays }, (_, i) => (i === position ? cls : "arrayNumber"));
              const code = await refusal(name, args, form, arrays === 1 ? "x -> 1" : "(x, y) -> 1");
              checked += 1;
              if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${name}(lambda, ${args.join(", ")}) as ${form}s: ${code ?? "accepted"}`);
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(10);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("a higher-order function takes one lambda, first, with a parameter per array after it (the typing pass's lambda rules)", async () => {
      const lambdaFunctions = [...PROBED_FUNCTION_SIGNATURES].filter(([, signature]) => signature.lambda).map(([name]) => name);
      expect(lambdaFunctions.length).toBeGreaterThan(10);
      const wrong: string[] = [];
      const code = async (call: string) => {
        try {
          await store.client.query({ query: `SELECT ${call} AS r LIMIT 0`, format: "JSONCompact" }).then((r) => r.text());
          return null;
        } catch (error) {
          return clickHouseCodeOf(error);
        }
      };
      for (const name of lambdaFunctions) {
        // Lambdas written as the SQL printer writes them.
        const refused = [`${name}([1], (\`x\`) -> 1)`, `${name}((\`x\`) -> 1, (\`y\`) -> 1, [1])`, `${name}((\`x\`) -> 1, [1], [2])`, `${name}((\`x\`, \`y\`) -> 1, [1])`];
        for (const call of refused) {
          const got = await code(call);
          if (got === null || !TYPE_OR_COUNT_ERRORS.has(got)) wrong.push(`${call}: ${got ?? "accepted"}`);
        }
        for (const call of [`${name}((\`x\`) -> 1, [1])`, `${name}((\`x\`, \`y\`) -> 1, [1], [2])`]) {
          const got = await code(call);
          if (got !== null) wrong.push(`${call}: refused with ${got}, taken by the typing pass`);
        }
      }
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("each NULL refused at a position is still refused there, as a constant and beside columns", async () => {
      const wrong: string[] = [];
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, positions] of Object.entries(signature.nullRefused)) {
          const count = Number(countText);
          const refused = signature.refused[count];
          for (const form of ["constant", "column"] as const) {
            for (const position of positions!) {
              const partners = Array.from({ length: count }, (_, i) => ARGUMENT_CLASSES.find((c) => !(refused?.[form][i] ?? []).includes(c)) ?? "string");
              const args = partners.map((partner, i) => (i === position ? "null" : partner));
              const code = await refusal(name, args, form);
              checked += 1;
              if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${name}(${args.join(", ")}) as ${form}s: ${code ?? "accepted"}`);
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(5);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("a call of a NULL the pass types as a Nothing (toStartOfHour(NULL), now() >= NULL, substring(NULL, 1, n)) is refused by the engine where a NULL is refused", async () => {
      const nothings = [
        call("toStartOfHour", [literal(null)]),
        call("greaterOrEquals", [call("now", []), literal(null)]),
        call("plus", [literal(null), column(CLASS_SAMPLES.int64.column)]),
        call("upper", [literal(null)]),
        call("substring", [literal(null), literal(1), column(CLASS_SAMPLES.uint8.column)]),
      ];
      function* expressions(): Generator<Expression> {
        for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
          for (const [countText, positions] of Object.entries(signature.nullRefused)) {
            const count = Number(countText);
            const partners = partnerColumns(signature, count);
            for (const position of positions!) for (const nothing of nothings) yield call(name, partners.map((partner, i) => (i === position ? nothing : column(partner))));
          }
        }
      }
      await expectEngineRefusesWhatPassRefuses(expressions(), 10, (message) => message.includes("a call of a NULL, of type Nothing as a NULL is"));
    }, 120_000);

    probeIt("each curried call refused for its parameters or argument count is still refused", async () => {
      // 133 AGGREGATE_FUNCTION_DOESNT_ALLOW_PARAMETERS, 309 FUNCTION_CANNOT_HAVE_PARAMETERS.
      const refusedCodes = new Set([...TYPE_OR_COUNT_ERRORS, 133, 309]);
      const wrong: string[] = [];
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [paramsText, refused] of Object.entries(signature.curried)) {
          const head = `${name}(${new Array<string>(Number(paramsText)).fill("1").join(", ")})`;
          // A refused parameter count: with one argument of each of two classes; else each refused argument count.
          const calls = refused === "refused" ? [["c_float64"], ["c_string"]] : refused!.map((count) => new Array<string>(count).fill("c_float64"));
          for (const args of calls) {
            const query = `SELECT ${head}(${args.join(", ")}) FROM probe LIMIT 0`;
            checked += 1;
            const code = await store.client.query({ query, format: "JSONCompact" }).then((r) => r.text()).then(() => null, (error: unknown) => clickHouseCodeOf(error));
            if (code === null || !refusedCodes.has(code)) wrong.push(`${query}: ${code ?? "accepted"}`);
          }
        }
      }
      expect(PROBED_FUNCTION_SIGNATURES.get("quantiles")!.curried[0]).toBe("refused");
      expect(PROBED_FUNCTION_SIGNATURES.get("topK")!.curried[1]).toEqual([2, 3, 4]);
      expect(checked).toBeGreaterThan(500);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("where a Nullable argument leaves the result plain, it still does", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const count of signature.plainResults) {
          const partners = nullablePartners(signature.refused[count], count);
          if (partners.some((partner) => partner === undefined)) continue;
          const plain = await resultType(name, columnsWithNullable(partners as ArgumentClass[], -1));
          if (plain === "refused") continue;
          for (let position = 0; position < count; position++) {
            const type = await resultType(name, columnsWithNullable(partners as ArgumentClass[], position));
            if (type === "refused") continue;
            typedCalls += 1;
            if (type !== plain) wrong.push(`${name} with argument ${position + 1} of ${count} Nullable: ${type}, plain ${plain}`);
          }
        }
      }
      expect(PROBED_FUNCTION_SIGNATURES.get("ifNull")!.plainResults).toContain(2);
      expect(typedCalls).toBeGreaterThan(20);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("where a fixed result stays plain with a Nullable argument, a NULL leaves it so too (or is refused)", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (let count = 1; count <= MAX_COUNTED_ARGUMENTS; count++) {
          if (!keepsPlainResult(signature, count)) continue;
          const partners = nullablePartners(signature.refused[count], count);
          if (partners.some((partner) => partner === undefined)) continue;
          for (let position = 0; position < count; position++) {
            const columns = partners.map((partner, i) => (i === position ? "NULL" : CLASS_SAMPLES[partner!].column));
            const type = await resultType(name, columns);
            if (type === "refused") continue;
            typedCalls += 1;
            if (classOfTypeName(type) !== signature.result) wrong.push(`${name}(${columns.join(", ")}): ${type}, not ${signature.result}`);
          }
        }
      }
      expect(keepsPlainResult(PROBED_FUNCTION_SIGNATURES.get("count"), 1)).toBe(true);
      expect(keepsPlainResult(PROBED_FUNCTION_SIGNATURES.get("lower"), 1)).toBe(false);
      expect(typedCalls).toBeGreaterThan(20);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("each result class recorded per tuple of argument classes is still the engine's", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const byResult of Object.values(signature.classResults)) {
          for (const [cls, tuples] of Object.entries(byResult!)) {
            for (const tuple of tuples) {
              const columns = tuple.split(" ").map((c) => CLASS_SAMPLES[c as ArgumentClass].column);
              const type = await resultType(name, columns);
              // Some functions take only constants at a position: the probe's constant form gave the class then.
              if (type === "refused") continue;
              typedCalls += 1;
              if (classOfTypeName(type) !== cls) wrong.push(`${name}(${columns.join(", ")}): ${type}, not ${cls}`);
            }
          }
        }
      }
      expect(PROBED_FUNCTION_SIGNATURES.get("divide")!.classResults[2]?.float64).toContain("uint8 int64");
      expect(typedCalls).toBeGreaterThan(200);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("the pair results folded over three arguments are the engine's result class (greatest(a, b, c))", async () => {
      const scalars = ARGUMENT_CLASSES.filter((cls) => elementClass(cls) === null && cls !== "aggregateState");
      const wrong: string[] = [];
      const folding = new Set<string>();
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (signature.counts[3] !== "probed") continue;
        for (const a of scalars)
          for (const b of scalars)
            for (const c of scalars) {
              const folded = foldedResultClassOf(name, [a, b, c]);
              if (folded === null) continue;
              folding.add(name);
              const type = await resultType(name, [a, b, c].map((cls) => CLASS_SAMPLES[cls].column));
              if (type === "refused") continue;
              typedCalls += 1;
              if (classOfTypeName(type) !== folded) wrong.push(`${name}(${a}, ${b}, ${c}): ${type}, not ${folded}`);
            }
      }
      expect([...folding]).toContain("greatest");
      expect(typedCalls).toBeGreaterThan(200);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("greatest and least of three classes, Nullable or not, are refused wherever the common-type rule refuses them", async () => {
      const wrong: string[] = [];
      let refused = 0;
      for (const name of ["greatest", "least"]) {
        for (const a of ARGUMENT_CLASSES)
          for (const b of ARGUMENT_CLASSES)
            for (const c of ARGUMENT_CLASSES)
              for (const nullable of [false, true]) {
                const classes = [a, b, c];
                // Every argument that can be Nullable is, in the second round.
                const columns = classes.map((cls) => ({ cls, nullable: nullable && NULLABLE_CLASSES.includes(cls) }));
                if (nullable && !columns.some((column) => column.nullable)) continue;
                const pair = commonTypeRefusal(name, columns);
                if (pair === null) continue;
                refused += 1;
                const call = `${name}(${columns.map((column) => (column.nullable ? nullableSample(column.cls)!.column : CLASS_SAMPLES[column.cls].column)).join(", ")})`;
                const code = await codeOf(`SELECT ${call} AS r FROM ${PROBE_ROW_TABLE}`);
                if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${call}: ${code ?? "answered"}, refused by the rule at arguments ${pair[0] + 1} and ${pair[1] + 1}`);
              }
      }
      expect(refused).toBeGreaterThan(1000);
      expect(wrong).toEqual([]);
    }, 120_000);

    // Each class, plain and Nullable, as a column of a columns-only entity named as in the probe
    // table: the pass judges an expression over it, the engine the same call over the probe table.
    const COMMON_TYPE_NAMES = ["greatest", "least"] as const;
    const NUMBER_CLASSES_OF_TEST = ["uint8", "int64", "float64", "uint32", "bool"] as const;
    const CLASS_COLUMNS = [...ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]), ...NULLABLE_CLASSES.map((cls) => nullableSample(cls)!)];
    /** The probe's Date and DateTime64 columns (variants, of no class), which make a Variant beside a value of another family. */
    const DATE_COLUMNS = ["date", "nullableDate", "nullableDateTime64"].map((variant) => variantSamples(variant)[0]!);
    /** The probe's IP columns, Nullable as the entities store them. */
    const IP_COLUMNS = ["nullableIPv4", "nullableIPv6"].map((variant) => variantSamples(variant)[0]!);
    /** The probe's UInt128 column (eap_items' ids), a number of no class. */
    const UINT128_COLUMN = variantSamples("uint128")[0]!;
    /** The probe's other scalar variants as columns: maps and tuples (a tuple column stands for a tuple alias). */
    const MAP_TUPLE_COLUMNS = ["mapStrings", "mapInts", "tuple"].map((variant) => variantSamples(variant)[0]!);
    /** Columns the entity maps to a literal (discover's `group_id` is 0): written as the literal in the engine's SQL (literalColumnsAsValues). */
    const LITERAL_COLUMNS = { l_zero: 0, l_one: 1 } as const;
    const literalColumnsAsValues = (sql: string): string => sql.replace(/\bl_zero\b/g, "0").replace(/\bl_one\b/g, "1");
    const CLASS_COLUMNS_ENTITY = columnsEntity(
      "probe",
      [...CLASS_COLUMNS, ...DATE_COLUMNS, ...IP_COLUMNS, UINT128_COLUMN, ...MAP_TUPLE_COLUMNS].map((sample) => ({ name: sample.column, type: sample.type })).concat(Object.keys(LITERAL_COLUMNS).map((name) => ({ name, type: "UInt8" }))),
      { columnMappers: Object.fromEntries(Object.entries(LITERAL_COLUMNS).map(([name, value]) => [name, { kind: "literal" as const, value }])) },
    );
    const column = (name: string): Expression => ({ kind: "column", name });
    const call = (name: string, args: readonly Expression[]): Expression => ({ kind: "function", name, args });
    const literal = (value: unknown): Expression => ({ kind: "literal", value }) as Expression;
    /** Arrays of Nullable DateTimes and UUIDs, which no array variant names (arrayOf). */
    const NULLABLE_ELEMENT_ARRAYS = [call("array", [literal(null), column(CLASS_SAMPLES.datetime.column)]), call("array", [column(CLASS_SAMPLES.uuid.column), literal(null)])];
    /** The SQL of an expression of calls, curried calls, columns and literals (strings without quotes in them). */
    const sqlOf = (node: Expression): string =>
      node.kind === "function"
        ? `${node.name}(${node.args.map(sqlOf).join(", ")})`
        : node.kind === "curried"
          ? `${node.name}(${node.params.map(sqlOf).join(", ")})(${node.args.map(sqlOf).join(", ")})`
          : node.kind === "literal"
            ? typeof node.value === "string"
              ? `'${node.value}'`
              : String(node.value)
            : node.kind === "lambda"
              ? `(${node.params.join(", ")}) -> ${sqlOf(node.body)}`
              : (node as { name: string }).name;


    /** The pass's typing of an expression over the probe's columns (or an entity's), or null where it refuses it. */
    const passTypingOf = (expression: Expression, entity = CLASS_COLUMNS_ENTITY): ReturnType<typeof expressionTyping> | null => {
      try {
        return expressionTyping(expression, entity);
      } catch (error) {
        if (error instanceof QueryServiceError) return null;
        throw error;
      }
    };

    /**
     * Compares the pass's class of an expression with the engine's type where both take it and the
     * pass gives it a class (a refusal is the probe's own to test); true when compared, a mismatch
     * pushed on `wrong`.
     */
    async function comparedClass(expression: Expression, wrong: string[], entity = CLASS_COLUMNS_ENTITY): Promise<boolean> {
      const pass = passTypingOf(expression, entity);
      const engine = await engineTypeOf(expression);
      if (engine === "refused" || pass === null || pass.cls === null) return false;
      const mismatch = classMismatch(expression, engine, pass);
      if (mismatch !== null) wrong.push(mismatch);
      return true;
    }

    /** Compares the pass's Variant of an expression (its alternatives' classes) with the engine's type where the engine takes it; true when compared, a mismatch pushed on `wrong`. */
    async function comparedVariant(expression: Expression, wrong: string[]): Promise<boolean> {
      const engine = await engineTypeOf(expression);
      if (engine === "refused") return false;
      const members = /^Variant\((.*)\)$/.exec(engine)?.[1]?.split(/, (?![^(]*\))/) ?? [];
      const engineClasses = members.map((member) => classOfTypeName(member) ?? "unknown").sort().join();
      const passClasses = (passTypingOf(expression)?.alternatives ?? []).map((alternative) => alternative.cls ?? "unknown").sort().join();
      if (engineClasses !== passClasses) wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass a Variant of ${passClasses}`);
      return true;
    }

    /** Where the engine's type is not the pass's class, Nullable as the pass says: a line saying so; else null. */
    const classMismatch = (expression: Expression, engine: string, pass: ReturnType<typeof expressionTyping>): string | null => {
      const engineClass = classOfTypeName(engine) ?? nullableClassOfTypeName(engine);
      if (engineClass === pass.cls && (classOfTypeName(engine) === null) === pass.nullable) return null;
      return `${sqlOf(expression)}: engine ${engine}, the pass ${pass.cls}${pass.nullable ? " (Nullable)" : ""}`;
    };

    /** The engine's type of an expression over the probe's columns, or "refused". */
    const engineTypeOf = (expression: Expression): Promise<string> =>
      store.client
        .query({ query: `SELECT ${sqlOf(expression)} AS r FROM probe LIMIT 0`, format: "JSONCompact" })
        .then((r) => r.json<{ meta: { type: string }[] }>())
        .then((r) => r.meta?.[0]?.type ?? "refused", () => "refused");

    /** Each expression the pass refuses (the refusals `counted` keeps) is refused by the engine, computed on the probe's row; at least `atLeast` are. */
    async function expectEngineRefusesWhatPassRefuses(
      expressions: Iterable<Expression>,
      atLeast: number,
      counted: (message: string) => boolean = () => true,
      rows: { readonly from: string; readonly sql: (sql: string) => string; readonly anyFailure?: boolean } = { from: PROBE_ROW_TABLE, sql: (sql) => sql },
    ): Promise<void> {
      const wrong: string[] = [];
      let refused = 0;
      for (const expression of expressions) {
        try {
          checkExpressionArgumentTypes(expression, CLASS_COLUMNS_ENTITY);
          continue;
        } catch (error) {
          if (!(error instanceof QueryServiceError)) throw error;
          if (!counted(error.message)) continue;
        }
        refused += 1;
        const code = await codeOf(`SELECT ${rows.sql(sqlOf(expression))} AS r FROM ${rows.from}`);
        if (code === null || (!rows.anyFailure && !TYPE_OR_COUNT_ERRORS.has(code))) wrong.push(`${rows.sql(sqlOf(expression))}: ${code ?? "answered"}`);
      }
      expect(refused).toBeGreaterThan(atLeast);
      expect(wrong).toEqual([]);
    }

    /**
     * Each expression judged by the pass and run by the engine: a disagreement where the pass
     * refuses it by the rule under test (`byRule`, on its message) and the engine answers it or
     * fails otherwise (`engineRefuses`), or where the engine fails with an error the pass must
     * catch (`mustRefuse`, by default `engineRefuses`) and the pass takes it.
     */
    async function passAndEngine(
      expressions: Iterable<Expression>,
      rule: {
        readonly byRule: (message: string) => boolean;
        readonly engineRefuses: (code: number) => boolean;
        readonly mustRefuse?: (code: number) => boolean;
        readonly entity?: Parameters<typeof checkExpressionArgumentTypes>[1];
        readonly from?: string;
        readonly sql?: (sql: string) => string;
      },
    ): Promise<{ refused: number; disagreements: string[] }> {
      const disagreements: string[] = [];
      let refused = 0;
      for (const expression of expressions) {
        const refusal = passRefusal(expression, rule.entity ?? CLASS_COLUMNS_ENTITY);
        const code = await codeOf(`SELECT ${(rule.sql ?? ((sql) => sql))(sqlOf(expression))} AS r FROM ${rule.from ?? PROBE_ROW_TABLE}`);
        const byRule = refusal !== null && rule.byRule(refusal);
        if (byRule) refused += 1;
        if ((byRule && (code === null || !rule.engineRefuses(code))) || (refusal === null && code !== null && (rule.mustRefuse ?? rule.engineRefuses)(code))) {
          disagreements.push(`${sqlOf(expression)}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 100)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
        }
      }
      return { refused, disagreements };
    }

    /** Per position, the first class a probed function takes there (as a column), as a probe-table column. */
    function partnerColumns(signature: ProbedSignature, count: number): string[] {
      return Array.from({ length: count }, (_, i) => CLASS_SAMPLES[ARGUMENT_CLASSES.find((cls) => !(signature.refused[count]?.column[i] ?? []).includes(cls))!].column);
    }

    probeIt("arithmetic with a tuple refused for one element's operation is refused by the engine", async () => {
      function* expressions(): Generator<Expression> {
        for (const name of TUPLE_ARITHMETIC)
          for (const element of CLASS_COLUMNS)
            for (const other of [...CLASS_COLUMNS, UINT128_COLUMN]) {
              const tuple = call("tuple", [column(element.column)]);
              yield call(name, [tuple, column(other.column)]);
              yield call(name, [column(other.column), tuple]);
              yield call(name, [tuple, call("tuple", [column(other.column)])]);
            }
      }
      // Only the element-by-element rule's refusals: the others are the probe's, tested above, and
      // a state times a column (code 44 as the row is computed), held in state-arithmetic.test.ts.
      await expectEngineRefusesWhatPassRefuses(expressions(), 500, (message) => message.includes("element by element") && !message.includes("a constant number of times"));
    }, 120_000);

    probeIt("arithmetic with a tuple the pass types as a tuple is a tuple in the engine, Nullable where the pass says so (n * tuple(a), tuple(a) / n, tuple(a) + tuple(b), n a UInt128 too)", async () => {
      const wrong: string[] = [];
      let tuples = 0;
      for (const name of TUPLE_ARITHMETIC)
        for (const element of CLASS_COLUMNS)
          for (const other of [...CLASS_COLUMNS, UINT128_COLUMN]) {
            const tuple = call("tuple", [column(element.column)]);
            for (const expression of [call(name, [tuple, column(other.column)]), call(name, [column(other.column), tuple]), call(name, [tuple, call("tuple", [column(other.column)])])]) {
              const pass = passTypingOf(expression);
              if (pass === null || pass.variant !== "tuple") continue;
              tuples += 1;
              // A Nullable number beside the tuple makes the whole tuple Nullable, as the pass says.
              const engine = await engineTypeOf(expression);
              const nullable = engine.startsWith("Nullable(Tuple(");
              if (!(engine.startsWith("Tuple(") || nullable) || nullable !== pass.nullable)
                wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass a ${pass.nullable ? "Nullable " : ""}tuple`);
            }
          }
      expect(tuples).toBeGreaterThan(200);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("an unsigned integer of the int64 class (a UInt16, a UInt64) is refused only where the probe's Int64 and UInt32 both are, and the engine refuses every call the pass refuses (quantileDeterministic's weight takes a UInt64)", async () => {
      const unsigned = ["toUInt16", "toUInt64"].map((name) => call(name, [column(CLASS_SAMPLES.int64.column)]));
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "uuid", "arrayString", "arrayNumber"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith(unsigned, 2, partners), 300);
      // Where the Int64 is refused for its sign alone, the pass takes a UInt64, as the engine does.
      const weight = call("quantileDeterministic", [column(CLASS_SAMPLES.uint8.column), unsigned[1]!]);
      expect(passRefusal(weight, CLASS_COLUMNS_ENTITY), sqlOf(weight)).toBeNull();
      expect(await codeOf(`SELECT ${sqlOf(weight)} AS r FROM ${PROBE_ROW_TABLE}`), sqlOf(weight)).toBeNull();
      expect(passRefusal(call("quantileDeterministic", [column(CLASS_SAMPLES.uint8.column), column(CLASS_SAMPLES.int64.column)]), CLASS_COLUMNS_ENTITY)).not.toBeNull();
    }, 900_000);

    probeIt("greatest and least of a UInt128 and values the pass says widen to it are a UInt128 in the engine", async () => {
      const wrong: string[] = [];
      let wide = 0;
      // and unsigned integers of the int64 class (a UInt16, a UInt64: `greatest(downsampled_retention_days, item_id)`, seed 15)
      const unsigned = ["toUInt16", "toUInt64"].map((name) => call(name, [column(CLASS_SAMPLES.int64.column)]));
      const others = [...[...CLASS_COLUMNS, UINT128_COLUMN].map((sample) => column(sample.column)), ...unsigned];
      for (const name of COMMON_TYPE_NAMES)
        for (const other of others)
          for (const third of [null, ...others]) {
            const args = [column(UINT128_COLUMN.column), other, ...(third ? [third] : [])];
            for (const expression of [call(name, args), call(name, [...args].reverse())]) {
              if (passTypingOf(expression)?.variant !== "uint128") continue;
              wide += 1;
              const engine = await engineTypeOf(expression);
              if (engine !== "UInt128") wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass a UInt128`);
            }
          }
      expect(wide).toBeGreaterThan(20);
      expect(wrong).toEqual([]);
    });

    probeIt("greatest and least of three arguments with a tuple, an array, a Date or an IP among them are refused by the engine wherever the pass refuses them (each two of them must have a common type)", async () => {
      const c = (cls: ArgumentClass) => column(CLASS_SAMPLES[cls].column);
      const containers: Expression[] = [
        call("tuple", [c("uint8"), c("string")]),
        call("array", [c("uint8")]),
        call("array", [c("string"), c("uint8")]),
        ...[...DATE_COLUMNS, ...IP_COLUMNS, variantSamples("nested")[0]!, variantSamples("mapInts")[0]!].map((sample) => column(sample.column)),
      ];
      function* expressions(): Generator<Expression> {
        for (const name of COMMON_TYPE_NAMES)
          for (const container of containers)
            for (const second of [...containers, ...CLASS_COLUMNS.map((sample) => column(sample.column))])
              for (const third of ARGUMENT_CLASSES) {
                yield call(name, [container, second, c(third)]);
                yield call(name, [c(third), second, container]);
              }
      }
      await expectEngineRefusesWhatPassRefuses(expressions(), 1000);
    }, 300_000);

    probeIt("a Date or a DateTime64 plus or minus a number has the pass's type, as the engine's result (toDate(t) - 1000)", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      const numbers = [...NUMBER_CLASSES_OF_TEST.flatMap((cls) => [CLASS_SAMPLES[cls].column, nullableSample(cls)!.column])].map(column);
      for (const name of ["plus", "minus"])
        for (const date of DATE_COLUMNS)
          for (const number of [...numbers, { kind: "literal", value: 1000 } as Expression, { kind: "literal", value: 2.5 } as Expression])
            for (const expression of [call(name, [column(date.column), number]), call(name, [number, column(date.column)])]) {
              const pass = passTypingOf(expression);
              if (pass === null || pass.variant === null) continue;
              typedCalls += 1;
              const engine = await engineTypeOf(expression);
              if (variantOfTypeName(engine) !== pass.variant) wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass ${pass.variant}`);
            }
      expect(typedCalls).toBeGreaterThan(60);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("a tuple holding an aggregate state, where a function refuses a state, is refused by the engine wherever the pass refuses it (max(tuple(s, n)))", async () => {
      const tuples = [call("tuple", [column(CLASS_SAMPLES.aggregateState.column), column(CLASS_SAMPLES.uint8.column)]), call("tuple", [column(CLASS_SAMPLES.string.column), call("tuple", [column(CLASS_SAMPLES.aggregateState.column)])])];
      // IN with a column on the right fails with code 44 instead (it reads the column as Nullable tuples).
      await expectEngineRefusesWhatPassRefuses(callsWith(tuples, 2), 10, (message) => message.includes("inside a tuple either"), { from: PROBE_ROW_TABLE, sql: (sql) => sql, anyFailure: true });
    }, 120_000);

    probeIt("arrayMap of a lambda returning a value of a scalar class that reads no column is an array of that class, as the engine types it", async () => {
      const bodies: Expression[] = [
        ...[1, 300, -5, 70000, 2.5, "a", true].map(literal),
        call("now", []),
        call("toString", [literal(1)]),
        call("toStartOfHour", [call("now", [])]),
        call("equals", [literal(1), literal(2)]),
        call("plus", [literal(1), literal(2)]),
      ];
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const body of bodies)
        for (const array of [CLASS_SAMPLES.arrayString.column, CLASS_SAMPLES.arrayNumber.column]) {
          const expression = call("arrayMap", [{ kind: "lambda", params: ["x"], body } as Expression, column(array)]);
          const pass = passTypingOf(expression);
          if (pass === null || (pass.cls === null && pass.variant === null)) continue;
          typedCalls += 1;
          const engine = await engineTypeOf(expression);
          if ((classOfTypeName(engine) ?? variantOfTypeName(engine)) !== (pass.cls ?? pass.variant)) wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass ${pass.cls ?? pass.variant}`);
        }
      expect(typedCalls).toBeGreaterThan(15);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("x IN an array of columns, has(array, x) and array = x, refused by the pass are refused by the engine", async () => {
      function* expressions(): Generator<Expression> {
        for (const value of CLASS_COLUMNS)
          for (const element of CLASS_COLUMNS) {
            const array = call("array", [column(element.column)]);
            yield call("in", [column(value.column), array]);
            yield call("notIn", [column(value.column), array]);
            yield call("has", [array, column(value.column)]);
            yield call("equals", [array, column(value.column)]);
            // a NULL element makes the others Nullable (an Array(Nullable(String)) of strings)
            const withNull = call("array", [column(element.column), { kind: "literal", value: null }]);
            yield call("has", [withNull, column(value.column)]);
            yield call("in", [column(value.column), withNull]);
          }
      }
      await expectEngineRefusesWhatPassRefuses(expressions(), 100);
    }, 60_000);

    /**
     * Every probed function (lambdas aside) of 1 to `maxCount` arguments, called with each value at
     * each position and its partners' columns elsewhere, or each of `others` (a column's name or an
     * expression) in their place. A value given as a list is a set of interchangeable forms of
     * one value: each call takes the next form in turn, so every form meets every function and
     * partner over the run at a fraction of the engine's time.
     */
    function* callsWith(values: readonly (Expression | readonly Expression[])[], maxCount: number, others: readonly (string | Expression | null)[] = [null]): Generator<Expression> {
      const turns = values.map(() => 0);
      const next = (k: number): Expression => {
        const value = values[k]!;
        if (!Array.isArray(value)) return value as Expression;
        const turn = turns[k]!;
        turns[k] = turn + 1;
        return (value as readonly Expression[])[turn % value.length]!;
      };
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (signature.lambda) continue;
        for (let count = 1; count <= maxCount; count++) {
          if (signature.counts[count] !== "probed") continue;
          const partners = partnerColumns(signature, count);
          for (let position = 0; position < count; position++)
            for (let k = 0; k < values.length; k++)
              for (const other of others) {
                const value = next(k);
                yield call(name, partners.map((partner, i) => (i === position ? value : typeof other === "string" ? column(other) : (other ?? column(partner)))));
              }
        }
      }
    }

    probeIt("a call of no arguments (now(), rand()) after a lambda, of no known constness, or a value of no class that is no array, is refused by the engine where the pass refuses it", async () => {
      function* expressions(): Generator<Expression> {
        for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
          if (signature.afterLambda[1] === undefined) continue;
          for (const nullary of ["now", "today", "rand", "pi"]) {
            yield call(name, [{ kind: "lambda", params: ["x"], body: { kind: "argument", name: "x" } }, call(nullary, [])]);
          }
          // and values of no class that are no arrays (a map, a tuple, a UInt128, a Date, an IP)
          for (const sample of [...MAP_TUPLE_COLUMNS, UINT128_COLUMN, ...DATE_COLUMNS, ...IP_COLUMNS]) {
            yield call(name, [{ kind: "lambda", params: ["x"], body: { kind: "argument", name: "x" } }, column(sample.column)]);
          }
        }
      }
      await expectEngineRefusesWhatPassRefuses(expressions(), 100, (message) => message.includes("after its lambda"));
    }, 120_000);

    probeIt("a call given an if or a coalesce of two families (a Variant) is refused by the engine where the pass refuses it, on rows holding each alternative", async () => {
      // One column per family as the if's branches; the pass refuses a call of their Variant when
      // it refuses any of its alternatives (a row holding that one fails the query), or (an
      // aggregate) on the mixed variant's own refusals. A Date and a DateTime64 (Nullable or not)
      // are of the DateTimes' family: `if(c, s, timestamp_ms)`. A coalesce of a Nullable column and
      // a column of another family holds the second where the first is NULL.
      const branches = [
        ...(["string", "uint8", "datetime", "uuid", "arrayString", "arrayNumber", "aggregateState"] as const).map((cls) => column(CLASS_SAMPLES[cls].column)),
        ...DATE_COLUMNS.map((sample) => column(sample.column)),
        // A map of strings and one of numbers, an IPv4 and an IPv6: families of their own
        // (`if(c, attributes_bool, project_id)`, `if(c, ip_address_v4, title)`), an IPv4 but with numbers.
        ...["mapStrings", "mapInts"].map((variant) => column(variantSamples(variant)[0]!.column)),
        ...IP_COLUMNS.map((sample) => column(sample.column)),
      ];
      const condition = CLASS_SAMPLES.uint8.column;
      const ifs = branches.flatMap((a, k) => branches.slice(k + 1).map((b) => call("if", [column(condition), a, b])));
      // Each if the pass makes a Variant of is the engine's Variant of the two; each if of a map is one.
      const wrongTypes: string[] = [];
      let variants = 0;
      for (const expression of ifs) {
        const pass = passTypingOf(expression);
        const ofMap = JSON.stringify(expression).includes("s_map_");
        if (pass?.variant !== "mixed" && !ofMap) continue;
        variants += 1;
        const engine = await engineTypeOf(expression);
        if (!engine.startsWith("Variant(") || pass?.variant !== "mixed" || pass.alternatives?.length !== 2) wrongTypes.push(`${sqlOf(expression)}: engine ${engine}, the pass ${pass?.variant}`);
      }
      expect(variants).toBeGreaterThan(60);
      expect(wrongTypes).toEqual([]);
      const coalesces = (["string", "uint8", "datetime", "uuid"] as const).flatMap((first) =>
        (["string", "uint8", "datetime", "uuid"] as const).filter((second) => second !== first).map((second) => call("coalesce", [column(nullableSample(first)!.column), column(CLASS_SAMPLES[second].column)])),
      );
      // A tuple, a map, an IP or a UInt128 after a Nullable value of another family: families of
      // their own, as among an if's branches (`ifNull(trace_id, tuple(0.5, platform))`).
      const ownFamilies = [...MAP_TUPLE_COLUMNS, ...IP_COLUMNS, UINT128_COLUMN].map((sample) => column(sample.column));
      const ownFamilyCoalesces = (["string", "datetime", "uuid"] as const).flatMap((first) => ownFamilies.map((second) => call("ifNull", [column(nullableSample(first)!.column), second])));
      for (const expression of ownFamilyCoalesces) {
        const engine = await engineTypeOf(expression);
        const pass = passTypingOf(expression);
        if (!engine.startsWith("Variant(") || pass?.variant !== "mixed") wrongTypes.push(`${sqlOf(expression)}: engine ${engine}, the pass ${pass?.variant}`);
      }
      expect(wrongTypes).toEqual([]);
      coalesces.push(...ownFamilyCoalesces);
      // The probe's row, where every if takes its first branch and every coalesce its first
      // argument, and a copy where every if takes its second (its condition, `pick`, is 0) and
      // every Nullable column is NULL. The engine must fail each query the pass refuses; it may
      // fail on either row first, so with a type error or with a value error (the row holding the
      // sample text 'abc' where a date is read fails with code 41 before the other row is reached).
      const nulls = NULLABLE_CLASSES.map((cls) => `NULL AS ${nullableSample(cls)!.column}`).join(", ");
      const bothAlternatives = {
        from: `(SELECT *, 1 AS pick FROM ${PROBE_ROW_TABLE} UNION ALL SELECT * REPLACE (${nulls}), 0 AS pick FROM ${PROBE_ROW_TABLE})`,
        sql: (sql: string) => sql.replaceAll(`if(${condition}, `, "if(pick, "),
        anyFailure: true,
      };
      await expectEngineRefusesWhatPassRefuses(callsWith([...ifs, ...coalesces], 3), 1000, (message) => message.includes("Variant"), bothAlternatives);
    }, 900_000);

    probeIt("a call given an if of a NULL branch beside an array (a Variant of the one) is refused by the engine where the pass refuses it, on rows holding the NULL and the value", async () => {
      const condition = CLASS_SAMPLES.uint8.column;
      const containers = [column(CLASS_SAMPLES.arrayString.column), column(CLASS_SAMPLES.arrayNumber.column), column(variantSamples("mapInts")[0]!.column)];
      const ifs = containers.flatMap((a) => [call("if", [column(condition), literal(null), a]), call("if", [column(condition), a, literal(null)])]);
      for (const expression of ifs) expect(passTypingOf(expression)?.variant, sqlOf(expression)).toBe("mixed");
      const onePerRow = { from: `(SELECT *, 1 AS pick FROM ${PROBE_ROW_TABLE} UNION ALL SELECT *, 0 AS pick FROM ${PROBE_ROW_TABLE})`, sql: (sql: string) => sql.replaceAll(`if(${condition}, `, "if(pick, "), anyFailure: true };
      await expectEngineRefusesWhatPassRefuses(callsWith(ifs, 3), 200, (message) => message.includes("Variant"), onePerRow);
    }, 600_000);

    probeIt("an ifNull or a coalesce of an if's Variant whose NULL condition picks a branch for every row holds that branch in every row: the engine refuses a call where the pass refuses it so (seed 14)", async () => {
      // `ifNull(if(NULL, 'transaction', arr), now())`: ClickHouse types it as the Variant of the
      // three (Variant(Array(String), DateTime, String)), and every row holds the array.
      const values = (["string", "uint8", "datetime", "arrayString", "arrayNumber"] as const).map((cls) => column(CLASS_SAMPLES[cls].column));
      const expressions = values.flatMap((a) =>
        values
          .filter((b) => b !== a)
          .flatMap((b) => [call("ifNull", [call("if", [literal(null), a, b]), call("now", [])]), call("coalesce", [literal(null), call("if", [literal(null), a, b]), literal(1.5)])]),
      );
      for (const expression of expressions) expect(passTypingOf(expression)?.variant, sqlOf(expression)).toBe("mixed");
      await expectEngineRefusesWhatPassRefuses(callsWith(expressions, 2), 100, (message) => message.includes("pick the branch"), { from: PROBE_ROW_TABLE, sql: (sql) => sql, anyFailure: true });
    }, 600_000);

    /** Columns of each family an `if` or an `array` makes a Variant of, one per family (a Date and a DateTime64 are of the DateTimes' family). */
    const familyColumns = (): Expression[] => [
      ...(["string", "uint8", "datetime", "uuid", "arrayString", "arrayNumber", "aggregateState"] as const).map((cls) => column(CLASS_SAMPLES[cls].column)),
      ...DATE_COLUMNS.map((sample) => column(sample.column)),
    ];

    probeIt("an element of an array of two families (array(a, b)[n], arrayJoin, arrayMax) is a Variant of one alternative per family, as the engine types it", async () => {
      const columns = familyColumns();
      const wrong: string[] = [];
      let typed = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, rule] of Object.entries(signature.results)) {
          if (!rule || !("elementOf" in rule) || signature.result !== null) continue;
          const partners = partnerColumns(signature, Number(countText));
          for (const [k, a] of columns.entries())
            for (const b of columns.slice(k + 1)) {
              const expression = call(name, partners.map((partner, i) => (i === rule.elementOf ? call("array", [a, b]) : column(partner))));
              const pass = passTypingOf(expression);
              if (pass?.variant !== "mixed") continue;
              typed += 1;
              const engine = await engineTypeOf(expression);
              const members = /^Variant\((.*)\)$/.exec(engine)?.[1]?.split(/, (?![^(]*\))/) ?? [];
              const passMembers = (pass.alternatives ?? []).map((alternative) => alternative.cls ?? alternative.variant ?? "unknown");
              // A DateTime64 is the pass's Nullable(DateTime64) variant there, the only DateTime64 it knows.
              const engineMembers = members.map((member) => classOfTypeName(member) ?? variantOfTypeName(member) ?? (member.startsWith("DateTime64(") ? "nullableDateTime64" : "unknown"));
              if (engine === "refused" || [...engineMembers].sort().join() !== [...passMembers].sort().join()) wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass ${passMembers.join(", ")}`);
            }
        }
      }
      expect(typed).toBeGreaterThan(50);
      expect(wrong).toEqual([]);
    }, 300_000);

    probeIt("a call given an element of an array of two families is refused by the engine where the pass refuses it, on rows holding each element, and with a constant index on the element it picks", async () => {
      const columns = familyColumns();
      const pairs = columns.flatMap((a, k) => columns.slice(k + 1).map((b) => [a, b] as const));
      // Two rows, the index 1 on one and 2 on the other (`pick`): the engine must fail each query
      // the pass refuses for an element either row holds.
      const perRow = pairs.map(([a, b]) => call("arrayElement", [call("array", [a, b]), column("pick")]));
      const twoRows = { from: `(SELECT *, 1 AS pick FROM ${PROBE_ROW_TABLE} UNION ALL SELECT *, 2 AS pick FROM ${PROBE_ROW_TABLE})`, sql: (sql: string) => sql, anyFailure: true };
      await expectEngineRefusesWhatPassRefuses(callsWith(perRow, 2), 500, (message) => message.includes("the array's elements have no common type"), twoRows);
      const picked = pairs.flatMap(([a, b]) => [call("arrayElement", [call("array", [a, b]), { kind: "literal", value: 2 }]), call("arrayElement", [call("array", [a, b]), { kind: "literal", value: -2 }])]);
      // arrayJoin of the Variant is the engine's code 53 (a type mismatch): any failure counts.
      await expectEngineRefusesWhatPassRefuses(callsWith(picked, 2), 500, (message) => message.includes("its index picks the element"), { from: PROBE_ROW_TABLE, sql: (sql) => sql, anyFailure: true });
    }, 600_000);

    probeIt("a tuple or an array call of any elements (arrays of arrays, tuples of arrays) looked for IN a column or a scalar computed per row is refused by the engine where the pass refuses it", async () => {
      const containers = [
        call("array", [call("array", [column(CLASS_SAMPLES.string.column)])]),
        call("array", [call("array", [column(CLASS_SAMPLES.uint8.column), column(CLASS_SAMPLES.int64.column)])]),
        call("array", [call("tuple", [column(CLASS_SAMPLES.uint8.column), column(CLASS_SAMPLES.string.column)])]),
        call("tuple", [column(CLASS_SAMPLES.arrayNumber.column)]),
        call("tuple", [call("array", [column(CLASS_SAMPLES.datetime.column)]), column(CLASS_SAMPLES.uint8.column)]),
      ];
      const sets = [...(["string", "uint8", "int64", "float64", "datetime", "uuid"] as const).map((cls) => column(CLASS_SAMPLES[cls].column)), call("length", [column(CLASS_SAMPLES.string.column)]), call("upper", [column(CLASS_SAMPLES.string.column)])];
      const expressions = containers.flatMap((container) => sets.flatMap((set) => [call("in", [container, set]), call("notIn", [container, set])]));
      // The pass refuses each one (by this rule, or a tuple's own refusals beside a string); the
      // engine with code 43, or 44 for a tuple it cannot make Nullable: any failure counts.
      await expectEngineRefusesWhatPassRefuses(expressions, expressions.length - 1, () => true, { from: PROBE_ROW_TABLE, sql: (sql) => sql, anyFailure: true });
    }, 120_000);

    probeIt("a call given an array of NULLs (array(NULL), an Array(Nullable(Nothing))) or of Nullable numbers (array(x, NULL), an Array(Nullable(Float64)), ...) is refused by the engine where the pass refuses it", async () => {
      const NULL: Expression = { kind: "literal", value: null };
      const nullable = (cls: ArgumentClass): Expression => column(nullableSample(cls)!.column);
      const nulls = [call("array", [NULL]), call("array", [NULL, NULL])];
      const arrays = [
        call("array", [nullable("float64")]),
        call("array", [nullable("uint8"), { kind: "literal", value: 10 }]),
        call("array", [nullable("int64")]),
        call("array", [column(CLASS_SAMPLES.float64.column), NULL]),
        call("array", [NULL, { kind: "literal", value: 0.5 }]),
        call("array", [column(CLASS_SAMPLES.bool.column), NULL]),
      ];
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "uuid", "arrayString", "arrayNumber", "aggregateState"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith(nulls, 2, partners), 200);
      // Beside values of no class: a map, a tuple, a UInt128, a Date, an IP are compared with an
      // array whole (refused), but looked for among its elements (`has(array(NULL), m)` is taken).
      const scalarVariants = [...MAP_TUPLE_COLUMNS, UINT128_COLUMN, DATE_COLUMNS[0]!, IP_COLUMNS[0]!].map((sample) => sample.column);
      await expectEngineRefusesWhatPassRefuses(callsWith(nulls, 2, scalarVariants), 100, (message) => message.includes("an array of NULLs"));
      // (A constant array on the right of IN is a set of values, judged by its own rule, whose
      // refusal of a float looked for beside an array column the engine does not share.)
      await expectEngineRefusesWhatPassRefuses(callsWith(arrays, 2, partners), 400, (message) => message.includes("an array of Nullable numbers"));
    }, 900_000);

    probeIt("a call given arrays or maps beside a NULL (array(NULL, tags.key), an Array(Variant(Array(String)))) is refused by the engine where the pass refuses it", async () => {
      // No Nullable holds a container, so the engine makes a Variant of them (seed 22's GROUP BY
      // array(logger, tags.key) on discover, whose logger is NULL). The forms take turns per call.
      const NULL: Expression = { kind: "literal", value: null };
      const [mapStrings, mapInts] = MAP_TUPLE_COLUMNS.map((sample) => column(sample.column));
      const forms = [
        call("array", [NULL, column(CLASS_SAMPLES.arrayString.column)]),
        call("array", [column(CLASS_SAMPLES.arrayNumber.column), NULL]),
        call("array", [NULL, column(CLASS_SAMPLES.arrayNumber.column), column(CLASS_SAMPLES.arrayString.column)]),
        call("array", [NULL, mapStrings!]),
        call("array", [mapInts!, NULL, mapInts!]),
      ];
      for (const form of forms) {
        expect(passTypingOf(form)?.variant, sqlOf(form)).toBe("mixedArray");
        expect(await engineTypeOf(form), sqlOf(form)).toMatch(/^Array\(Variant\(/);
      }
      const partners = [null, ...(["string", "uint8", "datetime", "float64", "arrayString", "arrayNumber"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith([forms], 2, partners), 100);
    }, 300_000);

    probeIt("an Array(UInt32) (array(granularity), groupUniqArray of one) is one of an Array(UInt8) and an Array(Int64), refused by the engine where the pass refuses it, by its elements too ('a' IN array(u))", async () => {
      const uint32 = column(CLASS_SAMPLES.uint32.column);
      const arrays = [call("array", [uint32]), call("array", [uint32, literal(5)])];
      const aggregated = [call("groupUniqArray", [uint32]), call("groupArray", [uint32])];
      for (const array of [...arrays, ...aggregated]) expect(passTypingOf(array)?.alternatives?.length, sqlOf(array)).toBe(2);
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "uuid", "arrayString", "arrayNumber", "bool"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith(arrays, 2, partners), 150, (message) => message.includes("an Array(UInt32)"));
      const aggregatePartners = [...(["string", "uint8", "datetime", "int64", "float64", "arrayString", "arrayNumber"] as const).map((cls) => call("any", [column(CLASS_SAMPLES[cls].column)])), call("count", [])];
      await expectEngineRefusesWhatPassRefuses(callsWith(aggregated, 2, aggregatePartners), 100, (message) => message.includes("an Array(UInt32)"));
      // Looked for among its elements: refused where both alternatives' elements are.
      for (const sought of [literal("a"), column(CLASS_SAMPLES.string.column), column(CLASS_SAMPLES.uuid.column)]) {
        for (const expression of [call("has", [arrays[0]!, sought]), call("in", [sought, arrays[0]!]), call("indexOf", [arrays[1]!, sought])]) {
          expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).not.toBeNull();
          expect(await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`), sqlOf(expression)).not.toBeNull();
        }
      }
      for (const sought of [literal(3), column(CLASS_SAMPLES.int64.column), column(CLASS_SAMPLES.float64.column)]) {
        const expression = call("has", [arrays[0]!, sought]);
        expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toBeNull();
      }
    }, 900_000);

    probeIt("an Array(UInt32), Array(UInt8) or Array(Bool) divided or multiplied by a number is an array of numbers, as the engine types it, refused where the engine refuses it", async () => {
      const arrays = [call("array", [column(CLASS_SAMPLES.uint32.column)]), call("array", [column(CLASS_SAMPLES.bool.column)]), call("array", [column(CLASS_SAMPLES.uint8.column)])];
      const numbers = [literal(2), literal(0.5), column(CLASS_SAMPLES.float64.column), column(CLASS_SAMPLES.int64.column)];
      const products = arrays.flatMap((array) => numbers.flatMap((number) => [call("divide", [array, number]), call("multiply", [number, array])]));
      const wrong: string[] = [];
      for (const product of products) {
        const engine = await engineTypeOf(product);
        const pass = passTypingOf(product);
        const engineArrayOfNumbers = /^Array\((U?Int\d+|Float\d+)\)$/.test(engine);
        const passArrayOfNumbers = pass?.variant === "float64s" || (pass?.alternatives?.some((alternative) => alternative.cls === "arrayNumber") ?? false);
        if (!engineArrayOfNumbers || !passArrayOfNumbers || (pass?.variant === "float64s" && engine !== "Array(Float64)")) wrong.push(`${sqlOf(product)}: engine ${engine}, the pass ${JSON.stringify(pass)}`);
      }
      expect(wrong).toEqual([]);
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "arrayString"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith(products.slice(0, 4), 2, partners), 100);
    }, 900_000);

    probeIt("an array of floats (array(f), groupArray(f)) is one of an Array(Float64) and an Array(Float32), an array of integers of at most 32 bits one of an Array(Int64) and an Array(UInt8), and plus or minus takes two arrays of numbers: the pass and the engine agree", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      // (also floats beside numbers a float holds: `array(f, b, u)`)
      const floats = [call("array", [c("float64")]), call("array", [call("toFloat32", [c("float64")])]), call("groupArray", [c("float64")]), call("array", [call("plus", [c("float64"), literal(1)])]), call("array", [c("float64"), c("bool"), c("uint32")]), call("array", [call("toFloat32", [c("float64")]), c("uint8")])];
      const narrow = [call("array", [call("toUInt16", [c("int64")])]), call("array", [call("toInt32", [c("int64")])]), call("groupUniqArray", [call("toUInt16", [c("int64")])])];
      for (const array of [...floats, ...narrow]) expect(passTypingOf(array)?.alternatives?.length, sqlOf(array)).toBe(2);
      for (const array of floats) expect(await engineTypeOf(array), sqlOf(array)).toMatch(/^Array\(Float(32|64)\)$/);
      for (const array of narrow) expect(await engineTypeOf(array), sqlOf(array)).toMatch(/^Array\(U?Int(16|32)\)$/);
      // Beside each class, a map, a tuple, a UInt128, a Date, an IP, and the other arrays: refused
      // by the pass where the engine refuses it (`array(f) = m`, code 43), taken where the engine
      // takes it (`array(f) + tags.value`, `array(f) = array(toUInt16(x))`).
      const arrays = [...floats.filter((_, i) => i !== 2), ...narrow.slice(0, 2), c("arrayNumber"), call("array", [c("uint8")]), call("array", [c("uint32")])];
      const scalars = [...(["string", "uint8", "datetime", "int64", "float64", "uuid", "bool"] as const).map(c), ...[...MAP_TUPLE_COLUMNS, UINT128_COLUMN, DATE_COLUMNS[0]!, IP_COLUMNS[0]!].map((sample) => column(sample.column))];
      const names = ["plus", "minus", "equals", "less", "has", "indexOf", "greatest", "arrayConcat", "hasAny"];
      // (Not the aggregates: beside a column they are code 215, whatever the types.)
      const perRow = [...floats, ...narrow].filter((array) => array.kind === "function" && array.name === "array");
      const expressions = perRow.flatMap((array) => names.flatMap((name) => [...arrays, ...scalars].flatMap((other) => [call(name, [array, other]), call(name, [other, array])])));
      const typeError = (code: number) => TYPE_OR_COUNT_ERRORS.has(code);
      const { refused, disagreements } = await passAndEngine(expressions, { byRule: () => true, engineRefuses: typeError });
      expect(disagreements).toEqual([]);
      expect(refused).toBeGreaterThan(200);
    }, 900_000);

    probeIt("arithmetic on an array of NULLs (array(NULL), array(site) where the storage has no site) is refused by the pass exactly where the engine refuses it: beside anything but a NULL", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const nulls = [call("array", [literal(null)]), call("array", [literal(null), literal(null)])];
      const others = [literal(2), literal(0.5), literal("a"), literal(null), c("float64"), c("int64"), c("string"), c("arrayNumber"), column(nullableSample("float64")!.column), call("array", [literal(1)]), ...nulls];
      const names = ["plus", "minus", ...ELEMENT_WISE_ARITHMETIC].filter((name) => ALLOWED_FUNCTIONS.has(name));
      const expressions = names.flatMap((name) => nulls.flatMap((array) => others.flatMap((other) => [call(name, [array, other]), call(name, [other, array])])));
      const { refused, disagreements } = await passAndEngine(expressions, { byRule: (message) => message.includes("an array of NULLs"), engineRefuses: (code) => code === 43, mustRefuse: (code) => TYPE_OR_COUNT_ERRORS.has(code) });
      expect(disagreements).toEqual([]);
      expect(refused).toBeGreaterThan(100);
    }, 300_000);

    probeIt("a higher-order function whose lambda returns a NULL is no NULL (arrayAll((x) -> toHour(NULL), a) is a UInt8): LIKE beside a value it refuses by itself is refused, as the engine refuses it", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const bodies: Expression[] = [literal(null), call("toHour", [literal(null)])];
      const higher = ["arrayAll", "arrayExists", "arrayCount", "arrayMap", "arrayFilter"].filter((name) => ALLOWED_FUNCTIONS.has(name)).flatMap((name) => bodies.map((body) => call(name, [{ kind: "lambda", params: ["x"], body } as Expression, c("arrayNumber")])));
      for (const value of higher.filter((e) => e.kind === "function" && e.name === "arrayAll")) expect(passTypingOf(value)?.mayBeNothing, sqlOf(value)).toBe(false);
      // Beside a value LIKE refuses by itself (`measurements[lcp] LIKE arrayAll((v) -> toHour(received), a)`):
      // refused, as the engine refuses it. (The pass leaves the function's own result untyped.)
      const partners = [c("float64"), c("int64"), column(nullableSample("float64")!.column), literal(1.5)];
      const expressions = higher.flatMap((value) => partners.flatMap((partner) => [call("like", [partner, value]), call("notLike", [partner, value])]));
      const { refused, disagreements } = await passAndEngine(expressions.filter((e) => e.kind === "function" && ALLOWED_FUNCTIONS.has(e.name)), { byRule: () => true, engineRefuses: (code) => TYPE_OR_COUNT_ERRORS.has(code) });
      expect(disagreements).toEqual([]);
      expect(refused).toBeGreaterThan(20);
    }, 300_000);

    probeIt("an array of Bools and integers is an array of their common type, of the first one's where every element is a Bool or a UInt8 (array(FALSE, 2) an Array(Bool), array(2, FALSE) an Array(UInt8)): the pass and the engine agree", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const expected: [Expression, RegExp][] = [
        [call("array", [literal(false), literal(2)]), /^Array\(Bool\)$/],
        [call("array", [c("bool"), c("uint8"), literal(true)]), /^Array\(Bool\)$/],
        [call("array", [literal(2), literal(false)]), /^Array\(UInt8\)$/],
        [call("array", [c("uint8"), c("bool")]), /^Array\(UInt8\)$/],
        [call("array", [literal(false), literal(300)]), /^Array\(UInt16\)$/],
        [call("array", [c("bool"), literal(-5)]), /^Array\(Int16\)$/],
        [call("array", [literal(true), call("toUInt64", [c("int64")])]), /^Array\(UInt64\)$/],
      ];
      for (const [array, type] of expected) {
        const engine = await engineTypeOf(array);
        expect(engine, sqlOf(array)).toMatch(type);
        const pass = passTypingOf(array);
        // An Array(Bool) or Array(UInt8) is its array variant; a wider one an array of integers (one of two, where at most 32 bits).
        const passType = pass?.variant ?? (pass?.cls === "arrayNumber" || pass?.alternatives?.some((alternative) => alternative.cls === "arrayNumber") ? "integers" : null);
        expect(passType, sqlOf(array)).toBe(engine === "Array(Bool)" ? "bools" : engine === "Array(UInt8)" ? "uint8s" : "integers");
      }
      // Beside each class, a map, a tuple, a Date, an IP and other arrays: refused by the pass where
      // the engine refuses it (`array(FALSE, 2) = array('a')`, code 43), taken where the engine takes it.
      const arrays = [c("arrayString"), c("arrayNumber"), call("array", [c("uint8")]), call("array", [c("bool")]), call("array", [literal("a")])];
      const scalars = [...(["string", "uint8", "datetime", "int64", "float64", "uuid", "bool"] as const).map(c), ...[...MAP_TUPLE_COLUMNS, DATE_COLUMNS[0]!, IP_COLUMNS[0]!].map((sample) => column(sample.column))];
      const names = ["plus", "equals", "less", "has", "indexOf", "arrayConcat", "hasAny"];
      const expressions = expected.flatMap(([array]) => names.flatMap((name) => [...arrays, ...scalars].flatMap((other) => [call(name, [array, other]), call(name, [other, array])])));
      const { refused, disagreements } = await passAndEngine(expressions, { byRule: () => true, engineRefuses: (code) => TYPE_OR_COUNT_ERRORS.has(code) });
      expect(disagreements).toEqual([]);
      expect(refused).toBeGreaterThan(100);
    }, 900_000);

    probeIt("an array of numbers two of which have no common type (array(1.5, u), array(u, -1)), or of a string and a condition, is an Array(Variant(...)) as the engine types it, refused by the engine where the pass refuses it", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const uint64 = call("toUInt64", [c("int64")]);
      const arrays = [
        call("array", [literal(1.5), uint64]),
        call("array", [uint64, literal(-1)]),
        call("array", [c("float64"), c("int64"), literal(false)]),
        call("array", [column(nullableSample("float64")!.column), uint64]),
        call("array", [c("string"), call("notIn", [call("now", []), call("now", [])])]),
        // and an array known only as one of several beside scalars (`array(TRUE, project_id, array(attributes_bool))`, seed 14)
        call("array", [literal(true), c("int64"), call("array", [column(MAP_TUPLE_COLUMNS[0]!.column)])]),
        call("array", [c("uint8"), NULLABLE_ELEMENT_ARRAYS[0]!]),
      ];
      const wrong: string[] = [];
      for (const array of arrays) {
        const engine = await engineTypeOf(array);
        if (!engine.startsWith("Array(Variant(") || passTypingOf(array)?.variant !== "mixedArray") wrong.push(`${sqlOf(array)}: engine ${engine}, the pass ${passTypingOf(array)?.variant}`);
      }
      expect(wrong).toEqual([]);
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "arrayString", "arrayNumber"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith(arrays, 2, partners), 300);
    }, 900_000);

    probeIt("an array, a map or a tuple listed beside values read per row on the right of IN is refused by the engine where the pass refuses it (the list is converted to the left's type)", async () => {
      const containers = [column(CLASS_SAMPLES.arrayString.column), column(CLASS_SAMPLES.arrayNumber.column), ...MAP_TUPLE_COLUMNS.map((sample) => column(sample.column)), call("tuple", [column(CLASS_SAMPLES.uint8.column), literal(1)])];
      const lefts = (["uint8", "int64", "float64", "datetime", "uint32", "bool", "string"] as const).map((cls) => column(CLASS_SAMPLES[cls].column));
      const expressions = lefts.flatMap((left) => containers.flatMap((container) => ["in", "notIn"].map((name) => call(name, [left, call("tuple", [left, container])]))));
      // Strings take every value listed per row (each is converted to a text): none refused.
      for (const expression of expressions.filter((e) => sqlOf(e).startsWith(`in(${CLASS_SAMPLES.string.column}`))) expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toBeNull();
      await expectEngineRefusesWhatPassRefuses(expressions, 50, (message) => message.includes("among the values listed with it"));
    }, 120_000);

    probeIt("an IPv4 compared with a float or a signed integer (or in greatest or least beside one) is refused by the engine (code 48) where the pass refuses it, and beside an unsigned integer taken by both", async () => {
      const ipv4 = column(IP_COLUMNS[0]!.column);
      const floats = [column(CLASS_SAMPLES.float64.column), column(nullableSample("float64")!.column), literal(1.5), column(CLASS_SAMPLES.int64.column), literal(-1), call("toInt32", [literal(1)])];
      const integers = [column(CLASS_SAMPLES.uint8.column), column(CLASS_SAMPLES.uint32.column), literal(5), call("toUInt64", [literal(1)])];
      const names = ["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals", "greatest", "least"];
      const pairs = (others: readonly Expression[]) => names.flatMap((name) => others.flatMap((other) => [call(name, [ipv4, other]), call(name, [other, ipv4])]));
      let refused = 0;
      for (const expression of pairs(floats)) {
        // (by the IPv4 rule, or by the probe's pairs where it tried the float or the signed integer)
        expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toMatch(/cannot convert an IPv4 to|does not take them together/);
        expect(await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`), sqlOf(expression)).toBe(48);
        refused += 1;
      }
      expect(refused).toBe(96);
      for (const expression of pairs(integers)) {
        expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toBeNull();
        expect(await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`), sqlOf(expression)).toBeNull();
      }
    }, 120_000);

    probeIt("a Boolean looked for IN a string column is refused by the engine on a row holding a text (code 467) where the pass refuses it; a number or a DateTime there is taken by both", async () => {
      const strings = [column(CLASS_SAMPLES.string.column), column(nullableSample("string")!.column)];
      const booleans = [literal(true), literal(false), column(CLASS_SAMPLES.bool.column)];
      for (const name of ["in", "notIn"])
        for (const set of strings) {
          for (const sought of booleans) {
            const expression = call(name, [sought, set]);
            expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toContain("reads the column's texts as booleans");
            expect(await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`), sqlOf(expression)).toBe(467);
          }
          for (const sought of [literal(1), column(CLASS_SAMPLES.uint8.column), call("now", [])]) {
            const expression = call(name, [sought, set]);
            expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toBeNull();
            expect(await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`), sqlOf(expression)).toBeNull();
          }
        }
    }, 120_000);

    probeIt("an aggregate state beside a NULL in if, multiIf, array, greatest or least is refused by the engine (no Nullable holds a state) where the pass refuses it; ifNull and coalesce are taken by both", async () => {
      const state = column(CLASS_SAMPLES.aggregateState.column);
      const NULL = literal(null);
      const condition = column(CLASS_SAMPLES.uint8.column);
      const refused = [call("if", [condition, state, NULL]), call("if", [condition, NULL, state]), call("if", [literal(1), state, NULL]), call("multiIf", [condition, state, NULL]), call("array", [state, NULL]), call("greatest", [state, NULL]), call("least", [NULL, state])];
      for (const expression of refused) {
        // (greatest and least beside a NULL are refused first by their common-type rule.)
        expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).not.toBeNull();
        expect(await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`), sqlOf(expression)).toBe(43);
      }
      for (const expression of [call("ifNull", [state, NULL]), call("coalesce", [state, NULL])]) {
        expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toBeNull();
        expect(await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`), sqlOf(expression)).toBeNull();
      }
    }, 120_000);

    probeIt("a lambda that returns an array(…) of its parameters is refused by the engine where the function takes no array from its lambda, as the pass refuses it", async () => {
      const x: Expression = { kind: "column", name: "x" };
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (!signature.lambdaBodyRefused.includes("arrayString") || !signature.lambdaBodyRefused.includes("arrayNumber")) continue;
        const expression = call(name, [{ kind: "lambda", params: ["x"], body: call("array", [x, x]) }, column(CLASS_SAMPLES.arrayNumber.column)]);
        expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), name).toContain("returns an array");
        expect(await codeOf(`SELECT ${name}(x -> array(x, x), ${CLASS_SAMPLES.arrayNumber.column}) AS r FROM ${PROBE_ROW_TABLE}`), name).not.toBeNull();
        checked += 1;
      }
      expect(checked).toBeGreaterThan(5);
    }, 60_000);

    probeIt("a call given an IP plus, minus or times an integer (of an IPv4 an integer of the type integer arithmetic on a UInt32 gives, else one of some width) is refused by the engine where the pass refuses it", async () => {
      const values = IP_COLUMNS.flatMap((ip) => [
        call("minus", [column(ip.column), column(CLASS_SAMPLES.uint8.column)]),
        call("plus", [column(CLASS_SAMPLES.int64.column), column(ip.column)]),
        call("multiply", [column(ip.column), { kind: "literal", value: 2 }]),
        call("modulo", [column(ip.column), column(CLASS_SAMPLES.uint32.column)]),
      ]);
      // Of an IPv4 plus, minus or times an integer of known type, that arithmetic on a UInt32
      // (integer-types.test.ts holds the types); otherwise one of the integer classes, and of an
      // IPv6 a UInt128 too.
      for (const value of values) {
        const onUInt32 = value.kind === "function" && value.name !== "modulo" && JSON.stringify(value).includes("ipv4");
        if (onUInt32) expect(passTypingOf(value)?.integer, sqlOf(value)).toMatch(/^U?Int64$/);
        else expect(passTypingOf(value)?.alternatives?.length, sqlOf(value)).toBe(JSON.stringify(value).includes("ipv6") ? 4 : 3);
      }
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "uuid", "arrayString", "arrayNumber"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith(values, 2, partners), 300);
    }, 900_000);

    probeIt("two arrays of integers of known types compared are refused exactly where their elements have no common type (an Array(Int64) and an Array(UInt64), code 43); arrays added or subtracted have the element type the engine gives", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const uint64s = call("array", [call("toUInt64", [c("int64")])]);
      const int64s = c("arrayNumber");
      const arrays = [int64s, uint64s, call("minus", [uint64s, uint64s]), call("plus", [uint64s, uint64s]), call("minus", [int64s, uint64s]), call("array", [call("toInt32", [c("int64")])]), call("array", [call("toUInt8", [c("int64")])]), call("array", [literal(1), literal(2)])];
      const wrong: string[] = [];
      // (An array of UInt8s is the probe's Array(UInt8) variant, judged on its own refusals.)
      for (const array of arrays.slice(0, 6)) {
        const pass = passTypingOf(array)?.elementInteger ?? null;
        const engine = await engineTypeOf(array);
        if (engine !== `Array(${pass})`) wrong.push(`${sqlOf(array)}: engine ${engine}, the pass an array of ${pass}`);
      }
      expect(wrong).toEqual([]);
      const expressions = ["equals", "less", "greaterOrEquals"].flatMap((name) => arrays.flatMap((a) => arrays.map((b) => call(name, [a, b]))));
      const { refused, disagreements } = await passAndEngine(expressions, { byRule: (message) => message.includes("compares two arrays in their elements' common type"), engineRefuses: (code) => code === 43, mustRefuse: (code) => code === 43 });
      expect(disagreements).toEqual([]);
      expect(refused).toBeGreaterThan(15);
      // The functions that bring arrays to one type refuse the same pairs (code 386), the third of three too.
      const together = ["arrayConcat", "hasAny", "hasAll", "greatest", "least"].flatMap((name) => arrays.flatMap((a) => arrays.flatMap((b) => [call(name, [a, b]), call(name, [a, int64s, b])])));
      const common = await passAndEngine(together, { byRule: (message) => message.includes("takes its arrays in their elements' common type"), engineRefuses: (code) => code === 386, mustRefuse: (code) => code === 386 || code === 43 });
      expect(common.disagreements).toEqual([]);
      expect(common.refused).toBeGreaterThan(40);
    }, 120_000);

    probeIt("a UInt128 plus, minus, times or divided as integers by an integer is a UInt128 or an Int128 in the engine, typed as a UInt128, and a call given one (or an IPv6's arithmetic taken further) is refused by the engine where the pass refuses it", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const wide = column(UINT128_COLUMN.column);
      const wides = [call("plus", [wide, c("uint8")]), call("minus", [wide, c("int64")]), call("multiply", [literal(2), wide]), call("intDiv", [wide, c("uint32")]), call("plus", [wide, wide])];
      for (const value of wides) {
        expect(passTypingOf(value)?.variant, sqlOf(value)).toBe("uint128");
        expect(await engineTypeOf(value), sqlOf(value)).toMatch(/^U?Int128$/);
      }
      // Beside a float or a Nullable integer it is no UInt128 the pass names.
      for (const value of [call("plus", [wide, c("float64")]), call("plus", [wide, column(nullableSample("uint8")!.column)])]) expect(passTypingOf(value)?.variant ?? null, sqlOf(value)).not.toBe("uint128");
      const ipv6 = column(IP_COLUMNS[1]!.column);
      const further = [call("plus", [call("minus", [ipv6, c("uint8")]), c("uint8")]), call("multiply", [call("plus", [ipv6, literal(1)]), literal(2)])];
      for (const value of further) expect(passTypingOf(value)?.alternatives?.length, sqlOf(value)).toBeGreaterThan(1);
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "uuid", "arrayString", "arrayNumber"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith([...wides.slice(0, 2), ...further], 2, partners), 300);
    }, 900_000);

    probeIt("two tuples of one size compared are compared element by element: the engine refuses each pair the pass refuses", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const elements = [...(["string", "uint8", "int64", "float64", "datetime", "uuid", "arrayNumber", "arrayString"] as const).map(c), column(nullableSample("string")!.column), literal(1), literal("a"), literal(null)];
      const comparisons = ["equals", "notEquals", "less", "greaterOrEquals"];
      const expressions = comparisons.flatMap((name) =>
        elements.flatMap((a, i) => elements.map((b, j) => call(name, [call("tuple", [a, literal(1)]), call("tuple", [b, elements[(i + j) % elements.length]!.kind === "literal" ? literal(2) : c("uint8")])]))),
      );
      // A text among the elements is read as the other's type, as beside it alone: refused with a
      // conversion's codes (`tuple(u, 1) < tuple('a', 2)` is 53, 72, 41 or 376 by the type).
      const typeError = (code: number) => TYPE_OR_COUNT_ERRORS.has(code) || TEXT_CONVERSION_ERRORS.has(code);
      const { refused, disagreements } = await passAndEngine(expressions, { byRule: (message) => message.includes("works on a tuple element by element"), engineRefuses: typeError, mustRefuse: () => false });
      expect(disagreements).toEqual([]);
      expect(refused).toBeGreaterThan(100);
    }, 900_000);

    probeIt("a call given an array of arrays (array(tags.key), groupArray(tags.key)) is refused by the engine where the pass refuses it", async () => {
      const arrays = [call("array", [column(CLASS_SAMPLES.arrayString.column)]), call("array", [column(CLASS_SAMPLES.arrayNumber.column), column(CLASS_SAMPLES.arrayNumber.column)])];
      for (const array of arrays) expect(passTypingOf(array)?.alternatives?.length, sqlOf(array)).toBeGreaterThan(2);
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "uuid", "arrayString", "arrayNumber", "aggregateState"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith(arrays, 2, partners), 300, (message) => message.includes("an array of arrays"));
      // and not where another argument is looked for among its elements
      for (const expression of [call("has", [arrays[0]!, column(CLASS_SAMPLES.arrayString.column)]), call("indexOf", [arrays[1]!, column(CLASS_SAMPLES.arrayNumber.column)])]) expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toBeNull();
    }, 900_000);

    probeIt("an aggregate's array of values the pass names no array for (groupUniqArray of a state, a Date, an IP, a map, an array variant), or an array(…) of one such value, is refused by the engine where the pass refuses it", async () => {
      const of = [CLASS_SAMPLES.aggregateState, ...DATE_COLUMNS, ...IP_COLUMNS, ...MAP_TUPLE_COLUMNS, ...["nullableStrings", "uuids"].map((variant) => variantSamples(variant)[0]!)];
      const arrays = of.flatMap((sample) => ["groupUniqArray", "groupArray"].map((name) => call(name, [column(sample.column)])));
      for (const array of arrays) expect(passTypingOf(array)?.alternatives?.length, sqlOf(array)).toBeGreaterThan(2);
      // Partners an aggregate may stand beside: other aggregates' results (a plain column beside it
      // is code 215 before a refusal the engine makes while executing, as nullIf's).
      const partners = [...(["string", "uint8", "datetime", "int64", "float64", "arrayString", "arrayNumber"] as const).map((cls) => call("any", [column(CLASS_SAMPLES[cls].column)])), call("count", [])];
      await expectEngineRefusesWhatPassRefuses(callsWith(arrays, 2, partners), 300, (message) => message.includes("names no array for") || (message.includes("works element by element") && !message.includes("aggregate state")));
      // `array(x)` of one such value read per row (`'yes' LIKE array(tags)`) is the same array, beside columns.
      // (The probe entity's columns of no class; a Nested column read whole is held by invalid-queries.)
      // So is an `array(…)` of DateTimes or UUIDs beside a NULL (`array(NULL, now())`, an Array(Nullable(DateTime))).
      const perRow = [
        ...[...DATE_COLUMNS, ...IP_COLUMNS, ...MAP_TUPLE_COLUMNS.slice(0, 2)].map((sample) => call("array", [column(sample.column)])),
        ...NULLABLE_ELEMENT_ARRAYS,
        // and an arrayMap of a body reading a column (`arrayMap((v) -> divide(granularity, TRUE), tags.value)`, seed 15)
        call("arrayMap", [{ kind: "lambda", params: ["x"], body: call("plus", [column(CLASS_SAMPLES.float64.column), literal(1)]) } as Expression, column(CLASS_SAMPLES.arrayString.column)]),
        call("arrayMap", [{ kind: "lambda", params: ["x"], body: column(CLASS_SAMPLES.string.column) } as Expression, column(CLASS_SAMPLES.arrayNumber.column)]),
      ];
      for (const array of perRow) expect(passTypingOf(array)?.alternatives?.length, sqlOf(array)).toBeGreaterThan(2);
      const rowPartners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "arrayString", "arrayNumber"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      await expectEngineRefusesWhatPassRefuses(callsWith(perRow, 2, rowPartners), 300, (message) => message.includes("names no array for") || (message.includes("works element by element") && !message.includes("aggregate state")));
      // and not where another argument is looked for among its elements
      const ofMap = arrays[of.indexOf(MAP_TUPLE_COLUMNS[0]!) * 2]!;
      for (const expression of [call("has", [arrays[0]!, call("any", [column(CLASS_SAMPLES.string.column)])]), call("indexOf", [ofMap, call("any", [column(CLASS_SAMPLES.int64.column)])])]) expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).toBeNull();
    }, 900_000);

    probeIt("a quantiles call of many levels (quantiles(0.5)(x), quantilesTDigest) of a number is an array of numbers in the engine, refused by the engine where the pass refuses it", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const curried = (name: string, arg: Expression): Expression => ({ kind: "curried", name, params: [literal(0.5)], args: [arg] }) as Expression;
      // (Those the probe knows: quantilesExact and quantilesTiming are left untyped.)
      const quantiles = [curried("quantiles", c("int64")), curried("quantilesTDigest", c("float64")), curried("quantiles", c("uint32")), curried("quantilesTDigest", c("uint8"))];
      for (const value of quantiles) {
        expect(passTypingOf(value)?.alternatives?.length, sqlOf(value)).toBeGreaterThan(1);
        expect(await engineTypeOf(value), sqlOf(value)).toMatch(/^Array\((U?Int\d+|Float\d+)\)$/);
      }
      const partners = [...(["string", "uint8", "datetime", "int64", "float64", "arrayString", "arrayNumber"] as const).map((cls) => call("any", [c(cls)])), call("count", [])];
      await expectEngineRefusesWhatPassRefuses(callsWith(quantiles.slice(0, 2), 2, partners), 150);
    }, 900_000);

    probeIt("a number and an aggregate's array of states, of arrays, of Dates, DateTime64s or IPs (0.95 * groupUniqArray(state), 1000 / groupUniqArray(timestamp_ms)), done element by element, are refused by the pass exactly where the engine refuses them", async () => {
      const of = [CLASS_SAMPLES.aggregateState, CLASS_SAMPLES.arrayString, CLASS_SAMPLES.arrayNumber, ...DATE_COLUMNS, ...IP_COLUMNS];
      const arrays = of.flatMap((sample) => ["groupUniqArray", "groupArray"].map((name) => call(name, [column(sample.column)])));
      // Numbers: constants (an integer repeats a state, a float or a Bool does not) and per-row
      // aggregates (a state is repeated a constant number of times only: code 44).
      const numbers = [literal(2), literal(0.95), literal(true), call("count", []), call("any", [column(CLASS_SAMPLES.float64.column)])];
      const names = [...ELEMENT_WISE_ARITHMETIC].filter((name) => ALLOWED_FUNCTIONS.has(name));
      expect(names.length).toBeGreaterThanOrEqual(5);
      const expressions = names.flatMap((name) => arrays.flatMap((array) => numbers.flatMap((number) => [call(name, [number, array]), call(name, [array, number])])));
      const { refused, disagreements } = await passAndEngine(expressions, { byRule: () => true, engineRefuses: (code) => TYPE_OR_COUNT_ERRORS.has(code) || code === 44 });
      expect(refused).toBeGreaterThanOrEqual(60);
      expect(disagreements).toEqual([]);
      // An array(…) of an array variant (`array(array(transaction_name, geo_city))`, an
      // Array(Array(Nullable(String)))) knows its elements too, beside numbers read per row; so
      // does one of a Nested column read whole (`10 / array(tags)` on replays, seed 18).
      const variantColumns = [...ARRAY_VARIANTS.map((variant) => variantSamples(variant)[0]!), ...variantSamples("nested")];
      const entity = columnsEntity("probe", [...CLASS_COLUMNS, ...variantColumns].map((sample) => ({ name: sample.column, type: sample.type })));
      // And one of mixed arrays (`1 / groupUniqArray(array(level, measurements[cls]))`, seed 40):
      // its elements are each an Array(Variant(...)).
      const mixed = call("array", [column(CLASS_SAMPLES.string.column), column(CLASS_SAMPLES.uint8.column)]);
      const ofMixedArrays = [call("array", [mixed]), call("groupUniqArray", [mixed]), call("groupArray", [mixed])];
      const ofArrays = [...variantColumns.map((sample) => call("array", [column(sample.column)])), ...NULLABLE_ELEMENT_ARRAYS, ...ofMixedArrays];
      for (const array of ofArrays) expect(passTypingOf(array, entity)?.alternatives?.length, sqlOf(array)).toBeGreaterThan(2);
      const perRowNumbers = [literal(2), literal(0.95), literal(true), column(CLASS_SAMPLES.float64.column), column(CLASS_SAMPLES.int64.column)];
      const nested = names.flatMap((name) => ofArrays.flatMap((array) => perRowNumbers.flatMap((number) => [call(name, [number, array]), call(name, [array, number])])));
      const ofVariants = await passAndEngine(nested, { byRule: () => true, engineRefuses: (code) => TYPE_OR_COUNT_ERRORS.has(code), entity });
      expect(ofVariants.disagreements).toEqual([]);
      expect(ofVariants.refused).toBeGreaterThanOrEqual(30);
    }, 600_000);

    probeIt("an array the pass names no element type for (array(NULL), groupUniqArray of arrays or states) compared with a value of a scalar class is refused by the pass exactly where the engine refuses it", async () => {
      const arrays = [
        call("array", [literal(null)]),
        ...[CLASS_SAMPLES.arrayString, CLASS_SAMPLES.arrayNumber, CLASS_SAMPLES.aggregateState].map((sample) => call("groupUniqArray", [column(sample.column)])),
      ];
      for (const array of arrays.slice(1)) expect(passTypingOf(array)?.alternatives?.length, sqlOf(array)).toBeGreaterThan(2);
      // Scalars per row (aggregates, as the arrays are) and constants, texts written as an array too.
      const scalars = [
        ...(["string", "uint8", "int64", "float64", "datetime", "uuid", "bool"] as const).map((cls) => call("any", [column(CLASS_SAMPLES[cls].column)])),
        call("count", []),
        literal(3),
        literal("x"),
        literal("[1]"),
        call("now", []),
      ];
      const states = [call("any", [column(CLASS_SAMPLES.aggregateState.column)])];
      // A state beside such an array is refused by comparisons whatever the array's elements.
      for (const name of ["equals", "less", "greaterOrEquals"])
        for (const array of arrays)
          for (const expression of [call(name, [array, states[0]!]), call(name, [states[0]!, array])]) {
            expect(passRefusal(expression, CLASS_COLUMNS_ENTITY), sqlOf(expression)).not.toBeNull();
            expect(TYPE_OR_COUNT_ERRORS.has((await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`)) ?? 0), sqlOf(expression)).toBe(true);
          }
      const expressions = ["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"].flatMap((name) => arrays.flatMap((array) => scalars.flatMap((scalar) => [call(name, [array, scalar]), call(name, [scalar, array])])));
      // A text that does not read as an array is a conversion error (codes 53, 130), a refusal too,
      // but one of the text's value ('[1]' is no array of arrays), which the pass leaves to the engine.
      // So is an array of NULLs beside a text written as an array (`array(NULL) = '[1]'`, code 48):
      // the pass leaves it to the engine (a known gap).
      const { refused, disagreements } = await passAndEngine(expressions, {
        byRule: (message) => message.includes("compares an array only with an array"),
        engineRefuses: (code) => TYPE_OR_COUNT_ERRORS.has(code) || code === 53 || code === 130,
        mustRefuse: (code) => TYPE_OR_COUNT_ERRORS.has(code) && code !== 48,
      });
      expect(refused).toBeGreaterThanOrEqual(150);
      expect(disagreements).toEqual([]);
    }, 300_000);

    probeIt("tuples of two sizes compared (tuple(a) >= tuple(b, c)), or given to greatest or least (beside a NULL or a third too), are refused by the engine wherever the pass refuses them", async () => {
      const elements = (["string", "uint8", "datetime", "int64"] as const).map((cls) => column(CLASS_SAMPLES[cls].column));
      const tuples = [1, 2, 3].flatMap((size) => elements.map((_, k) => call("tuple", Array.from({ length: size }, (_, i) => elements[(k + i) % elements.length]!))));
      const expressions = ["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"].flatMap((name) => tuples.flatMap((a) => tuples.map((b) => call(name, [a, b]))));
      const common = ["greatest", "least"].flatMap((name) => tuples.flatMap((a) => tuples.flatMap((b) => [call(name, [a, b]), call(name, [a, literal(null), b]), call(name, [a, a, b])])));
      await expectEngineRefusesWhatPassRefuses([...expressions, ...common], 1000, (message) => message.includes("compares tuples only of one size"));
    }, 300_000);

    probeIt("a tuple looked for IN a list of another shape (tuple(a, b) IN tuple(c), among tuples of another size or beside values) is refused by the engine exactly where the pass refuses it", async () => {
      const elements = (["string", "uint8", "datetime", "int64"] as const).map((cls) => column(CLASS_SAMPLES[cls].column));
      const tupleOf = (size: number, from: number) => call("tuple", Array.from({ length: size }, (_, i) => elements[(from + i) % elements.length]!));
      const values = [elements[1]!, literal(7), literal("x")];
      const lists = [
        ...[1, 2, 3].flatMap((n) => [0, 1].map((from) => call("tuple", Array.from({ length: n }, (_, i) => values[(from + i) % values.length]!)))),
        ...[[1], [2], [3], [2, 2], [2, 1], [2, 3]].map((sizes) => call("tuple", sizes.map((size, k) => tupleOf(size, k)))),
        call("tuple", [tupleOf(2, 0), literal(5)]),
      ];
      const expressions = ["in", "notIn"].flatMap((name) => [1, 2, 3].flatMap((size) => lists.map((list) => call(name, [tupleOf(size, 0), list]))));
      const refusedHere = expressions.filter((expression) => (passRefusal(expression, CLASS_COLUMNS_ENTITY) ?? "").includes("looks for a tuple only among tuples of its size"));
      expect(refusedHere.length).toBeGreaterThanOrEqual(30);
      const disagreements: string[] = [];
      for (const expression of expressions) {
        const refusal = passRefusal(expression, CLASS_COLUMNS_ENTITY);
        const code = await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`);
        // Where the pass refuses for the list's shape, the engine refuses the call (124, or 53 for a
        // tuple of one); where it takes it, the engine never refuses it for the shape (124; a value
        // it cannot convert, 'x' to a UInt8, is code 53 and judged elsewhere).
        const shapeRefusedHere = (refusal ?? "").includes("looks for a tuple only among tuples of its size");
        if (shapeRefusedHere ? code === null : code === 124) {
          disagreements.push(`${sqlOf(expression)}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 80)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
        }
      }
      expect(disagreements).toEqual([]);
    }, 300_000);

    probeIt("an array, a tuple or an aggregate state looked for IN values read per row (a column, a Nested sub-column, a list holding a column) is refused by the pass exactly where the engine refuses it", async () => {
      // The engine reads such values as the left's type made Nullable, which no array, tuple or
      // state can be (codes 43, 44). A table of its own: the probe table has no Nested column.
      const table = "probe_in_per_row";
      const columns = [
        { name: "k", type: "Nested(key String, value UInt64)" },
        { name: "n", type: "Array(UInt64)" },
        { name: "x", type: "UInt64" },
        { name: "str", type: "String" },
        { name: "s", type: "AggregateFunction(sum, Float64)" },
      ];
      await store.client.command({ query: `CREATE TABLE IF NOT EXISTS ${table} (${columns.map((c) => `${c.name} ${c.type}`).join(", ")}) ENGINE = Memory` });
      await store.client.command({ query: `INSERT INTO ${table} SELECT ['a'], [1], [2], 3, 'b', sumState(1.5)` });
      const entity = columnsEntity("per_row", columns);
      const lefts = [column("k.key"), column("k.value"), column("n"), call("array", [column("x")]), call("tuple", [column("x")]), call("tuple", [column("x"), literal(1)]), column("s"), column("x"), column("str")];
      const rights = [column("k.key"), column("k.value"), column("n"), column("x"), column("str"), call("tuple", [column("x")]), call("tuple", [column("x"), literal(2)]), call("tuple", [call("length", [column("str")]), literal(2)]), call("tuple", [literal(1), literal(2)])];
      const expressions = ["in", "notIn"].flatMap((name) => lefts.flatMap((left) => rights.map((right) => call(name, [left, right]))));
      // An array column there is compared by its elements: a tuple or a state finds no common type with them (386).
      const { refused, disagreements } = await passAndEngine(expressions, {
        byRule: (message) => message.includes("only in a list of constant values"),
        engineRefuses: (code) => TYPE_OR_COUNT_ERRORS.has(code) || code === 44,
        entity,
        from: table,
      });
      expect(refused).toBeGreaterThanOrEqual(60);
      expect(disagreements).toEqual([]);
    }, 300_000);

    probeIt("a tuple whose first element is an array or a tuple, looked for IN a NULL or in one tuple holding a NULL, is refused by the pass exactly where the engine refuses it", async () => {
      // A column the entity maps to a NULL (discover's `sample_weight`), written as NULL in the engine's SQL.
      const entity = columnsEntity("probe_null", [...CLASS_COLUMNS_ENTITY.columns, { name: "n_null", type: "Nullable(Float64)" }], { columnMappers: { ...CLASS_COLUMNS_ENTITY.columnMappers, n_null: { kind: "literal", value: null } } });
      const col = (cls: (typeof ARGUMENT_CLASSES)[number]) => column(CLASS_SAMPLES[cls].column);
      const tupleColumn = column(MAP_TUPLE_COLUMNS.find((sample) => sample.type.startsWith("Tuple("))!.column);
      const mapColumn = column(MAP_TUPLE_COLUMNS.find((sample) => sample.type.startsWith("Map("))!.column);
      const lefts = [
        call("tuple", [col("arrayString")]),
        call("tuple", [col("arrayNumber"), col("int64")]),
        call("tuple", [call("array", [col("int64")]), col("int64")]),
        call("tuple", [col("int64"), call("array", [col("int64")])]),
        call("tuple", [tupleColumn, col("string")]),
        call("tuple", [call("tuple", [col("int64")]), col("uint8")]),
        call("tuple", [mapColumn, col("int64")]),
        call("tuple", [col("int64"), col("string")]),
        call("tuple", [col("aggregateState"), col("uint8")]),
      ];
      const NULL = literal(null);
      const rights = [NULL, column("n_null"), call("tuple", [NULL, literal(1)]), call("tuple", [literal(1), NULL]), call("tuple", [NULL, NULL]), call("tuple", [call("tuple", [NULL, literal(1)]), NULL])];
      const expressions = ["in", "notIn"].flatMap((name) => lefts.flatMap((left) => rights.map((right) => call(name, [left, right]))));
      const { refused, disagreements } = await passAndEngine(expressions, { byRule: (message) => message.includes("makes no set of such a tuple"), engineRefuses: (code) => code === 43, entity, sql: (sql) => sql.replaceAll("n_null", "NULL") });
      expect(refused).toBeGreaterThanOrEqual(25);
      expect(disagreements).toEqual([]);
    }, 300_000);

    probeIt("a value looked for IN an if's Variant (`n IN if(c, 'a', 5)`) is refused by the pass exactly where the engine refuses it with a type error, on rows holding each alternative", async () => {
      // The engine compares the value with the alternative each row holds, as `=` compares them:
      // it fails on a row holding one `=` refuses. Two rows, one taking each branch (`pick`).
      const families = (["string", "uint8", "datetime", "uuid"] as const).map((cls) => CLASS_SAMPLES[cls]);
      const lefts = [...CLASS_COLUMNS.filter((sample) => !sample.type.startsWith("Array(") && !sample.type.startsWith("AggregateFunction(")), ...DATE_COLUMNS];
      const entity = columnsEntity("probe", [...lefts, { column: "pick", type: "UInt8" }].map((sample) => ({ name: sample.column, type: sample.type })));
      const from = `(SELECT *, 1 AS pick FROM ${PROBE_ROW_TABLE} UNION ALL SELECT *, 0 AS pick FROM ${PROBE_ROW_TABLE})`;
      const disagreements: string[] = [];
      let refused = 0;
      for (const left of lefts)
        for (const [k, a] of families.entries())
          for (const b of families.slice(k + 1))
            for (const name of ["in", "notIn"]) {
              const expression = call(name, [column(left.column), call("if", [column("pick"), column(a.column), column(b.column)])]);
              const passRefuses = passRefusal(expression, entity) !== null;
              if (passRefuses) refused++;
              const code = await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${from}`);
              // A value error (a text read as a date, code 41) may come first on a row: any failure
              // counts where the pass refuses; where it takes the call, only a type error is its miss.
              const engineRefuses = passRefuses ? code !== null : code !== null && (TYPE_OR_COUNT_ERRORS.has(code) || code === 53);
              if (passRefuses !== engineRefuses) disagreements.push(`${sqlOf(expression)}: the pass ${passRefuses ? "refuses" : "takes"} it, the engine ${code === null ? "answers" : `fails (${code})`}`);
            }
      expect(refused).toBeGreaterThanOrEqual(100);
      expect(disagreements).toEqual([]);
    }, 120_000);

    probeIt("a value looked for IN a Nullable column the storage computes (discover's `user`, nullIf(user, '')) is refused by the pass exactly where the engine refuses it with a type error on a row holding a value", async () => {
      // The engine compares the value with the column's value on each row, as `=` compares them.
      const scalars = CLASS_COLUMNS.filter((sample) => !sample.type.startsWith("Array(") && !sample.type.startsWith("AggregateFunction("));
      const computed = scalars.filter((sample) => !sample.type.startsWith("Nullable(")).flatMap((sample) => {
        const nullable = nullableClassOfTypeName(`Nullable(${sample.type})`) !== null;
        return nullable ? [{ name: `k_${sample.column}`, type: `Nullable(${sample.type})`, sql: `toNullable(${sample.column})` }] : [];
      });
      const entity = columnsEntity("probe", [...scalars.map((sample) => ({ name: sample.column, type: sample.type })), ...computed.map(({ name, type }) => ({ name, type }))], {
        columnMappers: Object.fromEntries(computed.map(({ name, sql }) => [name, { kind: "expression" as const, sql }])),
      });
      const disagreements: string[] = [];
      let refused = 0;
      for (const left of scalars)
        for (const right of computed)
          for (const name of ["in", "notIn"]) {
            const passRefuses = passRefusal(call(name, [column(left.column), column(right.name)]), entity) !== null;
            if (passRefuses) refused++;
            const sql = `${name}(${left.column}, ${right.sql})`;
            const code = await codeOf(`SELECT ${sql} AS r FROM ${PROBE_ROW_TABLE}`);
            const engineRefuses = passRefuses ? code !== null : code !== null && (TYPE_OR_COUNT_ERRORS.has(code) || code === 53);
            if (passRefuses !== engineRefuses) disagreements.push(`${sql}: the pass ${passRefuses ? "refuses" : "takes"} it, the engine ${code === null ? "answers" : `fails (${code})`}`);
          }
      expect(refused).toBeGreaterThanOrEqual(20);
      expect(disagreements).toEqual([]);
    }, 120_000);

    probeIt("a scalar looked for IN a list holding an array or an aggregate state (read per row or not) is refused by the pass exactly where the engine refuses it", async () => {
      // The engine converts each listed value to the left's type: no array converts to a scalar,
      // except to a String where the list is read per row (code 43 otherwise).
      const lefts = CLASS_COLUMNS.filter((sample) => !sample.type.startsWith("Array(") && !sample.type.startsWith("AggregateFunction("));
      const arrays = [column(CLASS_SAMPLES.arrayString.column), column(CLASS_SAMPLES.arrayNumber.column), call("array", [{ kind: "literal", value: 1 }]), column(CLASS_SAMPLES.aggregateState.column)];
      const disagreements: string[] = [];
      let refused = 0;
      for (const left of lefts)
        for (const array of arrays)
          for (const list of [[array], [array, column(left.column)], [array, { kind: "literal", value: 1 } as Expression]])
            for (const name of ["in", "notIn"]) {
              const expression = call(name, [column(left.column), call("tuple", list)]);
              const passRefuses = passRefusal(expression, CLASS_COLUMNS_ENTITY) !== null;
              if (passRefuses) refused++;
              const code = await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`);
              const engineRefuses = passRefuses ? code !== null : code !== null && TYPE_OR_COUNT_ERRORS.has(code);
              if (passRefuses !== engineRefuses) disagreements.push(`${sqlOf(expression)}: the pass ${passRefuses ? "refuses" : "takes"} it, the engine ${code === null ? "answers" : `fails (${code})`}`);
            }
      expect(refused).toBeGreaterThanOrEqual(100);
      expect(disagreements).toEqual([]);
    }, 120_000);

    probeIt("a number, a Boolean or the clock's call looked for IN a set (alone, or listed beside a column) is refused by the pass exactly where the engine refuses it", async () => {
      // The engine computes now(), today() and yesterday() once per query, and converts them to the
      // left's type as it converts a set of constants: a UUID or a Map takes none (code 53). A list
      // with a column in it is read per row: a UUID, an IP or a Map refuses what it cannot convert
      // (codes 48, 43), a DateTime compares as `=` does.
      const mapColumns = ["mapStrings", "mapFloats", "mapInts", "mapBools"].map((variant) => variantSamples(variant)[0]!);
      const lefts = [...CLASS_COLUMNS.filter((sample) => !sample.type.startsWith("Array(") && !sample.type.startsWith("AggregateFunction(")), ...DATE_COLUMNS, ...IP_COLUMNS, ...mapColumns];
      const entity = columnsEntity("probe", lefts.map((sample) => ({ name: sample.column, type: sample.type })));
      const disagreements: string[] = [];
      let refused = 0;
      const literal = (value: number | boolean): Expression => ({ kind: "literal", value });
      const values = [...["now", "today", "yesterday"].map((clock) => call(clock, [])), ...[1, 1.5, -1, 70000, true].map(literal)];
      for (const left of lefts)
        for (const value of values)
          for (const listed of [false, true])
            for (const name of ["in", "notIn"]) {
              const expression = call(name, [column(left.column), listed ? call("tuple", [value, column(left.column)]) : value]);
              const passRefuses = passRefusal(expression, entity) !== null;
              if (passRefuses) refused++;
              const code = await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`);
              if (passRefuses !== (code !== null)) disagreements.push(`${sqlOf(expression)}: the pass ${passRefuses ? "refuses" : "takes"} it, the engine ${code === null ? "answers" : `fails (${code})`}`);
            }
      expect(refused).toBeGreaterThanOrEqual(150);
      expect(disagreements).toEqual([]);
    }, 120_000);

    /** AND, OR and IN of operands the pass has no type for: `s IN now()` (now() may or may not be a constant), an if's Variant. */
    const untypedConditions = (): Expression[] => {
      // comparisons of values of no class (an IP, a Date, a tuple, an if's Variant)
      const comparisons = [
        call("less", [column(IP_COLUMNS[0]!.column), column(CLASS_SAMPLES.uint8.column)]),
        call("equals", [column(DATE_COLUMNS[0]!.column), column(CLASS_SAMPLES.datetime.column)]),
        call("greaterOrEquals", [call("tuple", [column(CLASS_SAMPLES.uint8.column)]), call("tuple", [column(CLASS_SAMPLES.int64.column)])]),
        call("notEquals", [call("if", [column(CLASS_SAMPLES.uint8.column), column(CLASS_SAMPLES.string.column), column(CLASS_SAMPLES.uint8.column)]), { kind: "literal", value: "a" }]),
      ];
      const unknowns = [
        call("in", [column(CLASS_SAMPLES.string.column), call("now", [])]),
        call("in", [column(nullableSample("string")!.column), call("now", [])]),
        call("if", [column(CLASS_SAMPLES.uint8.column), column(CLASS_SAMPLES.string.column), column(CLASS_SAMPLES.uint8.column)]),
        ...comparisons,
      ];
      const others = [column(CLASS_SAMPLES.uint8.column), column(nullableSample("uint8")!.column), column(CLASS_SAMPLES.bool.column), { kind: "literal", value: 1 } as Expression];
      return unknowns.flatMap((unknown) => [
        call("and", [unknown, others[0]!]),
        ...others.map((other) => call("or", [other, unknown])),
        call("and", [unknown, unknowns[0]!]),
        call("notIn", [unknown, call("tuple", [{ kind: "literal", value: 1 }])]),
      ]).concat(comparisons);
    };

    probeIt("AND, OR, IN and comparisons of operands of no known type are a UInt8 or a Bool in the engine, Nullable or not, one of those the pass says", async () => {
      const wrong: string[] = [];
      let typed = 0;
      for (const expression of untypedConditions()) {
        const known = passTypingOf(expression);
        if (known === null || known.alternatives === null) continue;
        typed += 1;
        const said = known.alternatives.map((alternative) => `${alternative.nullable ? "Nullable(" : ""}${alternative.cls === "bool" ? "Bool" : alternative.cls === "uint8" ? "UInt8" : alternative.cls}${alternative.nullable ? ")" : ""}`);
        const type = await engineTypeOf(expression);
        if (type !== "refused" && !said.includes(type)) wrong.push(`${sqlOf(expression)}: ${type}, the pass one of ${said.join(", ")}`);
      }
      expect(typed).toBeGreaterThan(12);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("a function of one result class whatever it is given (isNull, count, uniq) keeps it given a condition of no known type or an if's Variant, as the engine types it", async () => {
      const values = [...untypedConditions(), call("if", [column(CLASS_SAMPLES.uint8.column), column(CLASS_SAMPLES.string.column), column(CLASS_SAMPLES.uint8.column)])];
      const wrong: string[] = [];
      let compared = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (!keepsPlainResult(signature, 1)) continue;
        for (const value of values) if (await comparedClass(call(name, [value]), wrong)) compared += 1;
      }
      expect(compared).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("a call given a value of one of several types (such a condition, numbers of several classes) has a type the pass gives, where it gives one: one of the results for each", async () => {
      const conditions = untypedConditions();
      const values = [...conditions.slice(0, 8), ...conditions.slice(-4), call("greatest", [column(CLASS_SAMPLES.bool.column), column(CLASS_SAMPLES.uint8.column)])];
      const wrong: string[] = [];
      let typedCalls = 0;
      // Each probed function of one or two arguments, the value at each position in turn.
      for (const expression of callsWith(values, 2)) {
        const pass = passTypingOf(expression);
        if (pass === null || (pass.cls === null && pass.variant === null && pass.alternatives === null)) continue;
        const engine = await engineTypeOf(expression);
        if (engine === "refused") continue;
        typedCalls += 1;
        const engineClass = classOfTypeName(engine) ?? nullableClassOfTypeName(engine);
        const engineNullable = engineClass !== null && classOfTypeName(engine) === null;
        const engineVariant = engineClass === null ? variantOfTypeName(engine) : null;
        const claims = pass.cls !== null || pass.variant !== null ? [{ cls: pass.cls, nullable: pass.nullable, variant: pass.variant }] : pass.alternatives!;
        const holds = (claim: (typeof claims)[number]) => (claim.cls !== null ? claim.cls === engineClass && claim.nullable === engineNullable : claim.variant !== null && claim.variant === engineVariant);
        if (!claims.some(holds)) wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass ${claims.map((claim) => `${claim.cls ?? claim.variant}${claim.nullable ? " (Nullable)" : ""}`).join(" or ")}`);
      }
      expect(typedCalls).toBeGreaterThan(300);
      expect(wrong).toEqual([]);
    }, 600_000);

    probeIt("a call given an if's Variant has the type the pass gives it, where it gives one: the one result of the Variant's types the call takes, Nullable where it can be, or a Variant of several", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const literal = (value: number | null): Expression => ({ kind: "literal", value });
      const variants = [
        call("if", [c("uint8"), c("int64"), c("string")]),
        call("if", [c("uint8"), c("datetime"), c("uint8")]),
        call("if", [c("uint8"), c("arrayNumber"), c("string")]),
        call("if", [c("uint8"), c("float64"), c("uuid")]),
        call("if", [literal(2), c("int64"), c("string")]),
        call("if", [literal(0), c("string"), c("float64")]),
      ];
      for (const variant of variants) expect(passTypingOf(variant)?.variant, sqlOf(variant)).toBe("mixed");
      const wrong: string[] = [];
      let typedCalls = 0;
      let variantCalls = 0;
      for (const expression of callsWith(variants, 2)) {
        const pass = passTypingOf(expression);
        // Results of several classes: a Variant of them, as the engine's.
        if (pass?.variant === "mixed") {
          if (await comparedVariant(expression, wrong)) variantCalls += 1;
          continue;
        }
        if (pass?.cls == null) continue;
        if (await comparedClass(expression, wrong)) typedCalls += 1;
      }
      expect(typedCalls).toBeGreaterThan(200);
      expect(variantCalls).toBeGreaterThan(20);
      // greatest and least of one of scalars beside NULLs alone: the Variant itself (of an array,
      // refused: a NULL has no common type with an array).
      for (const name of ["greatest", "least"])
        for (const variant of [variants[0]!, variants[1]!, variants[3]!])
          for (const nulls of [[literal(null)], [literal(null), literal(null)]]) {
            const expression = call(name, [variant, ...nulls]);
            expect(passTypingOf(expression)?.variant, sqlOf(expression)).toBe("mixed");
            expect(await comparedVariant(expression, wrong), sqlOf(expression)).toBe(true);
          }
      expect(wrong).toEqual([]);
    }, 600_000);

    probeIt("a call given such a condition is refused by the engine where the pass refuses it (it takes none of the condition's types)", async () => {
      await expectEngineRefusesWhatPassRefuses(callsWith(untypedConditions().slice(0, 8), 2), 300, (message) => message.includes("which one depends on its arguments' exact types"));
      // and comparisons of values of no class (`uuid = (ip < n)`)
      const comparisons = untypedConditions().filter((expression) => expression.kind === "function" && ["less", "equals", "greaterOrEquals", "notEquals"].includes(expression.name));
      expect(comparisons.length).toBe(4);
      await expectEngineRefusesWhatPassRefuses(callsWith(comparisons, 2), 150, (message) => message.includes("which one depends on its arguments' exact types"));
    }, 300_000);

    probeIt("a call given an if whose conditions pick a branch of values beside a NULL branch (if(10, 'a', NULL)) is refused by the engine where the pass refuses it", async () => {
      const NULL: Expression = { kind: "literal", value: null };
      const ifs = (["string", "uint8", "datetime"] as const).flatMap((cls) => {
        const value = column(CLASS_SAMPLES[cls].column);
        return [call("if", [{ kind: "literal", value: 10 }, value, NULL]), call("if", [NULL, NULL, value]), call("if", [{ kind: "literal", value: false }, NULL, value]), call("multiIf", [NULL, NULL, { kind: "literal", value: 1 }, value, NULL])];
      });
      for (const expression of ifs) expect(passTypingOf(expression)?.nullable, sqlOf(expression)).toBe(true);
      await expectEngineRefusesWhatPassRefuses(callsWith(ifs, 2), 300);
    }, 300_000);

    probeIt("a call given an if whose constant condition picks its NULL branch (if(1, NULL, x)) is refused by the engine where the pass refuses it (its class's refusals at analysis, none made on a row's value)", async () => {
      // The if is the Nullable of x's class, and no row holds a value: the engine judges its type
      // (`count() / if(1, NULL, s)`, code 43) but converts nothing (`s = if(1, NULL, n)` is taken).
      const NULL: Expression = { kind: "literal", value: null };
      const ifs = (["string", "uint8", "datetime", "int64", "float64", "uuid", "bool", "uint32"] as const).flatMap((cls) => {
        const value = column(CLASS_SAMPLES[cls].column);
        // A condition the entity maps to a literal picks as the literal does (`if(group_id, 'x', NULL)` on discover).
        // A NULL computed from a column is picked too, where the analyzer folds nothing (`if(FALSE,
        // dist, level LIKE NULL) NOT IN group_ids`, code 386 with no row read; seed 18).
        const computedNull = call("plus", [column(CLASS_SAMPLES.uint8.column), NULL]);
        return [[call("if", [{ kind: "literal", value: 1 }, NULL, value]), call("multiIf", [{ kind: "literal", value: 100 }, NULL, value]), call("if", [column("l_one"), NULL, value]), call("if", [column("l_zero"), value, NULL]), call("if", [{ kind: "literal", value: 0 }, value, computedNull])]];
      });
      for (const expression of ifs.flat()) expect(passTypingOf(expression)?.nullable, sqlOf(expression)).toBe(true);
      const partners = [null, ...(["string", "uint8", "datetime", "int64", "float64", "uuid", "bool", "uint32", "arrayString", "arrayNumber", "aggregateState"] as const).map((cls) => CLASS_SAMPLES[cls].column)];
      // The five forms of one class's if are one type to the pass; they take turns per call.
      await expectEngineRefusesWhatPassRefuses(callsWith(ifs, 2, partners), 300, () => true, { from: PROBE_ROW_TABLE, sql: literalColumnsAsValues });
    }, 600_000);

    probeIt("an if or a multiIf of numbers of several classes is their common type where the pass knows their exact types, else one of the number classes (Nullable where a branch may be NULL), as the engine types it", async () => {
      const numbers: Expression[] = [
        ...NUMBER_CLASSES_OF_TEST.flatMap((cls) => [column(CLASS_SAMPLES[cls].column), column(nullableSample(cls)!.column)]),
        { kind: "literal", value: 1000 },
        { kind: "literal", value: 2.5 },
      ];
      const condition = column(CLASS_SAMPLES.uint8.column);
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const a of numbers)
        for (const b of numbers)
          for (const expression of [call("if", [condition, a, b]), call("multiIf", [condition, a, condition, b, { kind: "literal", value: null }])]) {
            const known = passTypingOf(expression);
            if (known === null || known.variant !== null || (known.alternatives === null && known.cls === null)) continue;
            const type = await engineTypeOf(expression);
            if (type === "refused") continue;
            typedCalls += 1;
            const nullable = classOfTypeName(type) === null;
            const cls = classOfTypeName(type) ?? nullableClassOfTypeName(type);
            const alternatives = known.alternatives ?? [known];
            if (!alternatives.some((alternative) => alternative.cls === cls && alternative.nullable === nullable)) wrong.push(`${sqlOf(expression)}: ${type}, not ${known.alternatives === null ? "the pass's" : "one of the pass's"}`);
          }
      expect(typedCalls).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("a call given an if's Variant whose conditions pick one branch for every row (NULL, 0, TRUE) is refused by the engine where the pass refuses it for that branch", async () => {
      const branches = (["string", "uint8", "datetime", "arrayString"] as const).map((cls) => column(CLASS_SAMPLES[cls].column));
      const conditions: Expression[] = [{ kind: "literal", value: null }, { kind: "literal", value: 0 }, { kind: "literal", value: true }];
      const ifs = branches.flatMap((a) => branches.filter((b) => b !== a).flatMap((b) => conditions.map((condition) => call("if", [condition, a, b]))));
      const multiIfs = branches.flatMap((a) => branches.filter((b) => b !== a).map((b) => call("multiIf", [{ kind: "literal", value: null }, a, { kind: "literal", value: 0 }, a, b])));
      // The engine fails each on the probe's row, with a type error or, where it converts the
      // Variant to what the call takes (arrayJoin of a string), with a conversion error (code 53).
      await expectEngineRefusesWhatPassRefuses(callsWith([...ifs, ...multiIfs], 2), 300, (message) => message.includes("pick the branch"), { from: PROBE_ROW_TABLE, sql: (sql) => sql, anyFailure: true });
    }, 300_000);

    probeIt("a call given an if of a tuple and a value of another family (a Variant(Tuple(...), ...)) is refused by the engine where the pass refuses it, per row or where the conditions pick the tuple", async () => {
      // A tuple call (a tuple column, an alias of one, is of the same variant), per row and picked by a constant condition.
      const tuple = call("tuple", [column(CLASS_SAMPLES.int64.column)]);
      const condition = CLASS_SAMPLES.uint8.column;
      const conditions: Expression[] = [column(condition), literal(1)];
      const ifs = familyColumns().flatMap((other) => conditions.flatMap((c) => [call("if", [c, tuple, other]), call("if", [c, other, tuple])]));
      for (const expression of ifs.slice(0, 4)) expect(passTypingOf(expression)?.variant, sqlOf(expression)).toBe("mixed");
      const nulls = NULLABLE_CLASSES.map((cls) => `NULL AS ${nullableSample(cls)!.column}`).join(", ");
      const bothAlternatives = {
        from: `(SELECT *, 1 AS pick FROM ${PROBE_ROW_TABLE} UNION ALL SELECT * REPLACE (${nulls}), 0 AS pick FROM ${PROBE_ROW_TABLE})`,
        sql: (sql: string) => sql.replaceAll(`if(${condition}, `, "if(pick, "),
        anyFailure: true,
      };
      await expectEngineRefusesWhatPassRefuses(callsWith(ifs, 2), 300, (message) => message.includes("Variant of a tuple") || message.includes("or a tuple (its branches"), bothAlternatives);
    }, 300_000);

    probeIt("a call given an if of an array variant or a UInt128 and a value of another family (a Variant) is refused by the engine where the pass refuses it", async () => {
      const variants = [...["nullableStrings", "float64s", "uuids", "datetimes"].map((variant) => variantSamples(variant)[0]!), UINT128_COLUMN].map((sample) => column(sample.column));
      const others = (["string", "uint8", "datetime", "arrayString"] as const).map((cls) => column(CLASS_SAMPLES[cls].column));
      const condition = CLASS_SAMPLES.uint8.column;
      const ifs = variants.flatMap((variant) => others.map((other) => call("if", [column(condition), variant, other])));
      // picked for every row by a constant condition, too
      ifs.push(...variants.map((variant) => call("if", [literal(0), variant, others[0]!])));
      // An array variant beside an array of its elements' family, and a UInt128 beside a number, have a common type: no Variant.
      for (const [variant, other] of [[variants[1]!, column(CLASS_SAMPLES.arrayNumber.column)], [variants[4]!, others[1]!]] as const) expect(passTypingOf(call("if", [column(condition), variant, other]))?.variant, sqlOf(variant)).not.toBe("mixed");
      const nulls = NULLABLE_CLASSES.map((cls) => `NULL AS ${nullableSample(cls)!.column}`).join(", ");
      const bothAlternatives = {
        from: `(SELECT *, 1 AS pick FROM ${PROBE_ROW_TABLE} UNION ALL SELECT * REPLACE (${nulls}), 0 AS pick FROM ${PROBE_ROW_TABLE})`,
        sql: (sql: string) => sql.replaceAll(`if(${condition}, `, "if(pick, "),
        anyFailure: true,
      };
      await expectEngineRefusesWhatPassRefuses(callsWith(ifs, 2), 300, (message) => message.includes("is a Variant of"), bothAlternatives);
    }, 300_000);

    probeIt("greatest and least of numbers with a Boolean among them are their common type where the pass knows their exact types, else one of the number classes (Nullable where an argument is), and a call of one is refused by the engine where the pass refuses it", async () => {
      const numbers = NUMBER_CLASSES_OF_TEST.flatMap((cls) => [CLASS_SAMPLES[cls].column, nullableSample(cls)!.column]);
      const shapes = numbers.flatMap((x) => [[CLASS_SAMPLES.bool.column, x], [x, "true"], ["true", x, "1"], [x, CLASS_SAMPLES.bool.column, x], ["true", "1", x]]);
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const name of ["greatest", "least"])
        for (const shape of shapes) {
          const expression = call(name, shape.map((arg) => (arg === "true" ? { kind: "literal", value: true } : arg === "1" ? { kind: "literal", value: 1 } : column(arg))));
          const known = expressionTyping(expression, CLASS_COLUMNS_ENTITY);
          const type = await resultType(name, shape);
          if (type === "refused" || (known.alternatives === null && known.cls === null)) continue;
          typedCalls += 1;
          const nullable = classOfTypeName(type) === null;
          const cls = classOfTypeName(type) ?? nullableClassOfTypeName(type);
          if (!(known.alternatives ?? [known]).some((alternative) => alternative.cls === cls && alternative.nullable === nullable)) wrong.push(`${name}(${shape.join(", ")}): ${type}, not ${known.alternatives === null ? "the pass's" : "one of the pass's"}`);
        }
      expect(typedCalls).toBeGreaterThan(50);
      expect(wrong).toEqual([]);
      // Each of them in turn at each position of every probed function of one or two arguments (of
      // one of the number classes: a UInt8 beside a Bool, an integer of a type the pass does not know).
      const ofBool = [call("greatest", [column(CLASS_SAMPLES.bool.column), column(CLASS_SAMPLES.uint8.column)]), call("least", [{ kind: "literal", value: true }, call("abs", [column(nullableSample("int64")!.column)])])];
      await expectEngineRefusesWhatPassRefuses(callsWith(ofBool, 2, [null, CLASS_SAMPLES.uuid.column, CLASS_SAMPLES.string.column]), 300, (message) => message.includes("which one depends"));
    }, 300_000);

    probeIt("an if or multiIf beside a NULL branch, the common-type functions beside NULLs and a NULL looked for IN values have the pass's type and are Nothing only where the pass says they may be", async () => {
      const NULL: Expression = { kind: "literal", value: null };
      const condition = column(CLASS_SAMPLES.uint8.column);
      function* expressions(): Generator<Expression> {
        for (const sample of CLASS_COLUMNS) {
          const x = column(sample.column);
          yield call("if", [condition, NULL, x]);
          yield call("if", [condition, x, NULL]);
          yield call("if", [condition, NULL, NULL]);
          yield call("multiIf", [condition, x, condition, NULL, x]);
          yield call("multiIf", [condition, x, condition, x, x]);
          yield call("multiIf", [condition, NULL, condition, NULL, NULL]);
          for (const name of ["greatest", "least", "coalesce", "ifNull"]) yield call(name, [NULL, x]);
          yield call("greatest", [NULL, NULL, x]);
          // A comparison of a NULL is one too (`location = 'x'` where the storage computes location as NULL).
          const comparedNull = call("equals", [NULL, x]);
          for (const name of ["and", "or"]) {
            yield call(name, [NULL, x]);
            yield call(name, [x, comparedNull]);
            yield call(name, [NULL, x, condition]);
            yield call(name, [NULL, NULL]);
          }
          yield call("greatest", [comparedNull, x]);
          yield call("if", [condition, comparedNull, x]);
          yield call("array", [comparedNull, x]);
          // A NULL looked for in values read per row is no NULL (`NULL IN exception_stacks.value`);
          // in a constant set it is.
          for (const name of ["in", "notIn"]) {
            yield call(name, [NULL, x]);
            yield call(name, [NULL, call("array", [x])]);
            yield call(name, [NULL, call("tuple", [x, x])]);
            yield call(name, [NULL, call("toString", [x])]);
          }
        }
        for (const name of ["in", "notIn"]) yield call(name, [NULL, call("tuple", [{ kind: "literal", value: 1 }, { kind: "literal", value: 2 }])]);
        // A Bool beside a NULL makes a Nullable(Bool) only where it is not Nullable itself.
        const nullableBool = column(nullableSample("bool")!.column);
        const bool = column(CLASS_SAMPLES.bool.column);
        for (const name of ["and", "or"]) {
          yield call(name, [NULL, nullableBool]);
          yield call(name, [nullableBool, NULL, bool]);
          yield call(name, [nullableBool, NULL, column(CLASS_SAMPLES.float64.column)]);
          yield call(name, [{ kind: "literal", value: true }, NULL]);
        }
      }
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const expression of expressions()) {
        const known = passTypingOf(expression);
        if (known === null) continue;
        const sql = sqlOf(expression);
        const type = await engineTypeOf(expression);
        if (type === "refused") continue;
        typedCalls += 1;
        if (!known.mayBeNothing && type === "Nullable(Nothing)") wrong.push(`${sql}: ${type}, the pass says it is not Nothing`);
        if (known.cls === null) continue;
        const engineClass = classOfTypeName(type) ?? nullableClassOfTypeName(type);
        if (engineClass !== known.cls || (classOfTypeName(type) === null) !== known.nullable) wrong.push(`${sql}: ${type}, the pass ${known.cls}${known.nullable ? " (Nullable)" : ""}`);
      }
      expect(typedCalls).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("ifNull and coalesce have the type of the first argument that cannot be NULL, or a Variant where the arguments up to it are of two families or numbers with no common type, as the pass says", async () => {
      const NULL: Expression = { kind: "literal", value: null };
      const nullables = NULLABLE_CLASSES.map((cls) => column(nullableSample(cls)!.column));
      function* expressions(): Generator<Expression> {
        for (const a of CLASS_COLUMNS)
          for (const b of CLASS_COLUMNS) {
            yield call("ifNull", [column(a.column), column(b.column)]);
            yield call("coalesce", [NULL, column(a.column), column(b.column)]);
          }
        // Three arguments: the third counts only where the first two may be NULL.
        for (const a of nullables) for (const b of nullables) for (const c of CLASS_COLUMNS) yield call("coalesce", [a, b, column(c.column)]);
        for (const a of nullables) for (const b of CLASS_COLUMNS) yield call("coalesce", [a, column(b.column), column(CLASS_SAMPLES.string.column)]);
        // A value of one of several types (a condition of unknown Nullability) first: typed where each makes one type.
        for (const condition of conditions)
          for (const b of [...CLASS_COLUMNS.map((sample) => column(sample.column)), literal(2), literal(300), NULL]) {
            yield call("coalesce", [condition, b]);
            yield call("ifNull", [condition, b]);
            yield call("coalesce", [NULL, condition, b]);
          }
      }
      // Over columns the engine makes `in` Nullable whatever its arguments, as the pass does; of two
      // constants the pass leaves its Nullability open (one of two types).
      const conditions = [call("in", [call("now", []), call("now", [])]), call("notIn", [call("now", []), call("now", [])])];
      for (const condition of conditions) expect(passTypingOf(condition)?.alternatives?.length, sqlOf(condition)).toBe(2);
      expect(passTypingOf(call("coalesce", [conditions[0]!, literal(2)]))?.cls).toBe("uint8");
      /** The classes of a Variant's alternatives (null where one has none), else null. */
      const alternativesOf = (type: string): (ArgumentClass | null)[] | null => {
        const inner = /^Variant\((.*)\)$/.exec(type)?.[1];
        if (inner === undefined) return null;
        const parts: string[] = [];
        let depth = 0;
        let start = 0;
        for (let i = 0; i < inner.length; i++) {
          if (inner[i] === "(") depth++;
          else if (inner[i] === ")") depth--;
          else if (inner[i] === "," && depth === 0) {
            parts.push(inner.slice(start, i));
            start = i + 1;
          }
        }
        parts.push(inner.slice(start));
        return parts.map((part) => classOfTypeName(part));
      };
      const family = (cls: ArgumentClass | null): string => (cls === null ? "?" : ["uint8", "int64", "float64", "uint32", "bool"].includes(cls) ? "number" : cls);
      const wrong: string[] = [];
      let variants = 0;
      let typed = 0;
      for (const expression of expressions()) {
        const known = passTypingOf(expression);
        const sql = sqlOf(expression);
        const type = await engineTypeOf(expression);
        if (type === "refused") continue;
        const alternatives = alternativesOf(type);
        const families = alternatives === null ? [] : [...new Set(alternatives.map(family))];
        const mixed = families.length > 1 && !families.includes("?");
        // Numbers with no common type (an Int64 and a Float64) are a Variant of each number type.
        const numbers = alternatives !== null && alternatives.length > 1 && families.length === 1 && families[0] === "number";
        if (known === null) {
          wrong.push(`${sql}: ${type}, refused by the pass`);
          continue;
        }
        if (known.variant === "mixed") {
          variants += 1;
          const passClasses = (known.alternatives ?? []).map((alternative) => alternative.cls).filter((cls) => cls !== null);
          const expected = numbers ? alternatives!.length : families.length;
          if (!(mixed || numbers) || !passClasses.every((cls) => alternatives!.includes(cls)) || known.alternatives!.length !== expected) wrong.push(`${sql}: ${type}, the pass a Variant of ${passClasses.join(", ")}`);
          continue;
        }
        if (mixed || numbers) wrong.push(`${sql}: ${type}, the pass ${known.variant ?? known.cls ?? "no class"}`);
        if (known.cls !== null) {
          typed += 1;
          const engineClass = classOfTypeName(type) ?? nullableClassOfTypeName(type);
          if (engineClass !== known.cls || (classOfTypeName(type) === null) !== known.nullable) wrong.push(`${sql}: ${type}, the pass ${known.cls}${known.nullable ? " (Nullable)" : ""}`);
        } else if (known.variant !== null && variantOfTypeName(type) !== known.variant) wrong.push(`${sql}: ${type}, the pass ${known.variant}`);
      }
      expect(variants).toBeGreaterThan(100);
      expect(typed).toBeGreaterThan(300);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("a Date or a DateTime64 beside a value of another family makes a Variant (in if, coalesce and array) exactly where the pass says so", async () => {
      const condition = column(CLASS_SAMPLES.uint8.column);
      const wrong: string[] = [];
      let variants = 0;
      for (const date of DATE_COLUMNS)
        for (const other of [...CLASS_COLUMNS, ...DATE_COLUMNS]) {
          const pair = [column(date.column), column(other.column)];
          for (const expression of [call("if", [condition, ...pair]), call("if", [condition, pair[1]!, pair[0]!]), call("coalesce", pair), call("array", pair)]) {
            const known = passTypingOf(expression);
            const type = await engineTypeOf(expression);
            if (known === null || type === "refused") continue;
            const engineMixed = /^(Array\()?Variant\(/.test(type);
            const passMixed = known.variant === "mixed" || known.variant === "mixedArray";
            if (passMixed) variants += 1;
            if (engineMixed !== passMixed) wrong.push(`${sqlOf(expression)}: ${type}, the pass ${known.variant ?? known.cls ?? "no class"}`);
          }
        }
      expect(variants).toBeGreaterThan(50);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("a value looked for IN an IP or UUID column is refused by the engine (code 48, or 70 for a DateTime64, with a row or none) wherever the pass refuses it", async () => {
      const wrong: string[] = [];
      let refused = 0;
      for (const ip of [...IP_COLUMNS, CLASS_SAMPLES.uuid])
        for (const value of [...CLASS_COLUMNS.map((sample) => sample.column), ...DATE_COLUMNS.map((sample) => sample.column), ...IP_COLUMNS.map((sample) => sample.column), ...ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls].constant)])
          for (const name of ["in", "notIn"]) {
            const expression = call(name, [column(value), column(ip.column)]);
            try {
              checkExpressionArgumentTypes(expression, CLASS_COLUMNS_ENTITY);
              continue;
            } catch (error) {
              // (by the rule, or by the probe's pairs, which now try these too)
              if (!(error instanceof QueryServiceError) || !/cannot convert|does not take them together/.test(error.message)) continue;
            }
            refused += 1;
            const sql = `${name}(${value}, ${ip.column})`;
            for (const table of [PROBE_ROW_TABLE, "probe"]) {
              const code = await codeOf(`SELECT ${sql} AS r FROM ${table}`);
              if (code !== 48 && code !== 70) wrong.push(`${sql} FROM ${table}: ${code ?? "answered"}`);
            }
          }
      expect(refused).toBeGreaterThan(40);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("an IP or a UUID looked for IN a column of another type (the column read as the left's type) is refused exactly where the engine refuses it (code 48, with a row or none)", async () => {
      const lefts = [...IP_COLUMNS, CLASS_SAMPLES.uuid].map((sample) => sample.column);
      const rights = [...CLASS_COLUMNS, ...DATE_COLUMNS, ...IP_COLUMNS].map((sample) => sample.column);
      const expressions = lefts.flatMap((left) => rights.filter((right) => right !== left).flatMap((right) => ["in", "notIn"].map((name) => call(name, [column(left), column(right)]))));
      // The int64 class may be a UInt64, which an IPv4 column reads: the pass leaves an IPv4 looked
      // for in it (or among an array of them) alone; the probe's sample is an Int64, which it cannot read.
      const unknownSign = (expression: Expression) => sqlOf(expression).includes(IP_COLUMNS[0]!.column) && /\b[cn]_(int64|array_number)\b/.test(sqlOf(expression));
      for (const table of [PROBE_ROW_TABLE, "probe"]) {
        const { refused, disagreements } = await passAndEngine(expressions, {
          // (by the rule, or by the probe's pairs, which now try these too)
          byRule: (message) => message.includes("reads that column as") || message.includes("cannot convert") || message.includes("does not take them together"),
          engineRefuses: (code) => TYPE_OR_COUNT_ERRORS.has(code),
          mustRefuse: (code) => code === 48,
          from: table,
        });
        expect(disagreements.filter((line) => !(line.includes("the pass takes it") && expressions.some((e) => unknownSign(e) && line.startsWith(sqlOf(e) + ":"))))).toEqual([]);
        expect(refused).toBeGreaterThan(60);
      }
    }, 120_000);

    probeIt("a NULL computed per row by arithmetic looked for IN a column of aggregate states is refused exactly where the engine refuses it (code 43); other NULLs fold to a constant and are answered", async () => {
      const c = (cls: ArgumentClass): Expression => column(CLASS_SAMPLES[cls].column);
      const NULL = literal(null);
      const nulls = [
        call("multiply", [c("aggregateState"), NULL]),
        call("plus", [c("uint8"), NULL]),
        call("minus", [NULL, c("int64")]),
        call("divide", [c("float64"), NULL]),
        call("plus", [literal(1), NULL]),
        NULL,
        call("equals", [c("uint8"), NULL]),
        call("abs", [NULL]),
        call("upper", [NULL]),
      ];
      const expressions = nulls.flatMap((left) => ["in", "notIn"].map((name) => call(name, [left, c("aggregateState")])));
      const { refused, disagreements } = await passAndEngine(expressions, { byRule: (message) => message.includes("is a NULL computed per row"), engineRefuses: (code) => code === 43, mustRefuse: (code) => code === 43 });
      expect(disagreements).toEqual([]);
      expect(refused).toBe(8);
    }, 60_000);

    probeIt("a set of constants whose values cannot be converted to the left's type (a float beside a DateTime, a number beside a UUID) is refused exactly where the engine refuses it (code 53)", async () => {
      const literal = (value: number | boolean | string): Expression => ({ kind: "literal", value });
      const lefts = [...CLASS_COLUMNS.filter((sample) => /DateTime|UUID/.test(sample.type)), ...DATE_COLUMNS].map((sample) => column(sample.column));
      lefts.push(call("now", []));
      const sets: Expression[] = [
        ...[1.5, -1, 3, 70000, 2 ** 64, true, "a", "2024-01-01 00:00:00"].map(literal),
        call("tuple", [literal(1), literal(1.5)]),
        call("tuple", [literal(2), literal(-3)]),
        call("array", [literal(0.5)]),
        call("toFloat64", [literal(1)]),
      ];
      // (`event_id IN now()`: the clock's calls have their own test, with the literals written beside a column.)
      const wrong: string[] = [];
      let refused = 0;
      for (const left of lefts)
        for (const set of sets)
          for (const name of ["in", "notIn"]) {
            const expression = call(name, [left, set]);
            const passRefuses = passRefusal(expression, CLASS_COLUMNS_ENTITY)?.includes("among its values") === true;
            if (passRefuses) refused += 1;
            for (const table of [PROBE_ROW_TABLE, "probe"]) {
              const code = await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${table}`);
              // The pass leaves texts to the string rules: only numbers, Booleans and DateTimes are its.
              if (passRefuses !== (code === 53) && !(set.kind === "literal" && typeof set.value === "string")) wrong.push(`${sqlOf(expression)} FROM ${table}: engine ${code ?? "answered"}, the pass ${passRefuses ? "refuses" : "takes"}`);
            }
          }
      expect(refused).toBeGreaterThan(30);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("x IN a scalar computed per row is a UInt8, Nullable on neither side, as the engine types it; an array computed there is not typed so", async () => {
      const rights = [
        call("toString", [column(CLASS_SAMPLES.int64.column)]),
        call("upper", [column(nullableSample("string")!.column)]),
        call("toDate", [column(CLASS_SAMPLES.datetime.column)]),
        call("abs", [column(nullableSample("float64")!.column)]),
        call("toHour", [column(CLASS_SAMPLES.datetime.column)]),
        call("splitByChar", [{ kind: "literal", value: "," }, column(CLASS_SAMPLES.string.column)]),
      ];
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const left of CLASS_COLUMNS)
        for (const right of rights)
          for (const name of ["in", "notIn"]) {
            const expression = call(name, [column(left.column), right]);
            const known = passTypingOf(expression);
            if (known === null || known.cls === null) continue;
            const type = await engineTypeOf(expression);
            if (type === "refused") continue;
            typedCalls += 1;
            if (type !== (known.nullable ? "Nullable(UInt8)" : "UInt8") || known.cls !== "uint8") wrong.push(`${sqlOf(expression)}: ${type}, the pass ${known.cls}${known.nullable ? " (Nullable)" : ""}`);
          }
      // (A number, string, UUID or Boolean IN a Date computed per row is refused by the pass, as
      // `=` refuses it and the engine does on a row, codes 43 and 386: those are not typed here.)
      expect(typedCalls).toBeGreaterThan(50);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("each function of one argument the pass makes a Nothing of a NULL is one in the engine, given a NULL or a column the storage computes as one", async () => {
      const wrong: string[] = [];
      let functions = 0;
      for (const name of PROBED_FUNCTION_SIGNATURES.keys()) {
        if (!nothingOfNullArgument(name, 1)) continue;
        functions += 1;
        for (const shape of [["NULL"], ["CAST(NULL AS Nullable(Nothing))"]]) {
          const type = await resultType(name, shape);
          if (type !== "Nullable(Nothing)") wrong.push(`${name}(${shape.join(", ")}): ${type}`);
        }
      }
      expect(functions).toBeGreaterThan(80);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("each function the pass makes a Nothing of a NULL argument is one in the engine, whatever the other arguments, and of two and three arguments exactly those are", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      /** The types of the calls of `count` arguments with a NULL beside each class (the others all of it, or NULLs), at each position, that the engine takes. */
      async function typesBesideNull(name: string, count = 2): Promise<Map<string, string>> {
        const shapes =
          name === "not"
            ? [["NULL"]]
            : [null, ...ARGUMENT_CLASSES].flatMap((cls) => {
                const other = cls === null ? "NULL" : CLASS_SAMPLES[cls].column;
                return Array.from({ length: count }, (_, position) => Array.from({ length: count }, (_, i) => (i === position ? "NULL" : other)));
              });
        const types = new Map<string, string>();
        for (const shape of shapes) {
          const type = await resultType(name, shape);
          if (type !== "refused") types.set(`${name}(${shape.join(", ")})`, type);
        }
        return types;
      }
      for (const name of [...NOTHING_OF_NULL, ...NOTHING_OF_NULL_PAIR]) {
        for (const [text, type] of await typesBesideNull(name)) {
          typedCalls += 1;
          if (type !== "Nullable(Nothing)") wrong.push(`${text}: ${type}`);
        }
      }
      for (const name of NOTHING_OF_NULL_TRIPLE) {
        for (const [text, type] of await typesBesideNull(name, 3)) {
          typedCalls += 1;
          if (type !== "Nullable(Nothing)") wrong.push(`${text}: ${type}`);
        }
      }
      expect(typedCalls).toBeGreaterThan(1000);
      expect(wrong).toEqual([]);
      // No other function of two arguments (not an aggregate) is a Nothing in every call with a NULL the engine takes.
      const missing: string[] = [];
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (AGGREGATE_FUNCTIONS.has(name) || signature.lambda || signature.counts[2] !== "probed" || NOTHING_OF_NULL.has(name) || NOTHING_OF_NULL_PAIR.has(name)) continue;
        const types = [...(await typesBesideNull(name)).values()];
        if (types.length > 0 && types.every((type) => type === "Nullable(Nothing)")) missing.push(name);
      }
      // Nor of three (`substring(NULL, 1, 2)`).
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (AGGREGATE_FUNCTIONS.has(name) || signature.lambda || signature.counts[3] !== "probed" || NOTHING_OF_NULL.has(name) || NOTHING_OF_NULL_TRIPLE.has(name)) continue;
        const types = [...(await typesBesideNull(name, 3)).values()];
        if (types.length > 0 && types.every((type) => type === "Nullable(Nothing)")) missing.push(`${name} of 3`);
      }
      expect(missing).toEqual([]);
    }, 120_000);

    probeIt("a number divided by or multiplied with an array of numbers is an Array(Float64) wherever the pass says so, and an array of numbers none Nullable wherever it says one of them", async () => {
      const arrays = [CLASS_SAMPLES.arrayNumber, ...["float64s", "float32s", "nullableUInt8"].map((variant) => variantSamples(variant)[0]!)].map((sample) => ({ name: sample.column, type: sample.type }));
      const entity = columnsEntity("probe", [...CLASS_COLUMNS.map((sample) => ({ name: sample.column, type: sample.type })), ...arrays.slice(1)]);
      const numbers: Expression[] = [...CLASS_COLUMNS.map((sample) => column(sample.column)), ...[0.95, 2.5, 3, 300].map((value): Expression => ({ kind: "literal", value }))];
      const wrong: string[] = [];
      let typedCalls = 0;
      let oneOf = 0;
      let refusedCalls = 0;
      for (const name of ["divide", "multiply"])
        for (const array of arrays)
          for (const number of numbers)
            for (const args of [[column(array.name), number], [number, column(array.name)]]) {
              const expression = call(name, args);
              let known: ReturnType<typeof expressionTyping>;
              try {
                known = expressionTyping(expression, entity);
              } catch {
                refusedCalls += 1;
                continue;
              }
              if (known.variant === null && known.alternatives === null && known.cls === null) {
                wrong.push(`${sqlOf(expression)}: the pass has no type for it`);
                continue;
              }
              const type = await store.client
                .query({ query: `SELECT ${sqlOf(expression)} AS r FROM probe LIMIT 0`, format: "JSONCompact" })
                .then((r) => r.json<{ meta: { type: string }[] }>())
                .then((r) => r.meta?.[0]?.type ?? "refused", () => "refused");
              // An array of integers (the probe's class results), or one of the arrays of numbers: none Nullable.
              if (known.variant === null) {
                oneOf += 1;
                const pattern = known.cls === "arrayNumber" ? /^Array\(U?Int\d+\)$/ : /^Array\((U?Int\d+|Float\d+)\)$/;
                if (!pattern.test(type)) wrong.push(`${sqlOf(expression)}: ${type}, the pass ${known.cls ?? "one of the arrays of numbers"}`);
                continue;
              }
              typedCalls += 1;
              if (variantSamples(known.variant)[0]!.type !== type) wrong.push(`${sqlOf(expression)}: ${type}, the pass ${known.variant}`);
            }
      expect(typedCalls).toBeGreaterThan(40);
      expect(oneOf).toBeGreaterThan(20); // products of integers: an array of integers, or of an exact type the pass does not know
      expect(refusedCalls).toBeGreaterThan(10); // arrays of Nullable elements (code 43)
      expect(wrong).toEqual([]);
      // Such a product at each position of every probed function of one or two arguments.
      const float32s = column(arrays[2]!.name);
      const products = [call("multiply", [float32s, literal(3)]), call("multiply", [column(CLASS_SAMPLES.int64.column), float32s])];
      for (const product of products) expect(passTypingOf(product, entity)?.alternatives?.length, sqlOf(product)).toBe(4);
      const { refused, disagreements } = await passAndEngine(callsWith(products, 2), { byRule: (message) => message.includes("whose type depends on the operands' exact types"), engineRefuses: (code) => TYPE_OR_COUNT_ERRORS.has(code), mustRefuse: () => false, entity });
      expect(refused).toBeGreaterThan(100);
      expect(disagreements).toEqual([]);
    }, 300_000);

    probeIt("two arrays of numbers added or subtracted element by element are an array of numbers none Nullable wherever the pass says one of them, and such a sum beside a DateTime is refused by both", async () => {
      const arrays = [CLASS_SAMPLES.arrayNumber, ...["float64s", "float32s", "uint8s", "bools", "nullableUInt8"].map((variant) => variantSamples(variant)[0]!)].map((sample) => ({ name: sample.column, type: sample.type }));
      const entity = columnsEntity("probe", [...CLASS_COLUMNS.map((sample) => ({ name: sample.column, type: sample.type })), ...arrays.slice(1)]);
      const operands: Expression[] = [...arrays.map((array) => column(array.name)), call("array", [literal(100)]), call("array", [literal(2.5)])];
      const wrong: string[] = [];
      let sums = 0;
      for (const name of ["plus", "minus"])
        for (const left of operands)
          for (const right of operands) {
            const expression = call(name, [left, right]);
            const known = passTypingOf(expression, entity);
            if (known === null || known.cls === "arrayNumber") continue;
            const type = await store.client
              .query({ query: `SELECT ${sqlOf(expression)} AS r FROM probe LIMIT 0`, format: "JSONCompact" })
              .then((r) => r.json<{ meta: { type: string }[] }>())
              .then((r) => r.meta?.[0]?.type ?? "refused", () => "refused");
            if (known.alternatives?.length !== 4) continue;
            sums += 1;
            if (!/^Array\((U?Int\d+|Float\d+)\)$/.test(type)) wrong.push(`${sqlOf(expression)}: ${type}, the pass one of the arrays of numbers`);
          }
      expect(sums).toBeGreaterThan(40);
      expect(wrong).toEqual([]);
      // `tags.value + array(100) + now()` (seed 42): such a sum beside a DateTime, either way round.
      const sum = call("plus", [column(CLASS_SAMPLES.arrayNumber.column), call("array", [literal(100)])]);
      for (const expression of [call("plus", [sum, call("now", [])]), call("minus", [call("now", []), sum])]) {
        expect(passRefusal(expression, entity), sqlOf(expression)).not.toBeNull();
        expect(TYPE_OR_COUNT_ERRORS.has((await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`)) ?? 0), sqlOf(expression)).toBe(true);
      }
    }, 300_000);

    probeIt("an if or multiIf whose branches are all of one map, IP or array variant is of that variant, as the engine types it", async () => {
      const exact = ["mapStrings", "mapFloats", "mapInts", "mapBools", "nullableIPv4", "nullableIPv6", "nullableStrings", "nullableUInt8", "float64s", "float32s", "uuids", "uint8s", "bools"];
      const samples = exact.map((variant) => ({ variant, sample: variantSamples(variant)[0]! }));
      const entity = columnsEntity("probe", [...CLASS_COLUMNS, ...samples.map(({ sample }) => sample)].map((sample) => ({ name: sample.column, type: sample.type })));
      const condition = column(CLASS_SAMPLES.uint8.column);
      const wrong: string[] = [];
      for (const { variant, sample } of samples) {
        const value = column(sample.column);
        for (const expression of [call("if", [condition, value, value]), call("multiIf", [condition, value, condition, value, value])]) {
          const known = passTypingOf(expression, entity);
          const type = await store.client
            .query({ query: `SELECT ${sqlOf(expression)} AS r FROM probe LIMIT 0`, format: "JSONCompact" })
            .then((r) => r.json<{ meta: { type: string }[] }>())
            .then((r) => r.meta?.[0]?.type ?? "refused", () => "refused");
          if (known?.variant !== variant || type !== sample.type) wrong.push(`${sqlOf(expression)}: ${type}, the pass ${known?.variant ?? known?.cls ?? "refuses it"}`);
        }
      }
      expect(wrong).toEqual([]);
      // `if(c, attributes_int, attributes_int) NOT IN attributes_float[k]` (seed 42): a map looked for among floats.
      const maps = call("if", [condition, column(variantSamples("mapInts")[0]!.column), column(variantSamples("mapInts")[0]!.column)]);
      const expression = call("notIn", [maps, column(CLASS_SAMPLES.float64.column)]);
      expect(passRefusal(expression, entity), sqlOf(expression)).not.toBeNull();
      expect(TYPE_OR_COUNT_ERRORS.has((await codeOf(`SELECT ${sqlOf(expression)} AS r FROM probe`)) ?? 0), sqlOf(expression)).toBe(true);
    }, 300_000);

    probeIt("an array of numbers with a float literal among them is an Array(Float64) wherever the pass says so", async () => {
      const float: Expression = { kind: "literal", value: 0.5 };
      const elements: Expression[] = [...CLASS_COLUMNS.map((sample) => column(sample.column)), ...[3, 300, 70_000, -5, -3_000_000_000, 2 ** 40, true, 2.5, null].map((value): Expression => ({ kind: "literal", value }))];
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const element of elements)
        for (const args of [[float, element], [element, float], [element, float, element]]) {
          const expression = call("array", args);
          const known = expressionTyping(expression, CLASS_COLUMNS_ENTITY);
          if (known.variant === null) continue;
          const type = await engineTypeOf(expression);
          typedCalls += 1;
          if (variantOfTypeName(type) !== known.variant) wrong.push(`${sqlOf(expression)}: ${type}, the pass ${known.variant}`);
        }
      expect(typedCalls).toBeGreaterThan(20);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("a call given an array of an IP and a value of another family (an Array(Variant(IPv6, String))) is refused by the engine where the pass refuses it", async () => {
      const arrays = IP_COLUMNS.flatMap((ip) => [call("array", [column(ip.column), column(CLASS_SAMPLES.string.column)]), call("array", [column(CLASS_SAMPLES.datetime.column), column(ip.column)])]);
      for (const array of arrays) expect(passTypingOf(array)?.variant, sqlOf(array)).toBe("mixedArray");
      await expectEngineRefusesWhatPassRefuses(callsWith(arrays, 2), 200);
    }, 600_000);

    probeIt("an array of an argument's type (groupArray(x), array(x, y) of one class, or of two families) has the pass's type, where it has one", async () => {
      function* expressions(): Generator<Expression> {
        for (const [name, signature] of PROBED_FUNCTION_SIGNATURES)
          for (const [countText, rule] of Object.entries(signature.results)) {
            if (!rule || !("arrayOf" in rule)) continue;
            const partners = partnerColumns(signature, Number(countText));
            for (const sample of CLASS_COLUMNS) yield call(name, partners.map((partner, i) => column(i === rule.arrayOf ? sample.column : partner)));
            // of a float literal, an Array(Float64) (`groupUniqArray(0.000001)`)
            for (const value of [2.5, 0.000001]) yield call(name, partners.map((partner, i) => (i === rule.arrayOf ? { kind: "literal", value } : column(partner))));
          }
        const literals = [1, 300, -5, 2.5, "a", true].map((value): Expression => ({ kind: "literal", value }));
        // (Of an integer whose exact type the pass does not know: round of it; of an Int64 and a float it knows a Variant.)
        const unknownElement = call("if", [column(CLASS_SAMPLES.uint8.column), call("round", [column(CLASS_SAMPLES.int64.column)]), column(CLASS_SAMPLES.float64.column)]);
        expect(passTypingOf(unknownElement)).toMatchObject({ cls: null, variant: null, alternatives: null });
        for (const element of [...CLASS_COLUMNS.map((sample) => column(sample.column)), ...literals]) {
          yield call("array", [element]);
          yield call("array", [element, element]);
          for (const other of literals) yield call("array", [element, other]);
          // an element of a type the pass does not know (a Variant(Float64, Int64)) beside two families: still a mixed array
          for (const other of literals) yield call("array", [element, unknownElement, other]);
          // tuples make an array of tuples (the Nested variant), with a NULL among them too
          yield call("array", [call("tuple", [element, literals[4]!])]);
          yield call("array", [call("tuple", [element]), call("tuple", [element]), { kind: "literal", value: null }]);
          // a container (an array or a tuple of it) beside a scalar is an array of a Variant
          for (const other of literals) {
            yield call("array", [call("array", [element, { kind: "literal", value: null }]), other]);
            yield call("array", [other, call("tuple", [element, other])]);
          }
        }
        // an IP beside a value of another family but numbers, or beside the other IP: an array of a Variant
        for (const ip of IP_COLUMNS)
          for (const other of [...CLASS_COLUMNS.map((sample) => column(sample.column)), ...literals, ...IP_COLUMNS.map((sample) => column(sample.column))]) {
            yield call("array", [column(ip.column), other]);
            yield call("array", [other, column(ip.column), { kind: "literal", value: null }]);
          }
      }
      const wrong: string[] = [];
      const typedAs = new Set<string>();
      let containersBesideScalars = 0;
      let besideUnknown = 0;
      for (const expression of expressions()) {
        const known = passTypingOf(expression);
        if (known === null) continue;
        if (known.cls === null && known.variant === null) continue;
        const type = await engineTypeOf(expression);
        if (type === "refused") continue;
        const pass = known.cls ?? known.variant!;
        typedAs.add(pass);
        if (pass === "mixedArray" && expression.kind === "function" && expression.args.some((arg) => arg.kind === "function" && arg.name !== "if")) containersBesideScalars += 1;
        if (pass === "mixedArray" && expression.kind === "function" && expression.args.some((arg) => arg.kind === "function" && arg.name === "if")) besideUnknown += 1;
        if ((classOfTypeName(type) ?? variantOfTypeName(type)) !== pass || known.nullable) wrong.push(`${sqlOf(expression)}: ${type}, the pass ${pass}`);
      }
      // an array or a state beside a literal of another family (array(c_array_string, 'a')) is a mixed array
      for (const expected of ["arrayString", "arrayNumber", "uint8s", "datetimes", "uuids", "float64s", "mixedArray", "nested"]) expect(typedAs).toContain(expected);
      expect(containersBesideScalars).toBeGreaterThan(100);
      expect(besideUnknown).toBeGreaterThan(30);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("an -If aggregate with a NULL condition has the pass's type, and is no NULL where the pass says it is not", async () => {
      const NULL: Expression = { kind: "literal", value: null };
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (!AGGREGATE_FUNCTIONS.has(name) || !name.endsWith("If")) continue;
        for (let count = 2; count <= 3; count++) {
          if (signature.counts[count] !== "probed") continue;
          const partners = partnerColumns(signature, count);
          for (const sample of CLASS_COLUMNS) {
            const expression = call(name, partners.map((partner, i) => (i === count - 1 ? NULL : column(i === 0 ? sample.column : partner))));
            const known = passTypingOf(expression);
            if (known === null) continue;
            const type = await engineTypeOf(expression);
            if (type === "refused") continue;
            typedCalls += 1;
            if (!known.mayBeNothing && type === "Nullable(Nothing)") wrong.push(`${sqlOf(expression)}: ${type}, the pass says it is not Nothing`);
            if (known.cls === null && known.variant === null) continue;
            const engine = classOfTypeName(type) ?? nullableClassOfTypeName(type) ?? variantOfTypeName(type);
            if (engine !== (known.cls ?? known.variant) || (known.cls !== null && (classOfTypeName(type) === null) !== known.nullable)) wrong.push(`${sqlOf(expression)}: ${type}, the pass ${known.cls ?? known.variant}${known.nullable ? " (Nullable)" : ""}`);
          }
        }
      }
      expect(typedCalls).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("the plural quantiles, curried with their levels, refuse what their singular refuses", async () => {
      const plurals = [...PROBED_FUNCTION_SIGNATURES.keys()].filter((name) => name.startsWith("quantiles") && PROBED_FUNCTION_SIGNATURES.has(`quantile${name.slice(9)}`));
      expect(plurals).toContain("quantiles");
      function* expressions(): Generator<Expression> {
        for (const name of plurals) {
          const singular = PROBED_FUNCTION_SIGNATURES.get(`quantile${name.slice(9)}`)!;
          const count = Number(Object.entries(singular.counts).find(([, state]) => state === "probed")![0]);
          const partners = partnerColumns(singular, count);
          // Each sample in turn at one position, the singular's partners at the others.
          for (let position = 0; position < count; position++)
            for (const sample of CLASS_COLUMNS) {
              const args = partners.map((partner, i) => column(i === position ? sample.column : partner));
              yield { kind: "curried", name, params: [{ kind: "literal", value: 0.5 }, { kind: "literal", value: 0.9 }], args };
            }
        }
      }
      await expectEngineRefusesWhatPassRefuses(expressions(), 20);
    }, 60_000);

    probeIt("an aggregate curried with a size (topK(3)(x), groupArray(3)(x)) has the plain call's type, in the engine and in the pass", async () => {
      const names = [...PROBED_FUNCTION_SIGNATURES.keys()].filter((name) => SIZED_AGGREGATE.test(name));
      expect(names.sort()).toEqual(["groupArray", "groupUniqArray", "topK", "topKWeighted"]);
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const name of names) {
        const count = name === "topKWeighted" ? 2 : 1;
        for (const sample of CLASS_COLUMNS) {
          const columns = count === 1 ? [sample.column] : [sample.column, CLASS_SAMPLES.uint8.column];
          const plain = call(name, columns.map(column));
          const curried: Expression = { kind: "curried", name, params: [literal(3)], args: columns.map(column) };
          const [plainType, curriedType] = [await resultType(name, columns), await resultType(`${name}(3)`, columns)];
          if (plainType !== curriedType) wrong.push(`${name}(3)(${columns.join(", ")}): the engine ${curriedType}, plain ${plainType}`);
          const [plainTyping, curriedTyping] = [passTypingOf(plain), passTypingOf(curried)];
          if (JSON.stringify(plainTyping) !== JSON.stringify(curriedTyping)) wrong.push(`${name}(3)(${columns.join(", ")}): the pass ${JSON.stringify(curriedTyping)}, plain ${JSON.stringify(plainTyping)}`);
          if (curriedTyping?.cls != null || curriedTyping?.variant != null) typedCalls += 1;
        }
      }
      expect(typedCalls).toBeGreaterThan(20);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("a one-level quantile curried with its level has the type the engine gives it", async () => {
      const names = [...PROBED_FUNCTION_SIGNATURES.keys()].filter((name) => SINGLE_LEVEL_QUANTILE.test(name));
      expect(names).toContain("quantileExact");
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const name of names) {
        const signature = PROBED_FUNCTION_SIGNATURES.get(name)!;
        for (const [countText, state] of Object.entries(signature.counts)) {
          if (state !== "probed") continue;
          const count = Number(countText);
          const partners = partnerColumns(signature, count);
          for (let position = 0; position < count; position++)
            for (const sample of CLASS_COLUMNS) {
              const columns = partners.map((partner, i) => (i === position ? sample.column : partner));
              const expression: Expression = { kind: "curried", name, params: [{ kind: "literal", value: 0.9 }], args: columns.map(column) };
              let known: ReturnType<typeof expressionTyping>;
              try {
                known = expressionTyping(expression, CLASS_COLUMNS_ENTITY);
              } catch {
                continue;
              }
              if (known.cls === null) continue;
              const type = await resultType(`${name}(0.9)`, columns);
              if (type === "refused") continue;
              typedCalls += 1;
              const engineClass = classOfTypeName(type) ?? nullableClassOfTypeName(type);
              const engineNullable = classOfTypeName(type) === null;
              if (engineClass !== known.cls || engineNullable !== known.nullable) wrong.push(`${name}(0.9)(${columns.join(", ")}): ${type}, the pass ${known.cls}${known.nullable ? " (Nullable)" : ""}`);
            }
        }
      }
      expect(typedCalls).toBeGreaterThan(20);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("greatest and least beside a NULL have the class of the others' common type, Nullable, as the engine's result", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const name of ["greatest", "least"]) {
        for (const a of ARGUMENT_CLASSES)
          for (const b of [null, ...ARGUMENT_CLASSES])
            for (const shape of b === null ? [[a, null], [null, a]] : [[a, b, null], [null, a, b], [a, null, b]]) {
              const known = commonTypeBesideNullOf(name, shape);
              if (known.cls === null) continue;
              const type = await resultType(name, shape.map((cls) => (cls === null ? "NULL" : CLASS_SAMPLES[cls].column)));
              if (type === "refused") continue;
              typedCalls += 1;
              if (nullableClassOfTypeName(type) !== known.cls) wrong.push(`${name}(${shape.map((cls) => cls ?? "NULL").join(", ")}): ${type}, not Nullable ${known.cls}`);
            }
      }
      expect(typedCalls).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("greatest and least of a NULL and a Date, an IP or a DateTime64 are its Nullable where the pass names one, as the engine's result", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const name of ["greatest", "least"])
        for (const sample of [...DATE_COLUMNS, ...IP_COLUMNS, UINT128_COLUMN])
          for (const args of [[literal(null), column(sample.column)], [column(sample.column), literal(null)]]) {
            const expression = call(name, args);
            const pass = passTypingOf(expression)?.variant ?? null;
            if (pass === null) continue;
            typedCalls += 1;
            const engine = await engineTypeOf(expression);
            if (variantOfTypeName(engine) !== pass) wrong.push(`${sqlOf(expression)}: the engine ${engine}, the pass ${pass}`);
          }
      expect(typedCalls).toBeGreaterThanOrEqual(16);
      expect(wrong).toEqual([]);
    });

    probeIt("greatest and least of a NULL and a column are refused by the pass exactly where the engine refuses them (an array, a map or a state)", async () => {
      // Entity columns of the types an entity can declare (a Variant cannot be one).
      const declarable = (type: string) => {
        try {
          parseClickHouseType(type);
          return true;
        } catch {
          return false;
        }
      };
      const samples = [...CLASS_COLUMNS, ...VARIANTS.flatMap((variant) => variantSamples(variant))].filter((sample) => declarable(sample.type));
      const entity = columnsEntity("probe", samples.map((sample) => ({ name: sample.column, type: sample.type })));
      const nullLiteral: Expression = { kind: "literal", value: null };
      const wrong: string[] = [];
      let refused = 0;
      for (const name of ["greatest", "least"])
        for (const sample of samples)
          for (const args of [[nullLiteral, column(sample.column)], [column(sample.column), nullLiteral], [nullLiteral, column(sample.column), nullLiteral]]) {
            const expression = call(name, args);
            const passRefuses = passRefusal(expression, entity) !== null;
            const code = await codeOf(`SELECT ${sqlOf(expression)} AS r FROM ${PROBE_ROW_TABLE}`);
            const engineRefuses = code !== null && TYPE_OR_COUNT_ERRORS.has(code);
            if (passRefuses) refused += 1;
            if (passRefuses !== engineRefuses) wrong.push(`${sqlOf(expression)} (${sample.type}): engine ${code ?? "answered"}, pass ${passRefuses ? "refuses" : "takes"}`);
          }
      expect(refused).toBeGreaterThan(30);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("each result variant recorded is still the type of the engine's result, at each probed count", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (signature.resultVariant === null) continue;
        for (const [countText, state] of Object.entries(signature.counts)) {
          if (state !== "probed") continue;
          const count = Number(countText);
          // Per position, the first class the function takes there as a column.
          const partners = Array.from({ length: count }, (_, i) => ARGUMENT_CLASSES.find((c) => !(signature.refused[count]?.column[i] ?? []).includes(c))!);
          const type = await resultType(name, partners.map((c) => CLASS_SAMPLES[c].column));
          if (type === "refused") continue;
          typedCalls += 1;
          if (variantOfTypeName(type) !== signature.resultVariant) wrong.push(`${name}(${partners.join(", ")}): ${type}, not ${signature.resultVariant}`);
        }
      }
      expect(PROBED_FUNCTION_SIGNATURES.get("toDate")!.resultVariant).toBe("date");
      expect(typedCalls).toBeGreaterThan(3);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("a function of a result variant given a Date or a DateTime64 where a DateTime goes has the pass's type, as the engine's result (toDate(toDate(timestamp)))", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (signature.resultVariant === null || signature.counts[1] !== "probed") continue;
        for (const sample of DATE_COLUMNS) {
          const expression = call(name, [column(sample.column)]);
          const pass = passTypingOf(expression);
          const engine = await engineTypeOf(expression);
          if (engine === "refused" || pass === null) {
            if ((engine === "refused") !== (pass === null)) wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass ${pass === null ? "refuses it" : "takes it"}`);
            continue;
          }
          typedCalls += 1;
          if (pass.variant !== variantOfTypeName(engine)) wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass ${pass.variant ?? pass.cls ?? "no type"}`);
        }
      }
      expect(typedCalls).toBeGreaterThan(10);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("a function of one fixed result class given a value of no class (a Date, an array of UUIDs, a tuple, a map, an IP) has that class, as the engine's result (toStartOfDay(toDate(timestamp)), toString(tuple(a)))", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      // Entities have no Variant columns: an if's Variant is made by if(...) only, and judged per alternative.
      const samples = VARIANTS.flatMap((variant) => variantSamples(variant)).filter((sample) => !sample.type.includes("Variant("));
      const entity = columnsEntity("probe", [...CLASS_COLUMNS, ...samples].map((sample) => ({ name: sample.column, type: sample.type })));
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        if (signature.result === null || signature.counts[1] !== "probed" || AGGREGATE_FUNCTIONS.has(name)) continue;
        for (const sample of samples) {
          const expression = call(name, [column(sample.column)]);
          // Refusals are the probe's own (toHour of a Date fails on a row, not while planned, which
          // this typing-only query never reaches): only the types of calls both take are compared.
          if (await comparedClass(expression, wrong, entity)) typedCalls += 1;
        }
      }
      expect(typedCalls).toBeGreaterThan(200);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("a function of one fixed result class for every scalar class (concat, divide) has it given a scalar value of no class (a tuple, a map, a UInt128, an IP, a Date) at any position, or an array variant beside a scalar (concat), as the engine's result", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      let arrayCalls = 0;
      const scalars = VARIANTS.filter((variant) => !isArrayVariant(variant) && variant !== "mixed").flatMap((variant) => variantSamples(variant));
      // Not the mixed array, an Array(Variant(...)) no entity column can be declared as.
      const arrays = VARIANTS.filter((variant) => isArrayVariant(variant) && variant !== "mixedArray").flatMap((variant) => variantSamples(variant));
      const entity = columnsEntity("probe", [...CLASS_COLUMNS, ...scalars, ...arrays].map((sample) => ({ name: sample.column, type: sample.type })));
      const scalarClasses = CLASS_COLUMNS.filter((sample) => { const cls = classOfTypeName(sample.type) ?? nullableClassOfTypeName(sample.type); return cls !== null && elementClass(cls) === null && cls !== "aggregateState"; });
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const count of [1, 2]) {
          if (signature.classResults[count] === undefined || signature.result !== null) continue;
          for (let at = 0; at < count; at++)
            for (const sample of count === 1 ? scalars : [...scalars, ...arrays])
              for (const partner of count === 1 ? [sample] : [...scalarClasses, ...scalars]) {
                const args = count === 1 ? [column(sample.column)] : at === 0 ? [column(sample.column), column(partner.column)] : [column(partner.column), column(sample.column)];
                // Only the calls the pass gives a class are asked of the engine (most give none).
                if (passTypingOf(call(name, args), entity)?.cls == null) continue;
                if (!(await comparedClass(call(name, args), wrong, entity))) continue;
                typedCalls += 1;
                if (arrays.includes(sample)) arrayCalls += 1;
              }
        }
      }
      expect(typedCalls).toBeGreaterThan(200);
      expect(arrayCalls).toBeGreaterThan(50);
      expect(wrong).toEqual([]);
    }, 300_000);

    probeIt("a function that keeps the type of two arrays of one class (concat, greatest) keeps that of two arrays of one array variant, as the engine types it", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      const entity = columnsEntity("probe", [...CLASS_COLUMNS, ...ARRAY_VARIANTS.flatMap((variant) => variantSamples(variant))].map((sample) => ({ name: sample.column, type: sample.type })));
      for (const name of PROBED_FUNCTION_SIGNATURES.keys())
        for (const variant of ARRAY_VARIANTS) {
          const sample = variantSamples(variant)[0]!;
          const expression = call(name, [column(sample.column), column(sample.column)]);
          if (passTypingOf(expression, entity)?.variant !== variant) continue;
          typedCalls += 1;
          const engine = await engineTypeOf(expression);
          if (variantOfTypeName(engine) !== variant) wrong.push(`${sqlOf(expression)}: engine ${engine}, the pass ${variant}`);
        }
      expect(typedCalls).toBeGreaterThanOrEqual(3 * ARRAY_VARIANTS.length);
      expect(wrong).toEqual([]);
    });

    probeIt("where the result is an argument's type, a variant there is the result's variant too", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, rule] of Object.entries(signature.results)) {
          if (!rule || !("from" in rule) || signature.result !== null) continue;
          const count = Number(countText);
          const partners = partnerColumns(signature, count);
          for (const variant of VARIANTS.filter((variant) => variantKeptByResult(name, variant)))
            for (const sample of variantSamples(variant)) {
              const columns = partners.map((partner, i) => (i === rule.from ? sample.column : partner));
              const type = await resultType(name, columns);
              if (type === "refused") continue;
              typedCalls += 1;
              if (variantOfTypeName(type) !== variant) wrong.push(`${name}(${columns.join(", ")}): ${type}, not ${variant}`);
            }
        }
      }
      expect(typedCalls).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("where the result is an array argument's element, an array variant there (Array(UUID), Array(Nullable(String)), ...) gives the element's type the pass says", async () => {
      // Entities have no Variant columns: a mixed array (Array(Variant(...))) is made by array(...) only.
      const arrays = VARIANTS.flatMap((variant) => variantSamples(variant)).filter((sample) => /^Array\(/.test(sample.type) && !sample.type.includes("Variant("));
      const entity = columnsEntity("probe", [...CLASS_COLUMNS, ...arrays].map((sample) => ({ name: sample.column, type: sample.type })));
      const nullableOf = (partner: string): string | null => {
        const cls = ARGUMENT_CLASSES.find((c) => CLASS_SAMPLES[c].column === partner);
        return cls === undefined ? null : (nullableSample(cls)?.column ?? null);
      };
      const wrong: string[] = [];
      let typedCalls = 0;
      let besideNullable = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [countText, rule] of Object.entries(signature.results)) {
          if (!rule || !("elementOf" in rule) || signature.result !== null) continue;
          const partners = partnerColumns(signature, Number(countText));
          for (const sample of arrays) {
            const expression = call(name, partners.map((partner, i) => column(i === rule.elementOf ? sample.column : partner)));
            if (await comparedClass(expression, wrong, entity)) typedCalls += 1;
            // beside a Nullable partner (`arrayElement(exception_frames.filename, symbolicated_in_app)`): the element, Nullable
            for (let j = 0; j < partners.length; j++) {
              const nullable = j === rule.elementOf ? null : nullableOf(partners[j]!);
              if (nullable === null) continue;
              const besideIt = call(name, partners.map((partner, i) => column(i === rule.elementOf ? sample.column : i === j ? nullable : partner)));
              if (await comparedClass(besideIt, wrong, entity)) besideNullable += 1;
            }
          }
        }
      }
      expect(typedCalls).toBeGreaterThan(20);
      expect(besideNullable).toBeGreaterThan(5);
      expect(wrong).toEqual([]);
    }, 60_000);

    probeIt("argMax and argMin (and their -If) choosing the row by a tuple, a Date, an IP or a Nullable value have the first argument's type (Nullable by a Nullable one, an array never), as the pass says", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      const condition = CLASS_SAMPLES.uint8.column;
      const nullableBy = NULLABLE_CLASSES.map((cls) => column(nullableSample(cls)!.column));
      for (const name of ["argMax", "argMin", "argMaxIf", "argMinIf"])
        for (const value of CLASS_COLUMNS)
          for (const by of [...CLASS_COLUMNS.map((sample) => call("tuple", [column(sample.column), column(sample.column)])), ...[...DATE_COLUMNS, ...IP_COLUMNS].map((sample) => column(sample.column)), ...nullableBy]) {
            const args = [column(value.column), by];
            const expression = call(name, name.endsWith("If") ? [...args, column(condition)] : args);
            if (await comparedClass(expression, wrong)) typedCalls += 1;
          }
      expect(typedCalls).toBeGreaterThan(100);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("where a Nullable argument makes the result Nullable, it still does", async () => {
      const wrong: string[] = [];
      let typedCalls = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const count of signature.nullableResults) {
          // Each position in turn Nullable, the others classes the function takes there.
          const partners = nullablePartners(signature.refused[count], count);
          if (partners.some((partner) => partner === undefined)) continue;
          for (let position = 0; position < count; position++) {
            const columns = columnsWithNullable(partners as ArgumentClass[], position);
            const type = await resultType(name, columns);
            if (type === "refused") continue;
            typedCalls += 1;
            if (!/^(?:LowCardinality\()?Nullable\(/.test(type)) wrong.push(`${name}(${columns.join(", ")}): ${type}`);
          }
        }
      }
      expect(typedCalls).toBeGreaterThan(200);
      expect(wrong).toEqual([]);
    }, 120_000);

    probeIt("where only arrays are taken after a lambda, a NULL and a Nullable are refused there too", async () => {
      const scalars = ARGUMENT_CLASSES.filter((cls) => !cls.startsWith("array"));
      const wrong: string[] = [];
      let checked = 0;
      for (const [name, signature] of PROBED_FUNCTION_SIGNATURES) {
        for (const [arraysText, forms] of Object.entries(signature.afterLambda)) {
          const arrays = Number(arraysText);
          for (let position = 0; position < arrays; position++) {
            if (!scalars.every((cls) => forms!.constant[position]!.includes(cls) && forms!.column[position]!.includes(cls))) continue;
            for (const value of ["NULL", "CAST(NULL, 'Nullable(String)')", "n_int64"]) {
              const args = Array.from({ length: arrays }, (_, i) => (i === position ? value : "[1]"));
              const query = `SELECT ${name}(${arrays === 1 ? "x -> 1" : "(x, y) -> 1"}, ${args.join(", ")}) FROM probe LIMIT 0`;
              checked += 1;
              const code = await store.client.query({ query, format: "JSONCompact" }).then((r) => r.text()).then(() => null, (error: unknown) => clickHouseCodeOf(error));
              if (code === null || !TYPE_OR_COUNT_ERRORS.has(code)) wrong.push(`${query}: ${code ?? "accepted"}`);
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(30);
      expect(wrong).toEqual([]);
    }, 60_000);
  });
}
