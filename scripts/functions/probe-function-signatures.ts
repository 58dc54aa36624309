/**
 * Measures, on the embedded engine, which argument types each allowed function refuses, and
 * writes src/pipeline/probed-function-signatures.ts (the table the typing pass reads).
 *
 * Why probe instead of writing signatures by hand: the question the typing pass answers is "would
 * ClickHouse refuse this call for its types?", and the engine itself is the only exact source.
 * Each function is called with every combination of eleven argument classes (one ClickHouse type
 * each), up to three arguments, once with constants and once with columns of a table of one
 * row (computed: the engine refuses some calls only as it runs them; where the row's value is what
 * fails, the call is only analysed, over an empty table). A class is recorded as refused at a position only
 * when every call with it there failed with a type error (43 ILLEGAL_TYPE_OF_ARGUMENT, 386
 * NO_COMMON_TYPE, 48 NOT_IMPLEMENTED) and the same argument count succeeded at least once — so a refusal never
 * depends on a partner argument the probe could not pick. An argument count is refused only
 * when every call with it failed with a wrong-count error (42, 34, 35).
 *
 *   npx tsx scripts/functions/probe-function-signatures.ts        # rewrites the table (about twenty minutes)
 *   npx tsx scripts/functions/probe-function-signatures.ts has in # probes these again, keeps the other entries
 *
 * Run it again after changing the allow-list or upgrading chDB; a test checks that the table
 * covers the allow-list and that a sample of its refusals still holds.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "chdb";
import { ALLOWED_FUNCTIONS } from "../../src/clickhouse/function-allow-list.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import {
  ARGUMENT_CLASSES,
  ARRAY_VARIANTS,
  CLASS_SAMPLES as SAMPLES,
  OTHER_TYPE_SAMPLES,
  SCALAR_VARIANT_SAMPLES,
  VARIANTS,
  variantSamples,
  type ArgumentClass,
  type ArgumentCount,
  type ByForm,
  type CallForm,
  type ProbedSignature,
  type ResultRule,
  MAX_COUNTED_ARGUMENTS,
  MAX_CURRIED_PARAMETERS,
  NULLABLE_CLASSES,
  PROBE_ROW_TABLE,
  UNPROBED_FUNCTIONS,
  probeTableStatements,
  classOfTypeName,
  nullableSample,
  elementClass,
  variantOfTypeName,
} from "../../src/pipeline/argument-classes.js";

/** Argument counts whose classes are probed; counts up to MAX_COUNTED_ARGUMENTS are only checked for being refused. */
const MAX_PROBED_ARGUMENTS = 3;

const SCALAR_VARIANTS: readonly string[] = Object.keys(SCALAR_VARIANT_SAMPLES);

