import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/global-services.ts"],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    // chDB binds one data directory per process: each test file runs in its own fork.
    pool: "forks",
  },
});
