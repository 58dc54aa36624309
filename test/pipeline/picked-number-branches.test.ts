/**
 * An `if` or `multiIf` of numbers whose condition is a constant keeps the branches' common type:
 * the engine folds the call's value, not its type (`if(2, 1.5, duration)` is a Float64, which
 * `ip_address_v4 / …` refuses, code 43; seed 27). The typing pass gives it that type
 * (typing/branch-types.ts, branchesType) where no branch is a NULL; this holds the type and what
 * the pass refuses with it to the embedded engine, both ways.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine, typesAgainstEngine } from "../support/typing-pass.js";

const ip = variantSamples("nullableIPv4")[0]!;
const samples = [ip, ...(["uint8", "uint32", "int64", "float64", "string"] as const).map((cls) => CLASS_SAMPLES[cls])];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("picked-number-branches", samples);
const [address, n8, n32, n64, f, s] = samples.map((sample) => sample.column) as [string, string, string, string, string, string];

/** Branches of numbers under a constant condition, with the type the engine gives each. */
const BRANCHES = [`if(2, 1.5, ${n32})`, `if(0, 1, ${n32})`, `multiIf(1, 2, 0, 1.5, ${n32})`, `if(1, ${n8}, ${n32})`, `if(NULL, 1.5, ${n32})`, `if(1, ${n64}, ${n8})`, `multiIf(0, ${f}, 1, ${n8}, 3)`];
const ENGINE_NAMES: Record<string, string> = { uint8: "UInt8", uint32: "UInt32", int64: "Int64", float64: "Float64" };

describe("an if of numbers under a constant condition", () => {
  it("is of the branches' common type, as the engine types it", async () => {
    const name = (pass: { cls: string | null; variant: string | null; integer: string | null }) => pass.integer ?? (pass.cls === null ? null : ENGINE_NAMES[pass.cls]) ?? `${pass.cls ?? pass.variant}`;
    expect(await typesAgainstEngine(engine, entity, BRANCHES, PROBE_ROW_TABLE, name)).toEqual([]);
  });

  it("given to a function is refused by the pass exactly where the engine refuses it", async () => {
    const calls = BRANCHES.flatMap((branches) => [`divide(${address}, ${branches})`, `multiply(${branches}, ${address})`, `less(${branches}, ${s})`, `like(${branches}, 'a')`, `bitAnd(${branches}, 1)`]);
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(BRANCHES.length * 2);
  });
});
