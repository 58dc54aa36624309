/** Execution limits and back-end settings from the environment: precedence, and bad values refused by name. */
import { describe, expect, it } from "vitest";
import { readSettings } from "../../src/config/settings.js";
import { totalmem } from "node:os";
import { DEFAULT_EXECUTION_LIMITS, defaultMaxMemoryUsage, executionSettings } from "../../src/execution/execution-limits.js";

describe("execution limits", () => {
  it("stack defaults, then the storage's settings, then the referrer's", () => {
    const limits = { ...DEFAULT_EXECUTION_LIMITS, maxMemoryUsageBytes: 1000, maxResultRows: 50, maxResultBytes: 0, byReferrer: { slow: { max_execution_time: 120 } } };
    expect(executionSettings(limits, { max_execution_time: 25 }, "api")).toEqual({ max_execution_time: 25, max_memory_usage: 1000, max_result_rows: 50 });
    expect(executionSettings(limits, { max_execution_time: 25 }, "slow")).toEqual({ max_execution_time: 120, max_memory_usage: 1000, max_result_rows: 50 });
  });

  it("limit memory to a quarter of the machine and results to a million rows and 32 MiB by default", () => {
    expect(defaultMaxMemoryUsage(24 * 2 ** 30)).toBe(6 * 2 ** 30);
    expect(DEFAULT_EXECUTION_LIMITS.maxMemoryUsageBytes).toBe(Math.floor(totalmem() / 4));
    expect(executionSettings(DEFAULT_EXECUTION_LIMITS, {}, "api")).toEqual({
      max_execution_time: 30,
      max_memory_usage: Math.floor(totalmem() / 4),
      max_result_rows: 1_000_000,
      max_result_bytes: 32 * 1024 * 1024,
    });
  });

  it("are read from the environment", () => {
    const settings = readSettings({
      QUARRY_MAX_EXECUTION_TIME: "10",
      QUARRY_LIMITS_BY_REFERRER: '{"api.export": {"max_memory_usage": 8000000000}}',
      QUARRY_POLICY_OVERRIDES: '{"PerSecondRateLimitAllocationPolicy": {"per_second_limit": 200}}',
      QUARRY_CACHE_TTL_MS: "0",
      QUARRY_MAX_MEMORY_USAGE: "0",
      QUARRY_MAX_RESULT_ROWS: "5000",
    });
    expect(settings.executionLimits).toEqual({
      maxExecutionTimeSeconds: 10,
      maxMemoryUsageBytes: 0,
      maxResultRows: 5000,
      maxResultBytes: 32 * 1024 * 1024,
      byReferrer: { "api.export": { max_memory_usage: 8e9 } },
    });
    expect(settings.policyOverrides).toEqual({ PerSecondRateLimitAllocationPolicy: { per_second_limit: 200 } });
    expect(settings.cacheTtlMs).toBe(0);
  });

  it.each([
    [{ QUARRY_LIMITS_BY_REFERRER: "{not json" }, /QUARRY_LIMITS_BY_REFERRER is not valid JSON/],
    [{ QUARRY_LIMITS_BY_REFERRER: '{"api": {"max_threads": 4}}' }, /QUARRY_LIMITS_BY_REFERRER.api.max_threads is not a known limit/],
    [{ QUARRY_LIMITS_BY_REFERRER: '{"api": {"max_execution_time": -1}}' }, /QUARRY_LIMITS_BY_REFERRER.api.max_execution_time must be a positive number/],
    [{ QUARRY_POLICY_OVERRIDES: "[1]" }, /QUARRY_POLICY_OVERRIDES must be a JSON object/],
    [{ QUARRY_CACHE_MAX_BYTES: "lots" }, /QUARRY_CACHE_MAX_BYTES must be a non-negative integer/],
  ])("refuses %j", (env, message) => {
    expect(() => readSettings(env)).toThrow(message);
  });
});
