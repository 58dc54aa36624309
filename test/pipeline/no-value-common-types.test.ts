/**
 * greatest and least find their arguments' common type while the query is planned, also of a
 * value no row holds (`if(1, NULL, x)`, a Nullable of x's type): `greatest(span_id, if(1,
 * spans.op, 'production'))` on discover, whose spans.op is NULL, is code 386 with no row read
 * (seed 39; typing/judge.ts, judgeHoldingNoValue). This holds the pass to the embedded engine,
 * both ways, over every pair of the classes a Nullable holds.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const samples = NULLABLE_CLASSES.map((cls) => CLASS_SAMPLES[cls]);
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("no-value-common-types", samples);

describe("greatest and least of a value no row holds", () => {
  it("are refused exactly where the engine finds no common type", async () => {
    // Beside a NULL too, which has every type (`greatest(span_id, if(1, spans.op, 'x'), now() + url)`, url NULL on discover).
    const calls = ["greatest", "least"].flatMap((name) => samples.flatMap((a) => samples.flatMap((b) => [`${name}(${a.column}, if(1, NULL, ${b.column}))`, `${name}(${a.column}, if(1, NULL, ${b.column}), NULL)`])));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    // A text beside any other class, a UUID beside any other, ... (the engine refuses them too).
    expect(refused).toBeGreaterThan(calls.length / 4);
  });
});
