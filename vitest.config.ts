import { configDefaults, defineConfig } from "vitest/config";
import { REAL_CLOCK_PROJECT, RealClockFirstSequencer } from "./test/setup/real-clock-first-sequencer.js";

/**
 * Test files that parse and run queries on an embedded engine of their own (an in-process server
 * at most): nothing in them is timed, kills a process or waits on another one, so they run
 * first, several at a time, beside the real-clock files below.
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
 * Real processes on the real clock, each waiting minutes for subscription windows to come due
 * (most of them killing or pausing processes meanwhile): they start the servers they need
 * themselves and spend most of their time asleep, so they run first, beside the engine-only files,
 * rather than in the one-at-a-time lane. The two projects of the first group share its four
 * workers (a group's projects state the same maxWorkers): the four sleepers start at once
 * (test/setup/real-clock-first-sequencer.ts), the engine-only files run in the workers they leave.
 */
const REAL_CLOCK_FAULTS = [
  "test/subscriptions/commit-log-broker-pause.test.ts",
  "test/subscriptions/cluster-faults.test.ts",
  "test/subscriptions/serve-process-faults.test.ts",
  "test/subscriptions/audit-recount-serve.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
    // chDB binds one data directory per process: each test file runs in its own fork.
    pool: "forks",
    sequence: { sequencer: RealClockFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "engine-only",
          include: ENGINE_ONLY,
          maxWorkers: 4,
          // Files share the two cores with each other and the real-clock files: a check may take
          // several times its time alone.
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
          name: REAL_CLOCK_PROJECT,
          include: REAL_CLOCK_FAULTS,
          maxWorkers: 4,
          testTimeout: 900_000,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
