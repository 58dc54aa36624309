/**
 * ARRAY JOIN joins arrays (and maps): the typing pass refuses a column of a scalar class there
 * (argument-types.ts, refuseScalarsArrayJoined), as ClickHouse does (code 53, "ARRAY JOIN requires
 * expression … with Array or Map type"; seed 13: `ARRAY JOIN date_added` on groupassignee). This
 * holds the engine to it for every class, and the pass on the demo entities' columns. So are
 * expressions of a known type that is no array or map: a tuple (`ARRAY JOIN tuple(date_added,
 * project_id, date_added)`; seed 16), a Date, a number.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE, elementClass, nullableSample } from "../../src/pipeline/argument-classes.js";
import { prepareSnqlQuery } from "../../src/pipeline/run-snql-query.js";
import { checkArgumentTypes } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity } from "../support/scratch-engine.js";
import { useProbeTablesEngine } from "../support/scratch-engine.js";

const samples = [...ARGUMENT_CLASSES.map((cls) => ({ cls, ...CLASS_SAMPLES[cls] })), ...NULLABLE_CLASSES.map((cls) => ({ cls, ...nullableSample(cls)! }))];
const R = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";

const engine = useProbeTablesEngine("array-join-columns", samples);

describe("ARRAY JOIN of a column", () => {
  it("is refused by the engine for every scalar class, plain or Nullable, and taken for arrays", async () => {
    for (const sample of samples) {
      const isArray = elementClass(sample.cls) !== null;
      expect(await engine.code(`SELECT 1 FROM ${PROBE_ROW_TABLE} ARRAY JOIN ${sample.column}`), sample.type).toBe(isArray ? null : 53);
    }
  });

  it("of a scalar class is refused by the pass with its position; of an array, taken", () => {
    const registry = defaultRegistry();
    const refusal = (query: string): string | null => {
      try {
        prepareSnqlQuery(registry, query, false);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal("MATCH (groupassignee) SELECT team_id * group_id ARRAY JOIN date_added WHERE project_id = 1")).toBe(
      "column date_added at line 1, column 60 is a datetime (Nullable), and ARRAY JOIN joins the elements of an array (or a map): ClickHouse refuses anything else",
    );
    for (const column of ["project_id", "title", "event_id", "timestamp"]) {
      expect(refusal(`MATCH (events) SELECT count() AS c ARRAY JOIN ${column} WHERE project_id = 1 AND ${R}`), column).toContain("ARRAY JOIN joins the elements of an array");
    }
    expect(refusal(`MATCH (events) SELECT count() AS c BY tags.key ARRAY JOIN tags.key WHERE project_id = 1 AND ${R}`)).toBeNull();
  });

  it("of an expression is refused by the pass where its type is no array or map, as the engine refuses it, and taken for arrays", async () => {
    const entity = probeColumnsEntity(samples);
    const { c_datetime: d, c_uint8: u, c_string: s, c_array_string: strings } = Object.fromEntries(samples.map((sample) => [sample.column, sample.column]));
    const cases: Array<[string, boolean]> = [
      [`tuple(${d}, ${u}, ${d})`, true],
      [`toDate(${d})`, true],
      [`length(${s})`, true],
      [`array(${d})`, false],
      [`if(${u} = 1, array(1), array(2))`, false],
      [`arrayFilter((\`x\`) -> notEquals(\`x\`, ''), ${strings})`, false],
    ];
    const wrong: string[] = [];
    for (const [expression, refused] of cases) {
      // A query over the probe's columns, judged as the pipeline judges a one-entity query.
      const query = parseSnql(`MATCH (x) SELECT 1 AS one ARRAY JOIN ${expression}`);
      const refusal = (() => {
        try {
          checkArgumentTypes(query, () => entity, new Map());
          return null;
        } catch (error) {
          return (error as Error).message;
        }
      })();
      const code = await engine.code(`SELECT 1 FROM ${PROBE_ROW_TABLE} ARRAY JOIN ${expression}`);
      if ((refusal !== null) !== refused) wrong.push(`${expression}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal})`}`);
      if ((code === 53) !== refused) wrong.push(`${expression}: the engine ${code === null ? "answers" : `fails (${code})`}`);
    }
    expect(wrong).toEqual([]);
  });
});
