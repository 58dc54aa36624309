/**
 * The right of IN is a set only where ClickHouse's analyzer folds it to a constant: it reads no
 * column. A call that reads one is compared with the left as `=` compares, although its value is
 * one constant (`'staging' IN coalesce(0.5, user_email)` on replays: coalesce returns its first
 * argument that cannot be NULL, isConstant is 1, and still code 72; seed 18). An `if` whose
 * condition is a literal is replaced by its branch first (`'staging' IN if(1, 0.5, s)` is the
 * set 0.5, answered). The typing pass judges both so (argument-types.ts, readsColumnUnfolded);
 * this holds it to the embedded engine both ways.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { checkArgumentTypes } from "../../src/pipeline/argument-types.js";
import { collectAliases } from "../../src/pipeline/alias-resolution.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passRefusal } from "../support/typing-pass.js";

const samples = (["string", "uint8", "datetime"] as const).map((cls) => CLASS_SAMPLES[cls]);
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("unfolded-sets", samples);
const [s, c, d] = samples.map((sample) => sample.column);

/** Texts on the left: one no number or DateTime reads, one a float reads, one a DateTime reads. */
const lefts = ["'staging'", "'0.5'", "'2024-01-01 00:00:00'"];
/** Constants computed beside a column, folded or not; and the same beside constants alone. */
const rights = [
  `coalesce(0.5, ${s})`,
  `ifNull(0.5, ${s})`,
  `coalesce(now(), ${s})`,
  `coalesce(NULL, 0.5, ${s})`,
  `if(1, 0.5, ${s})`,
  `if(0, 0.5, ${s})`,
  `if(1, ${s}, 0.5)`,
  `if(TRUE, now(), ${c})`,
  `multiIf(1, 0.5, ${s})`,
  `coalesce(0.5, 'x')`,
  `abs(0.5)`,
  `if(1, 0.5, 1.5)`,
  `coalesce(${d}, now())`,
];

describe("a constant computed from a column on the right of IN", () => {
  it("is compared as = compares where the analyzer cannot fold it, and is a set where it can: the pass refuses exactly what the engine refuses", async () => {
    const wrong: string[] = [];
    const verdicts = { refused: 0, taken: 0 };
    for (const left of lefts)
      for (const right of rights) {
        const sql = `in(${left}, ${right})`;
        const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
        const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
        verdicts[refusal === null ? "taken" : "refused"]++;
        if (refusal !== null && code === null) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 100)}), the engine answers`);
        if (refusal === null && code !== null) wrong.push(`${sql}: the engine refuses it (${code}), the pass takes it`);
      }
    expect(wrong).toEqual([]);
    expect(verdicts.refused).toBeGreaterThan(4);
    expect(verdicts.taken).toBeGreaterThan(10);
  });

  it("named by an alias, is what the alias names: a call compared as = compares, a bare column a set of one (found by the fuzz: 0 NOT IN level, with tags[transaction] AS level, code 386, seed 22)", async () => {
    const wrong: string[] = [];
    const verdicts = { refused: 0, taken: 0 };
    for (const left of ["0", ...lefts])
      for (const definition of [`lower(${s})`, s, `coalesce(0.5, ${s})`, `if(1, 0.5, ${s})`, `concat(${s}, 'x')`]) {
        const snql = parseSnql(`MATCH (x) SELECT ${definition} AS a, a AS b WHERE notIn(${left}, b)`);
        let refusal: string | null = null;
        try {
          checkArgumentTypes(snql, () => entity, collectAliases(snql));
        } catch (error) {
          refusal = (error as Error).message;
        }
        const sql = `SELECT ${definition} AS a, a AS b FROM ${PROBE_ROW_TABLE} WHERE notIn(${left}, b)`;
        const code = await engine.code(sql);
        verdicts[refusal === null ? "taken" : "refused"]++;
        if ((refusal === null) !== (code === null)) wrong.push(`${sql}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 100)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
      }
    expect(wrong).toEqual([]);
    expect(verdicts.refused).toBeGreaterThanOrEqual(4);
    expect(verdicts.taken).toBeGreaterThan(4);
  });
});
