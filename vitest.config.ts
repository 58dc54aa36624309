import { configDefaults, defineConfig } from "vitest/config";

/**
 * Test files that parse and run queries on an embedded engine of their own (an in-process server
 * at most): nothing in them is timed, kills a process or waits on another one, so they run two
 * at a time, first.
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
  "test/reliability/front-end-fuzz.test.ts",
];

/**
 * Real processes on the real clock, killed and restarted, each waiting minutes for windows to
 * come due: they start the servers they need themselves and spend most of their time asleep, so
 * they run first, beside the engine-only files, rather than in the one-at-a-time lane. (Projects
 * of one group share the group's workers: a group's projects state the same maxWorkers.)
 */
const REAL_CLOCK_FAULTS = ["test/subscriptions/cluster-faults.test.ts", "test/subscriptions/serve-process-faults.test.ts"];

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
        // Servers started as processes, timed stops, load and a browser: one file at a time,
        // after the engine-only files, so that no other such file's load moves their deadlines.
        // Any new directory of tests lands here until it is known to be safe beside another.
        extends: true,
        test: {
          name: "processes-and-timing",
          // Real NATS and Kafka servers (and Sentry's packages), started once for these files.
          globalSetup: ["test/setup/global-services.ts"],
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...ENGINE_ONLY, ...REAL_CLOCK_FAULTS],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "real-clock-faults",
          include: REAL_CLOCK_FAULTS,
          maxWorkers: 2,
          testTimeout: 900_000,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