/** An array of a scalar variant's sample (`[tuple(1, 2)]`): what `has` and `IN` take a tuple beside. */
/** A type with its DateTimes' time zones left out: `groupUniqArray` of a DateTime('UTC') is an Array(DateTime). */
function withoutTimeZone(type: string): string {
  return type.replace(/DateTime\('[^']*'\)/g, "DateTime");
}

function arrayOfSample(sample: { readonly constant: string; readonly column: string; readonly type: string }): { constant: string; column: string; type: string } {
  return { constant: `[${sample.constant}]`, column: `a_${sample.column}`, type: `Array(${sample.type})` };
}

/** Each sample of a variant, as `sampleText` reads it. */
function variantCallSamples(variant: string): string[] {
  return variantSamples(variant).map((_, k) => `variant:${variant}:${k}`);
}
/**
 * 43 ILLEGAL_TYPE_OF_ARGUMENT, 386 NO_COMMON_TYPE, and 48 NOT_IMPLEMENTED, which a conversion the
 * engine has no code for raises whatever the values (`toDate(trace_id)`: "Conversion between
 * numeric types and UUID is not supported"). Caution: an IPv4 beside the int64 sample (an Int64)
 * or in the arrayNumber sample (an Array(Int64)) raises 48 too, where a UInt64, which the classes
 * also stand for, is taken: such a call is tried again with the samples unsigned (callText), and
 * taken if that is (`ip_address_v4 = project_id`, `has(array(toUInt64(x)), ip_address_v4)`).
 */
const TYPE_ERRORS = new Set([43, 386, 48]);
/**
 * The int64 and arrayNumber classes' samples (constants, columns, the Nullable column), and each
 * written as a UInt64 (an array of them) of the same row value's size: the classes stand for both.
 */
const SIGNED_INT64_SAMPLE = /-5000000000\b|\bc_int64\b|\bn_int64\b|\bc_array_number\b/g;
const UNSIGNED_INT64_SAMPLE: Readonly<Record<string, string>> = {
  "-5000000000": "5000000000",
  c_int64: "toUInt64(abs(c_int64))",
  n_int64: "toUInt64(abs(n_int64))",
  c_array_number: "arrayMap((v) -> toUInt64(abs(v)), c_array_number)",
};
/** 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH, 34 TOO_MANY_ARGUMENTS_FOR_FUNCTION, 35 TOO_FEW_ARGUMENTS_FOR_FUNCTION. */
const WRONG_COUNT = new Set([42, 34, 35]);
/** What refuses a curried call's parameters: a wrong count, 133 AGGREGATE_FUNCTION_DOESNT_ALLOW_PARAMETERS, 309 FUNCTION_CANNOT_HAVE_PARAMETERS. */
const WRONG_PARAMETERS = new Set([...WRONG_COUNT, 133, 309]);

interface Outcome {
  readonly ok: boolean;
  readonly code: number | null;
  readonly resultType: string | null;
}

/** A call refused with a type error or a wrong argument count (not some other failure). */
function typeOrCountError(outcome: Outcome): boolean {
  return !outcome.ok && outcome.code !== null && (TYPE_ERRORS.has(outcome.code) || WRONG_COUNT.has(outcome.code));
}

function errorCode(error: unknown): number | null {
  const match = /Code: (\d+)\./.exec(error instanceof Error ? error.message : String(error));
  return match ? Number(match[1]) : null;
}

/** A type wrapped in Nullable as ClickHouse writes it (inside LowCardinality; Nullable stays as it is). */
function nullableOf(type: string): string {
  if (type.startsWith("Nullable(")) return type;
  const inner = /^LowCardinality\((.*)\)$/.exec(type)?.[1];
  return inner === undefined ? `Nullable(${type})` : `LowCardinality(${nullableOf(inner)})`;
}

function pairKey(i: number, j: number, a: ArgumentClass, b: ArgumentClass): string {
  return `${i} ${j} ${a} ${b}`;
}

function combinations(count: number): ArgumentClass[][] {
  if (count === 0) return [[]];
  return combinations(count - 1).flatMap((rest) => ARGUMENT_CLASSES.map((first) => [first, ...rest]));
}

/** Per form, how each position is written. */
const FORM_POSITIONS: Readonly<Record<CallForm, (position: number) => "constant" | "column">> = {
  constant: () => "constant",
  column: () => "column",
  constantColumn: (position) => (position === 0 ? "constant" : "column"),
  columnConstant: (position) => (position === 0 ? "column" : "constant"),
};

/** The forms probed for a count: the mixed ones only for two arguments (a few minutes more for three). */
function formsFor(count: number): CallForm[] {
  return count === 2 ? ["constant", "column", "constantColumn", "columnConstant"] : ["constant", "column"];
}

/** A sample's text at a position of a form: a class's, a type without one (`other:date`), a Nullable class's (`nullable:string`), a variant's (`variant:tuple:1`, its second sample) or `null`. */
function sampleText(sample: string, form: CallForm, position: number): string {
  const written = FORM_POSITIONS[form](position);
  if (sample === "null") return "NULL";
  if (sample.startsWith("other:")) return OTHER_TYPE_SAMPLES[sample.slice(6)]![written];
  if (sample.startsWith("nullable:")) return nullableSample(sample.slice(9) as ArgumentClass)![written];
  if (sample.startsWith("variant:")) {
    const [, variant, k] = sample.split(":");
    return variantSamples(variant!)[Number(k)]![written];
  }
  if (sample.startsWith("variantArray:")) {
    const [, variant, k] = sample.split(":");
    return arrayOfSample(variantSamples(variant!)[Number(k)]!)[written];
  }
  return SAMPLES[sample as ArgumentClass][written];
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), "quarry-probe-"));
  const session = new Session(dir);
  const samples = [...ARGUMENT_CLASSES.map((c) => SAMPLES[c]), ...Object.values(OTHER_TYPE_SAMPLES), ...NULLABLE_CLASSES.map((c) => nullableSample(c)!), ...VARIANTS.flatMap((variant) => variantSamples(variant)), ...SCALAR_VARIANTS.flatMap((variant) => variantSamples(variant).map(arrayOfSample))];
  for (const statement of probeTableStatements(samples)) session.query(statement);
  const run = (sql: string): Outcome => {
    try {
      const answer = String(session.query(sql, "TabSeparatedWithNamesAndTypes"));
      // The header's second line is the type, with TabSeparated's escaping of quotes undone.
      return { ok: true, code: null, resultType: answer.split("\n")[1]?.trim().replaceAll("\\'", "'") ?? null };
    } catch (error) {
      return { ok: false, code: errorCode(error), resultType: null };
    }
  };
  /**
   * One call, `text` its arguments; with `from` (" FROM probe"), over the probe table's columns,
   * computed on its one row (PROBE_ROW_TABLE) first. A type or count error there stands even
   * where analysis alone passes: the engine refuses some calls only as it computes them
   * (`equals` of a Nullable(String) column and a DateTime). Any other failure of the row (a
   * value it cannot parse) says nothing of types: then the call is only analysed, over the
   * empty table with LIMIT 0, as constants are.
   */
  const callTextAsWritten = (fn: string, text: string, from: string): Outcome => {
    if (from !== "") {
      const computed = run(`SELECT ${fn}(${text}) AS r FROM ${PROBE_ROW_TABLE}`);
      if (computed.ok || typeOrCountError(computed)) return computed;
    }
    return run(`SELECT ${fn}(${text}) AS r${from} LIMIT 0`);
  };
  // The int64 class stands for a UInt64 as well as the Int64 it is sampled as: a conversion the
  // engine has for the one and not the other (48: an IPv4 beside an Int64) is no refusal of the class.
  const callText = (fn: string, text: string, from = ""): Outcome => {
    const outcome = callTextAsWritten(fn, text, from);
    if (outcome.code !== 48 || text.search(SIGNED_INT64_SAMPLE) < 0) return outcome;
    const unsigned = callTextAsWritten(fn, text.replace(SIGNED_INT64_SAMPLE, (sample) => UNSIGNED_INT64_SAMPLE[sample]!), from);
    return unsigned.ok ? unsigned : outcome;
  };
  const call = (fn: string, args: readonly string[], form: CallForm): Outcome =>
    callText(fn, args.map((sample, i) => sampleText(sample, form, i)).join(", "), form === "constant" ? "" : " FROM probe");
  const table: Record<string, ProbedSignature> = {};
  const curriedSamples = [...ARGUMENT_CLASSES.map((c) => SAMPLES[c].column), ...Object.values(OTHER_TYPE_SAMPLES).map((sample) => sample.column)];
  // Named functions are probed again and replace their entries; the others keep theirs.
  const only = process.argv.slice(2);
  const allNames = [...ALLOWED_FUNCTIONS].filter((name) => !UNPROBED_FUNCTIONS.has(name)).sort();
  const names = allNames.filter((name) => only.length === 0 || only.includes(name));
  const started = Date.now();
  let calls = 0;
  const wrongCount = (o: Outcome) => o.code !== null && WRONG_COUNT.has(o.code);
  for (const name of names) {
    const counts: Record<number, ArgumentCount> = {};
    const refused: Record<number, ByForm<ArgumentClass[][]>> = {};
    const robust: Record<number, { constant: ArgumentClass[][]; column: ArgumentClass[][] }> = {};
    const besideNull: Record<number, { constant: ArgumentClass[][]; column: ArgumentClass[][] }> = {};
    const nullable: Record<number, { constant: ArgumentClass[][]; column: ArgumentClass[][] }> = {};
    const nullableBesideNull: Record<number, { constant: ArgumentClass[][]; column: ArgumentClass[][] }> = {};
    const variants: Record<number, { constant: string[][]; column: string[][] }> = {};
    const variantsBesideNull: Record<number, { constant: string[][]; column: string[][] }> = {};
    const pairs: Record<number, ByForm<string[]>> = {};
    const nullablePairs: Record<number, ByForm<string[]>> = {};
    const variantPairs: Record<number, ByForm<string[]>> = {};
    const robustPairs: Record<number, ByForm<string[]>> = {};
    const classResults: Record<number, Partial<Record<ArgumentClass, string[]>>> = {};
    const resultRules: Record<number, ResultRule> = {};
    const nullRefused: Record<number, number[]> = {};
    const nullableResults: number[] = [];
    const plainResults: number[] = [];
    const results = new Set<ArgumentClass | null>();
    // The variant of each accepted call's result (null for a type no variant names).
    const resultVariants = new Set<string | null>();
    for (let count = 0; count <= MAX_COUNTED_ARGUMENTS; count++) {
      // Most functions refuse most counts before looking at types: the same-class calls say so.
      const same = ARGUMENT_CLASSES.map((c) => call(name, new Array<ArgumentClass>(count).fill(c), "constant"));
      calls += same.length;
      if (same.every(wrongCount)) {
        counts[count] = "refused";
        continue;
      }
      if (count === 0 || count > MAX_PROBED_ARGUMENTS) {
        for (const outcome of same) {
          if (!outcome.ok) continue;
          results.add(classOfTypeName(outcome.resultType ?? ""));
          resultVariants.add(variantOfTypeName(outcome.resultType ?? ""));
        }
        counts[count] = count === 0 && same[0]!.ok ? "probed" : "unknown";
        continue;
      }
      // Positions whose class every accepted call returned (`any(x)` is of x's class).
      const resultFollows = new Array<boolean>(count).fill(true);
      // Positions whose array's element class every accepted call returned (`arrayElement(a, i)`).
      const resultIsElement = new Array<boolean>(count).fill(true);
      // Positions an array of whose type every accepted call returned (`groupArray(x)`).
      const resultIsArrayOf = new Array<boolean>(count).fill(true);
      // Position pairs whose shared class the result had whenever they agreed (`if(c, a, b)`).
      const agreeing = new Map<string, { seen: boolean; holds: boolean }>();
      for (let i = 0; i < count; i++) for (let j = i + 1; j < count; j++) agreeing.set(`${i} ${j}`, { seen: false, holds: true });
      const newForm = () => ({
        acceptedAt: Array.from({ length: count }, () => new Set<ArgumentClass>()),
        acceptedPairs: new Set<string>(),
        ok: false,
        /** One accepted call's classes: the partners robust refusals are checked beside. */
        accepted: null as ArgumentClass[] | null,
      });
      const forms = formsFor(count);
      // Per tuple of classes ("a b"), the class of every result the engine gave it (any form).
      const resultsOf = new Map<string, Set<ArgumentClass | null>>();
      const byForm = Object.fromEntries(forms.map((form) => [form, newForm()])) as Record<CallForm, ReturnType<typeof newForm>>;
      for (const args of combinations(count)) {
        for (const form of forms) {
          const outcome = call(name, args, form);
          calls += 1;
          // Anything but a type or count error counts as accepted: a value the engine cannot
          // parse, or a column where it wants a constant, is not a question of the argument's type.
          const typeRefused = typeOrCountError(outcome);
          if (!typeRefused) {
            args.forEach((c, i) => byForm[form].acceptedAt[i]!.add(c));
            for (let i = 0; i < count; i++) for (let j = i + 1; j < count; j++) byForm[form].acceptedPairs.add(pairKey(i, j, args[i]!, args[j]!));
          }
          if (outcome.ok) {
            byForm[form].ok = true;
            byForm[form].accepted ??= args;
            const resultClass = classOfTypeName(outcome.resultType ?? "");
            results.add(resultClass);
            resultVariants.add(variantOfTypeName(outcome.resultType ?? ""));
            const tuple = args.join(" ");
            resultsOf.set(tuple, (resultsOf.get(tuple) ?? new Set()).add(resultClass));
            args.forEach((c, i) => {
              if (resultClass !== c) resultFollows[i] = false;
              if (resultClass === null || resultClass !== elementClass(c)) resultIsElement[i] = false;
              if (withoutTimeZone(outcome.resultType ?? "") !== withoutTimeZone(`Array(${SAMPLES[c].type})`)) resultIsArrayOf[i] = false;
            });
            for (const [key, rule] of agreeing) {
              const [i, j] = key.split(" ").map(Number) as [number, number];
              if (args[i] !== args[j]) continue;
              rule.seen = true;
              if (resultClass !== args[i]) rule.holds = false;
            }
          }
        }
      }
      if (!forms.some((form) => byForm[form].ok)) {
        // No class the probe has fits (maps, intervals, aggregate states): nothing is known.
        counts[count] = "unknown";
        continue;
      }
      counts[count] = "probed";
      /** True when `sample` at position i, the rest as in an accepted call, is refused (`refused(outcome)`) with a NULL at each other position in turn. */
      const refusedBesideEachNull = (form: "constant" | "column", i: number, sample: string, refused: (outcome: Outcome) => boolean): boolean => {
        const base = byForm[form].accepted!;
        for (let j = 0; j < count; j++) {
          if (j === i) continue;
          const args: string[] = [...base];
          args[i] = sample;
          args[j] = "null";
          calls += 1;
          if (!refused(call(name, args, form))) return false;
        }
        return true;
      };
      // A form in which no call succeeded refuses nothing: its failures may be about what the probe lacks.
      const refusedIn = (form: CallForm) =>
        byForm[form].ok ? byForm[form].acceptedAt.map((accepted) => ARGUMENT_CLASSES.filter((c) => !accepted.has(c))) : byForm[form].acceptedAt.map(() => []);
      refused[count] = Object.fromEntries(forms.map((form) => [form, refusedIn(form)])) as unknown as ByForm<ArgumentClass[][]>;
      // A refusal is robust when it also held with every other position taking, in turn, each
      // type without a class (the rest as in an accepted call): then an argument of unknown
      // type beside it cannot make the engine take it.
      if (count >= 2) {
        const robustIn = (form: "constant" | "column") =>
          refused[count]![form]!.map((classes, i) =>
            classes.filter((cls) => {
              const base = byForm[form].accepted;
              if (!base) return false;
              for (let j = 0; j < count; j++) {
                if (j === i) continue;
                for (const other of Object.keys(OTHER_TYPE_SAMPLES)) {
                  const args: string[] = [...base];
                  args[i] = cls;
                  args[j] = `other:${other}`;
                  calls += 1;
                  if (call(name, args, form).ok) return false;
                }
              }
              return true;
            }),
          );
        robust[count] = { constant: robustIn("constant"), column: robustIn("column") };
        // Beside a NULL most functions answer NULL unjudged; aggregates and a few others still refuse.
        const besideNullIn = (form: "constant" | "column") =>
          robust[count]![form].map((classes, i) => classes.filter((cls) => refusedBesideEachNull(form, i, cls, (outcome) => !outcome.ok)));
        besideNull[count] = { constant: besideNullIn("constant"), column: besideNullIn("column") };
      }
      // The same refusal with the argument Nullable, the others as in an accepted call.
      const nullableIn = (form: "constant" | "column") =>
        refused[count]![form]!.map((classes, i) =>
          classes.filter((cls) => {
            const base = byForm[form].accepted;
            if (!base || !NULLABLE_CLASSES.includes(cls)) return false;
            const args: string[] = [...base];
            args[i] = `nullable:${cls}`;
            calls += 1;
            const outcome = call(name, args, form);
            return typeOrCountError(outcome);
          }),
        );
      nullable[count] = { constant: nullableIn("constant"), column: nullableIn("column") };
      // The same Nullable refusal with a NULL at each other position in turn: a storage that
      // computes a column as NULL puts one beside a Nullable column (`sumIf(NULL, environment)`
      // on discover_events), where most functions answer NULL unjudged but some still refuse.
      if (count >= 2) {
        const nullableBesideNullIn = (form: "constant" | "column") =>
          nullable[count]![form].map((classes, i) => classes.filter((cls) => refusedBesideEachNull(form, i, `nullable:${cls}`, typeOrCountError)));
        nullableBesideNull[count] = { constant: nullableBesideNullIn("constant"), column: nullableBesideNullIn("column") };
      }
      // Each variant at each position where a class is refused (robustly, beside others), the
      // others as in an accepted call: refused when that call fails with a type or count error,
      // with every one of the variant's samples. An array variant is tried where an array class
      // is refused. A scalar variant where any class is, and for two or more arguments it must
      // be refused beside each type without a class and each of its own samples as well (a
      // tuple of numbers takes another: `tuple(1, 2) + tuple(3, 4)`), and beside an array of
      // that sample (`has([tuple(1, 2)], tuple(1, 2))`).
      const refusedCall = (args: string[], form: CallForm) => {
        calls += 1;
        const outcome = call(name, args, form);
        return typeOrCountError(outcome);
      };
      // An array variant refused beside the accepted call's other arguments may still be taken
      // beside another array: `plus` and `minus` combine two arrays of numbers element by element
      // (`measurements.value + spans.exclusive_time`), so with two or more arguments it must be
      // refused beside each array (of a class, of a type without one, of a variant) as well.
      const arrayPartners = [
        ...ARGUMENT_CLASSES.filter((cls) => elementClass(cls) !== null),
        ...Object.keys(OTHER_TYPE_SAMPLES).filter((other) => OTHER_TYPE_SAMPLES[other]!.type.startsWith("Array(")).map((other) => `other:${other}`),
        ...ARRAY_VARIANTS.flatMap((other) => variantCallSamples(other)),
      ];
      const variantsIn = (form: "constant" | "column") =>
        (count >= 2 ? robust[count]![form] : refused[count]![form]!).map((classes, i) => {
          const base = byForm[form].accepted;
          if (!base || classes.length === 0) return [];
          const arrayRefused = classes.some((cls) => elementClass(cls) !== null);
          return VARIANTS.filter((variant) => {
            const scalar = SCALAR_VARIANTS.includes(variant);
            if (!scalar && !arrayRefused) return false;
            return variantCallSamples(variant).every((sample) => {
              const args: string[] = [...base];
              args[i] = sample;
              if (!refusedCall(args, form)) return false;
              const partners = scalar ? [...Object.keys(OTHER_TYPE_SAMPLES).map((other) => `other:${other}`), ...variantCallSamples(variant), `variantArray:${sample.slice(8)}`] : arrayPartners;
              for (let j = 0; j < count; j++) {
                if (j === i) continue;
                for (const partner of partners) {
                  const beside: string[] = [...args];
                  beside[j] = partner;
                  if (!refusedCall(beside, form)) return false;
                }
              }
              return true;
            });
          });
        });
      variants[count] = { constant: variantsIn("constant"), column: variantsIn("column") };
      // Beside a NULL, as classes are (besideNull): each sample still refused with a NULL at each
      // other position in turn (`multiIf(spans.exclusive_time_32, NULL, 1)`: a condition is a UInt8).
      if (count >= 2) {
        const variantsBesideNullIn = (form: "constant" | "column") =>
          variants[count]![form].map((found, i) => found.filter((variant) => variantCallSamples(variant).every((sample) => refusedBesideEachNull(form, i, sample, typeOrCountError))));
        variantsBesideNull[count] = { constant: variantsBesideNullIn("constant"), column: variantsBesideNullIn("column") };
      }
      // A NULL at a position: refused when every call with it there failed with a type error,
      // the others as in an accepted call and, one at a time, taking each class and each type
      // without one (so no argument beside it can make the engine take it).
      const partners = [...ARGUMENT_CLASSES, ...Object.keys(OTHER_TYPE_SAMPLES).map((other) => `other:${other}`)];
      const nullRefusedAt = (position: number) =>
        (["constant", "column"] as const).every((form) => {
          const base = byForm[form].accepted;
          if (!base) return false;
          const variants: string[][] = [[...base]];
          for (let j = 0; j < count; j++) {
            if (j === position) continue;
            for (const partner of partners) {
              const args: string[] = [...base];
              args[j] = partner;
              variants.push(args);
            }
          }
          return variants.every((args) => {
            args[position] = "null";
            calls += 1;
            const outcome = call(name, args, form);
            return !outcome.ok && outcome.code !== null && TYPE_ERRORS.has(outcome.code);
          });
        });
      const nullPositions = Array.from({ length: count }, (_, i) => i).filter(nullRefusedAt);
      if (nullPositions.length > 0) nullRefused[count] = nullPositions;
      // A Nullable argument at each position that can be one, in an accepted call: the result
      // must be the plain call's, wrapped in Nullable, every time (constants and columns).
      // Or the plain call's result as it is, every time (`ifNull`, `coalesce`, `isNull`).
      const nullableOutcomes = (["constant", "column"] as const).map((form) => {
        const base = byForm[form].accepted;
        if (!base) return "mixed";
        calls += 1;
        const plain = call(name, base, form);
        if (!plain.ok || plain.resultType === null) return "mixed";
        const seen = new Set<string>();
        for (let i = 0; i < count; i++) {
          if (!NULLABLE_CLASSES.includes(base[i]!)) continue;
          const args: string[] = [...base];
          args[i] = `nullable:${base[i]!}`;
          calls += 1;
          const outcome = call(name, args, form);
          seen.add(!outcome.ok ? "mixed" : outcome.resultType === nullableOf(plain.resultType) && !plain.resultType.includes("Nullable(") ? "wrapped" : outcome.resultType === plain.resultType ? "plain" : "mixed");
        }
        return seen.size === 1 ? [...seen][0]! : "mixed";
      });
      if (nullableOutcomes.every((outcome) => outcome === "wrapped")) nullableResults.push(count);
      if (nullableOutcomes.every((outcome) => outcome === "plain")) plainResults.push(count);
      // Two classes each taken at their position, but never together (no common type, as in
      // if(c, 'a', 1)): what the engine refuses of the pair whatever the other arguments.
      const refusedPairsIn = (form: CallForm) => {
        const { ok, acceptedAt, acceptedPairs } = byForm[form];
        const found: string[] = [];
        if (!ok) return found;
        for (let i = 0; i < count; i++)
          for (let j = i + 1; j < count; j++)
            for (const a of acceptedAt[i]!) for (const b of acceptedAt[j]!) if (!acceptedPairs.has(pairKey(i, j, a, b))) found.push(pairKey(i, j, a, b));
        return found;
      };
      const follows = resultFollows.indexOf(true);
      const element = resultIsElement.indexOf(true);
      const agreed = [...agreeing].find(([, rule]) => rule.seen && rule.holds)?.[0];
      if (follows >= 0) resultRules[count] = { from: follows };
      else if (element >= 0) resultRules[count] = { elementOf: element };
      else if (agreed !== undefined) resultRules[count] = { agreeing: agreed.split(" ").map(Number) as [number, number] };
      else if (resultIsArrayOf.includes(true)) resultRules[count] = { arrayOf: resultIsArrayOf.indexOf(true) };
      // Without a rule, the result's class per tuple of argument classes, where every form gave
      // the same one (`divide` of two numbers is a Float64, of an array an Array(Float64)); up
      // to two arguments, which keeps the table small.
      if (resultRules[count] === undefined && count <= 2) {
        const byResult: Partial<Record<ArgumentClass, string[]>> = {};
        for (const [tuple, seen] of resultsOf) {
          const only = seen.size === 1 ? [...seen][0]! : null;
          if (only !== null) (byResult[only] ??= []).push(tuple);
        }
        if (Object.keys(byResult).length > 0) classResults[count] = byResult;
      }
      const pairsByForm = forms.map((form) => [form, refusedPairsIn(form)] as const);
      if (pairsByForm.some(([, found]) => found.length > 0)) pairs[count] = Object.fromEntries(pairsByForm) as unknown as ByForm<string[]>;
      /** A refused pair ("i j a b") again with `replacement` at one of its positions (and `also` at another), the others as in an accepted call: still a type error? */
      const refusedWith = (form: CallForm, key: string, position: number, replacement: string, also?: readonly [number, string]) => {
        const base = byForm[form].accepted!;
        const [i, j, a, b] = key.split(" ");
        const args: string[] = [...base];
        args[Number(i)] = a!;
        args[Number(j)] = b!;
        args[position] = replacement;
        if (also) args[also[0]] = also[1];
        calls += 1;
        const outcome = call(name, args, form);
        return !outcome.ok && outcome.code !== null && TYPE_ERRORS.has(outcome.code);
      };
      /** Per form, what `held` finds of its refused pairs, written where any form found something. */
      const recordPairs = (into: Record<number, ByForm<string[]>>, held: (form: CallForm, key: string, i: number, j: number, a: ArgumentClass, b: ArgumentClass) => string[]) => {
        const byFormHeld = pairsByForm.map(([form, found]) => {
          if (!byForm[form].accepted) return [form, []] as const;
          const list = found.flatMap((key) => {
            const [i, j, a, b] = key.split(" ") as [string, string, ArgumentClass, ArgumentClass];
            return held(form, key, Number(i), Number(j), a, b);
          });
          return [form, [...new Set(list)]] as const;
        });
        if (byFormHeld.some(([, list]) => list.length > 0)) into[count] = Object.fromEntries(byFormHeld) as unknown as ByForm<string[]>;
      };
      // Each refused pair again with one of the two Nullable: most functions judge the types
      // inside the Nullable.
      // And with both Nullable ("i j a b both"): `ip_address_v4 = toNullable(now())`.
      recordPairs(nullablePairs, (form, key, i, j, a, b) => {
        const one = ([[i, a], [j, b]] as const).filter(([position, cls]) => NULLABLE_CLASSES.includes(cls) && refusedWith(form, key, position, `nullable:${cls}`)).map(([position]) => `${key} ${position}`);
        const both = NULLABLE_CLASSES.includes(a) && NULLABLE_CLASSES.includes(b) && refusedWith(form, key, i, `nullable:${a}`, [j, `nullable:${b}`]);
        return both ? [...one, `${key} both`] : one;
      });
      // Each refused pair again with a variant in place of one of the two, with every sample of
      // it: an array variant in place of an array class (`has(spans.exclusive_time_32, 'x')`: an
      // Array(Float32) and a string), a scalar variant in place of any (`tuple(1, 'a') = 5`).
      // Where the other of the two can be Nullable, it is tried Nullable too ("i j first second
      // n", n its position): `ip_address_v6 > exception_main_thread`, a Nullable(IPv6) and a
      // Nullable(UInt8).
      // A pair of two array classes is tried with an array variant in place of each as well
      // ("i j first second", both variants' names): `spans.exclusive_time / measurements.value`,
      // an Array(Float32) and an Array(Float64).
      recordPairs(variantPairs, (form, key, i, j, a, b) => {
        const arrayVariantsAt = (cls: ArgumentClass) => (elementClass(cls) === null ? [] : ARRAY_VARIANTS);
        const bothVariants = arrayVariantsAt(a).flatMap((first) =>
          arrayVariantsAt(b)
            .filter((second) => variantCallSamples(first).every((x) => variantCallSamples(second).every((y) => refusedWith(form, key, i, x, [j, y]))))
            .map((second) => `${i} ${j} ${first} ${second}`),
        );
        return ([[i, a, j, b], [j, b, i, a]] as const).flatMap(([position, cls, other, otherCls]) =>
          VARIANTS.filter((variant) => (SCALAR_VARIANTS.includes(variant) || elementClass(cls) !== null) && variantCallSamples(variant).every((sample) => refusedWith(form, key, position, sample))).flatMap((variant) => {
            const pair = position === i ? `${i} ${j} ${variant} ${b}` : `${i} ${j} ${a} ${variant}`;
            const withNullable = NULLABLE_CLASSES.includes(otherCls) && variantCallSamples(variant).every((sample) => refusedWith(form, key, position, sample, [other, `nullable:${otherCls}`]));
            return withNullable ? [pair, `${pair} ${other}`] : [pair];
          }),
        ).concat(bothVariants);
      });
      // A class refused at a position beside every class but not beside every type without one
      // is no robust refusal (`has(a, now())` takes a DateTime beside an Array(DateTime)), so the
      // pass cannot apply it beside a variant. Each such refusal is tried again with each variant
      // at each other position, the rest as in an accepted call, and kept as a variant pair
      // where every sample refused it (`has(array(NULL, platform), now())`: an
      // Array(Nullable(String)) and a DateTime); with the class Nullable too, where it can be.
      if (count >= 2) {
        for (const form of forms) {
          const base = byForm[form].accepted;
          if (!base) continue;
          const robustAt = (i: number): readonly ArgumentClass[] =>
            form === "constant" || form === "column" ? (robust[count]![form][i] ?? []) : (robust[count]!.constant[i] ?? []).filter((cls) => robust[count]!.column[i]?.includes(cls));
          const found: string[] = [];
          for (let p = 0; p < count; p++) {
            for (const cls of refused[count]![form]![p]!) {
              if (robustAt(p).includes(cls)) continue;
              for (let k = 0; k < count; k++) {
                if (k === p) continue;
                for (const variant of VARIANTS) {
                  const refusedBeside = (written: string) =>
                    variantCallSamples(variant).every((sample) => {
                      const args: string[] = [...base];
                      args[p] = written;
                      args[k] = sample;
                      return refusedCall(args, form);
                    });
                  if (!refusedBeside(cls)) continue;
                  const pair = k < p ? `${k} ${p} ${variant} ${cls}` : `${p} ${k} ${cls} ${variant}`;
                  found.push(pair);
                  if (NULLABLE_CLASSES.includes(cls) && refusedBeside(`nullable:${cls}`)) found.push(`${pair} ${p}`);
                }
              }
            }
          }
          // Two variants together, where the function refuses some pair of classes (comparisons,
          // arithmetic, has, concat, ...): a pair of variants neither of which is recorded as
          // refused alone there, refused with every sample of each (`ip_address_v6 / spans.exclusive_time`, a
          // Nullable(IPv6) and an Array(Float32); `tuple(a) <= array(x, 'y')`).
          if (count === 2 && pairsByForm.some(([, pairsFound]) => pairsFound.length > 0)) {
            // Not a variant recorded as refused there alone: the pass refuses it beside anything.
            const refusedAlone = (position: number): readonly string[] => (form === "constant" || form === "column" ? (variants[count]?.[form][position] ?? []) : []);
            const first = VARIANTS.filter((variant) => !refusedAlone(0).includes(variant));
            const second = VARIANTS.filter((variant) => !refusedAlone(1).includes(variant));
            for (const a of first)
              for (const b of second)
                if (variantCallSamples(a).every((x) => variantCallSamples(b).every((y) => refusedCall([x, y], form)))) found.push(`0 1 ${a} ${b}`);
            // A class taken at its position beside every class, and a variant taken alone at the
            // other, refused together (`divide(x, ip_address_v4)` of a Float64 x, a Nullable(IPv4)):
            // no refused pair of classes leads to it; with the class Nullable too, where it can be.
            // (In a mixed form, not a variant refused alone there both as a constant and as a column.)
            const refusedClasses = (position: number): readonly ArgumentClass[] => refused[count]![form]?.[position] ?? [];
            const refusedEither = (position: number, variant: string): boolean =>
              refusedAlone(position).includes(variant) || (variants[count]?.constant[position]?.includes(variant) === true && variants[count]?.column[position]?.includes(variant) === true);
            for (const [p, k] of [[0, 1], [1, 0]] as const) {
              for (const cls of ARGUMENT_CLASSES) {
                if (refusedClasses(p).includes(cls)) continue;
                for (const variant of VARIANTS) {
                  if (refusedEither(k, variant)) continue;
                  const refusedBeside = (written: string) =>
                    variantCallSamples(variant).every((sample) => {
                      const args: string[] = [];
                      args[p] = written;
                      args[k] = sample;
                      return refusedCall(args, form);
                    });
                  if (!refusedBeside(cls)) continue;
                  const pair = p === 0 ? `0 1 ${cls} ${variant}` : `0 1 ${variant} ${cls}`;
                  found.push(pair);
                  if (NULLABLE_CLASSES.includes(cls) && refusedBeside(`nullable:${cls}`)) found.push(`${pair} ${p}`);
                }
              }
            }
          }
          if (found.length === 0) continue;
          const byFormPairs = (variantPairs[count] ??= Object.fromEntries(forms.map((f) => [f, []])) as unknown as ByForm<string[]>) as Record<CallForm, string[] | undefined>;
          byFormPairs[form] = [...new Set([...(byFormPairs[form] ?? []), ...found])];
        }
      }
      // From three arguments, each refused pair again with every other position taking, in
      // turn, each type without a class and a NULL: `greatest('x', 1, c)` finds no common type
      // whatever c is, so the pair is refused beside an argument the pass cannot type.
      if (count >= 3) {
        const beside = [...Object.keys(OTHER_TYPE_SAMPLES).map((other) => `other:${other}`), "null"];
        recordPairs(robustPairs, (form, key, i, j) =>
          Array.from({ length: count }, (_, k) => k)
            .filter((k) => k !== i && k !== j)
            .every((k) => beside.every((sample) => refusedWith(form, key, k, sample)))
            ? [key]
            : [],
        );
      }
    }
    const result = results.size === 1 ? [...results][0]! : null;
    const resultVariant = results.size === 1 && result === null && resultVariants.size === 1 ? [...resultVariants][0]! : null;
    // A function whose every result has one class needs no result per tuple.
    if (result !== null) for (const count of Object.keys(classResults)) delete classResults[Number(count)];
    // A lambda: the higher-order array functions take one before their arrays, nothing else
    // does. Only a call that succeeds counts: other functions refuse a lambda with codes that
    // vary (43, 1, 36, ...).
    const takes = (args: string) => {
      calls += 1;
      return callText(name, args).ok;
    };
    const lambda = takes("x -> 1, [1]") || takes("x -> 1, [1], [1]") || takes("(x, y) -> 1, [1], [1]");
    const lambdaAlone = lambda && takes("x -> 1");
    // What a higher-order function refuses after its lambda: each position, each class, with
    // the lambda returning a constant and returning its first parameter (so a refusal is not
    // about the body), the other array an array of numbers.
    const afterLambda: Record<number, { constant: ArgumentClass[][]; column: ArgumentClass[][] }> = {};
    if (lambda) {
      for (const arrays of [1, 2]) {
        const params = arrays === 1 ? "x" : "(x, y)";
        const refusedAfter = (form: "constant" | "column") =>
          Array.from({ length: arrays }, (_, position) =>
            ARGUMENT_CLASSES.filter((cls) =>
              ["1", "x"].every((body) => {
                const rest = Array.from({ length: arrays }, (_, i) => (i === position ? SAMPLES[cls][form] : SAMPLES.arrayNumber[form])).join(", ");
                calls += 1;
                const outcome = callText(name, `${params} -> ${body}, ${rest}`, form === "column" ? " FROM probe" : "");
                return !outcome.ok && outcome.code !== null && TYPE_ERRORS.has(outcome.code);
              }),
            ),
          );
        const found = { constant: refusedAfter("constant"), column: refusedAfter("column") };
        // Only when a call with arrays succeeds: otherwise this shape is not one the function takes.
        if (takes(`${params} -> 1, ${Array.from({ length: arrays }, () => "[1]").join(", ")}`)) afterLambda[arrays] = found;
      }
    }
    // The classes a higher-order function refuses its lambda to return, with one array after
    // it: a body of each class, constant and column (`arrayFilter(x -> now(), a)` is code 43: a
    // filter's lambda returns a UInt8).
    const lambdaBodyRefused =
      lambda && takes("x -> 1, [1]")
        ? ARGUMENT_CLASSES.filter((cls) =>
            (["constant", "column"] as const).every((form) => {
              calls += 1;
              const outcome = callText(name, `x -> ${SAMPLES[cls][form]}, [1]`, form === "column" ? " FROM probe" : "");
              return !outcome.ok && outcome.code !== null && TYPE_ERRORS.has(outcome.code);
            }),
          )
        : [];
    // Curried calls (`quantiles(0.5)(x)`), with 0 to MAX_CURRIED_PARAMETERS parameters (each a
    // 1, which every parametric function here takes as a value) and 1 to 4 arguments of one
    // class or type without one: a count is refused when every such call was. Zero arguments is
    // a syntax error.
    const curried: Record<number, "refused" | number[]> = {};
    for (let params = 0; params <= MAX_CURRIED_PARAMETERS; params++) {
      const head = `${name}(${new Array<string>(params).fill("1").join(", ")})`;
      const refusedCounts: number[] = [];
      for (let count = 1; count <= MAX_COUNTED_ARGUMENTS; count++) {
        // Some functions judge the arguments' types before their count: a type error counts too,
        // as long as every sample failed and one of them on the count or the parameters.
        const codes = curriedSamples.map((column) => {
          calls += 1;
          const outcome = callText(head, new Array<string>(count).fill(column).join(", "), " FROM probe");
          return outcome.ok ? null : outcome.code;
        });
        const refusedWithAll = codes.every((code) => code !== null && (WRONG_PARAMETERS.has(code) || TYPE_ERRORS.has(code)));
        if (refusedWithAll && codes.some((code) => WRONG_PARAMETERS.has(code!))) refusedCounts.push(count);
      }
      if (refusedCounts.length === MAX_COUNTED_ARGUMENTS) curried[params] = "refused";
      else if (refusedCounts.length > 0) curried[params] = refusedCounts;
    }
    table[name] = { counts, refused, robust, besideNull, nullable, nullableBesideNull, pairs, results: resultRules, lambda, lambdaAlone, afterLambda, lambdaBodyRefused, result, nullRefused, curried, nullableResults, plainResults, variants, variantsBesideNull, nullablePairs, variantPairs, robustPairs, classResults, resultVariant };
    process.stderr.write(`${name}: ${JSON.stringify(table[name])}\n`);
  }
  const version = String(session.query("SELECT version()", "TabSeparated")).trim();
  session.cleanup?.();
  rmSync(dir, { recursive: true, force: true });

  const classes = (list: readonly ArgumentClass[]) => `[${list.map((c) => `"${c}"`).join(", ")}]`;
  const positions = (list: readonly (readonly ArgumentClass[])[]) => `[${list.map(classes).join(", ")}]`;
  const lines = allNames.map((name) => {
    // `Object.hasOwn`: a name such as `toString` is also an Object method.
    const entry = Object.hasOwn(table, name) ? table[name]! : PROBED_FUNCTION_SIGNATURES.get(name)!;
    const counts = Object.entries(entry.counts)
      .map(([n, state]) => `${n}: "${state}"`)
      .join(", ");
    const byForm = <T>(forms: ByForm<T>, show: (value: T) => string) =>
      `{ ${Object.entries(forms)
        .map(([form, value]) => `${form}: ${show(value as T)}`)
        .join(", ")} }`;
    const anyRefused = (forms: ByForm<readonly (readonly ArgumentClass[])[]>) => Object.values(forms).some((p) => p!.some((at) => at.length > 0));
    const refused = Object.entries(entry.refused)
      .filter(([, forms]) => anyRefused(forms!))
      .map(([n, forms]) => `${n}: ${byForm(forms!, positions)}`)
      .join(", ");
    const robust = Object.entries(entry.robust)
      .filter(([, forms]) => anyRefused(forms!))
      .map(([n, forms]) => `${n}: ${byForm(forms!, positions)}`)
      .join(", ");
    const besideNull = Object.entries(entry.besideNull)
      .filter(([, forms]) => anyRefused(forms!))
      .map(([n, forms]) => `${n}: ${byForm(forms!, positions)}`)
      .join(", ");
    const nullable = Object.entries(entry.nullable)
      .filter(([, forms]) => anyRefused(forms!))
      .map(([n, forms]) => `${n}: ${byForm(forms!, positions)}`)
      .join(", ");
    const nullableBesideNull = Object.entries(entry.nullableBesideNull)
      .filter(([, forms]) => anyRefused(forms!))
      .map(([n, forms]) => `${n}: ${byForm(forms!, positions)}`)
      .join(", ");
    const pairs = Object.entries(entry.pairs)
      .map(([n, forms]) => `${n}: ${byForm(forms!, (list) => JSON.stringify(list))}`)
      .join(", ");
    const nullablePairs = Object.entries(entry.nullablePairs)
      .map(([n, forms]) => `${n}: ${byForm(forms!, (list) => JSON.stringify(list))}`)
      .join(", ");
    const variantPairs = Object.entries(entry.variantPairs)
      .map(([n, forms]) => `${n}: ${byForm(forms!, (list) => JSON.stringify(list))}`)
      .join(", ");
    const classResults = Object.entries(entry.classResults)
      .map(([n, byResult]) => `${n}: { ${Object.entries(byResult!).map(([cls, tuples]) => `${cls}: ${JSON.stringify(tuples)}`).join(", ")} }`)
      .join(", ");
    const robustPairs = Object.entries(entry.robustPairs)
      .map(([n, forms]) => `${n}: ${byForm(forms!, (list) => JSON.stringify(list))}`)
      .join(", ");
    const afterLambda = Object.entries(entry.afterLambda)
      .map(([n, forms]) => `${n}: ${byForm(forms!, positions)}`)
      .join(", ");
    const results = Object.entries(entry.results)
      .map(([n, rule]) => `${n}: ${JSON.stringify(rule).replace(/"(\w+)":/g, "$1: ")}`)
      .join(", ");
    const nullRefused = Object.entries(entry.nullRefused)
      .map(([n, at]) => `${n}: ${JSON.stringify(at)}`)
      .join(", ");
    const named = (list: readonly (readonly string[])[]) => `[${list.map((at) => `[${at.map((v) => `"${v}"`).join(", ")}]`).join(", ")}]`;
    const variants = Object.entries(entry.variants)
      .filter(([, forms]) => Object.values(forms!).some((p) => p.some((at) => at.length > 0)))
      .map(([n, forms]) => `${n}: { constant: ${named(forms!.constant)}, column: ${named(forms!.column)} }`)
      .join(", ");
    const variantsBesideNull = Object.entries(entry.variantsBesideNull)
      .filter(([, forms]) => Object.values(forms!).some((p) => p.some((at) => at.length > 0)))
      .map(([n, forms]) => `${n}: { constant: ${named(forms!.constant)}, column: ${named(forms!.column)} }`)
      .join(", ");
    const curried = Object.entries(entry.curried)
      .map(([n, refused]) => `${n}: ${JSON.stringify(refused)}`)
      .join(", ");
    return `  [${JSON.stringify(name)}, { counts: { ${counts} }, refused: { ${refused} }, robust: { ${robust} }, besideNull: { ${besideNull} }, nullable: { ${nullable} }, nullableBesideNull: { ${nullableBesideNull} }, pairs: { ${pairs} }, results: { ${results} }, lambda: ${entry.lambda}, lambdaAlone: ${entry.lambdaAlone}, afterLambda: { ${afterLambda} }, lambdaBodyRefused: ${JSON.stringify(entry.lambdaBodyRefused)}, result: ${entry.result ? `"${entry.result}"` : "null"}, nullRefused: { ${nullRefused} }, curried: { ${curried} }, nullableResults: ${JSON.stringify(entry.nullableResults)}, plainResults: ${JSON.stringify(entry.plainResults)}, variants: { ${variants} }, variantsBesideNull: { ${variantsBesideNull} }, nullablePairs: { ${nullablePairs} }, variantPairs: { ${variantPairs} }, robustPairs: { ${robustPairs} }, classResults: { ${classResults} }, resultVariant: ${entry.resultVariant ? `"${entry.resultVariant}"` : "null"} }],`;
  });
  const out = `/**
 * What the embedded engine (ClickHouse ${version} in chDB) refuses, per allowed function:
 * for each argument count up to ${MAX_COUNTED_ARGUMENTS}, whether the count is refused, probed or unknown; for
 * probed counts, the argument classes refused at each position when all arguments are constants,
 * when all are columns and (two arguments) one of each; which of those refusals are robust (held
 * beside types without a class), which of those also held beside a NULL, and which held with the
 * argument Nullable (alone, and beside a NULL); the pairs of classes refused together ("i j classI classJ",
 * positions from 0); how the result's class follows the arguments' (an argument's, the elements
 * of an array argument, two arguments' when they agree), where it always does; whether a
 * lambda is taken (before arrays, and alone) and what is refused after it; the result's
 * class when it is always the same; where a NULL is refused; what curried calls refuse
 * per number of parameters; the counts where a Nullable argument makes the result Nullable,
 * or leaves it as it is; the types without a class (variants: arrays, tuples, maps, ...)
 * refused at each position; and the refused pairs still refused with one of the two Nullable,
 * with a variant in place of one of them, or (three arguments and more) beside any type and a
 * NULL at the other positions; up to two arguments where no rule says it, the result's class
 * per tuple of argument classes; and the variant every result was, where no class fits it
 * (toDate(x) is a Date).
 * Written by scripts/functions/probe-function-signatures.ts: do not edit by hand, run it again.
 */
import type { ProbedSignature } from "./argument-classes.js";

export const PROBED_FUNCTION_SIGNATURES: ReadonlyMap<string, ProbedSignature> = new Map<string, ProbedSignature>([
${lines.join("\n")}
]);
`;
  writeFileSync(join(import.meta.dirname, "../../src/pipeline/probed-function-signatures.ts"), out);
  process.stderr.write(`${names.length} functions, ${calls} calls in ${Math.round((Date.now() - started) / 1000)} s\n`);
}

main();
