/** The typing pass fails open: a refusal stands, any other exception is counted and the query goes on. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { invalidQuery } from "../../src/errors/query-service-error.js";
import { judgedFailingOpen, typingPassFailures } from "../../src/pipeline/typing-pass-guard.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the typing pass's guard", () => {
  it("lets a refusal through as it is", () => {
    const before = typingPassFailures();
    expect(() => judgedFailingOpen(() => {
      throw invalidQuery("upper does not take an integer", { line: 1, column: 8 });
    }, () => "MATCH (events) SELECT upper(project_id)")).toThrow("upper does not take an integer");
    expect(typingPassFailures()).toBe(before);
  });

  it("counts any other exception, writes its first occurrence to stderr with the query, and goes on", () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    const before = typingPassFailures();
    const failing = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'what')");
    };
    judgedFailingOpen(failing, () => "MATCH (events) SELECT a");
    judgedFailingOpen(failing, () => "MATCH (events) SELECT b");
    expect(typingPassFailures()).toBe(before + 2);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toContain("reading 'what'");
    expect(writes[0]).toContain("MATCH (events) SELECT a");
  });
});
