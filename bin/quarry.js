#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so that `quarry` works straight from a checkout.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Two malloc arenas: the embedded engine allocates from many threads, and glibc's default of
// eight arenas per core left freed memory fragmented and resident (docs/reliability.md).
const env = { MALLOC_ARENA_MAX: "2", ...process.env };
const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "src/cli/main.ts"), ...process.argv.slice(2)], { stdio: "inherit", env });
process.exit(result.status ?? 1);
