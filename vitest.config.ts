import { configDefaults, defineConfig } from "vitest/config";

/**
 * Test files that parse, type and run queries on an embedded engine of their own (an in-process
 * server at most): nothing in them is timed, kills a process or waits on another one, so they run
 * two at a time. The typing pass's cross-checks with the engine (test/pipeline/probed-*) take
 * most of the suite's time, and are split in two files for it.
 */
const ENGINE_ONLY = [
  "test/pipeline/**/*.test.ts",
  "test/snql/**/*.test.ts",
  "test/mql/**/*.test.ts",
  "test/conformance/**/*.test.ts",
  "test/datasets/**/*.test.ts",
  "test/demo-data/**/*.test.ts",
  "test/execution/**/*.test.ts",
  "test/snql-execution/**/*.test.ts",
  "test/request/**/*.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
    // chDB binds one data directory per process: each test file runs in its own fork.
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "engine-only",
          include: ENGINE_ONLY,
          maxWorkers: 2,
          // Two files share the two cores: a check may take twice its time alone.
          testTimeout: 120_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Servers started as processes, clusters killed and restarted, timed stops, load and a
        // browser: one file at a time, after the others, so that no other file's load moves
        // their deadlines. Any new directory of tests lands here until it is known to be safe
        // beside another.
        extends: true,
        test: {
          name: "processes-and-timing",
          // Real NATS and Kafka servers (and Sentry's packages), started once for these files.
          globalSetup: ["test/setup/global-services.ts"],
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...ENGINE_ONLY],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
