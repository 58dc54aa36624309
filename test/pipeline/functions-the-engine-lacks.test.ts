/**
 * Names Snuba's allow-list takes that this ClickHouse has no function for
 * (function-allow-list.ts, FUNCTIONS_THE_ENGINE_LACKS): the engine fails every call to them (code
 * 46), so the front end refuses them while it validates, naming what to write instead, which the
 * engine answers.
 */
import { describe, expect, it } from "vitest";
import { FUNCTIONS_THE_ENGINE_LACKS, isAllowedFunction } from "../../src/clickhouse/function-allow-list.js";
import { snqlRefusal } from "../support/snql-refusal.js";
import { useStatementsEngine } from "../support/scratch-engine.js";

const engine = useStatementsEngine("functions-the-engine-lacks", [
  "CREATE TABLE words (word String) ENGINE = MergeTree ORDER BY tuple()",
  "INSERT INTO words VALUES ('quarry')",
]);
const R = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";

describe("a function Snuba names that ClickHouse lacks", () => {
  it("fails in the engine, is refused at its position with what to write instead, and the replacement runs", async () => {
    for (const [name, instead] of FUNCTIONS_THE_ENGINE_LACKS) {
      expect(isAllowedFunction(name), name).toBe(false);
      expect(await engine.code(`SELECT ${name}(word) FROM words`), name).toBe(46);
      expect(await engine.code(`SELECT ${instead.replace("x", "word")} FROM words`), instead).toBeNull();
      const query = `MATCH (events) SELECT ${name}(title) AS v WHERE ${R} AND project_id = 1`;
      const error = snqlRefusal(query);
      expect(error?.type, name).toBe("invalid_query");
      expect(error?.message, name).toContain(`'${name}' at line 1, column 23 is a function Snuba names that ClickHouse does not have: write ${instead}`);
      expect(error?.position, name).toEqual({ line: 1, column: 23 });
    }
  });
});
