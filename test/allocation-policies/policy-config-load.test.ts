/** A storage YAML with a bad policy config is refused at load, naming the file and the field. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/datasets/loader.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function storageWith(policies: string): string {
  dir = mkdtempSync(join(tmpdir(), "quarry-policy-config-"));
  mkdirSync(join(dir, "things", "storages"), { recursive: true });
  const file = join(dir, "things", "storages", "things.yaml");
  writeFileSync(
    file,
    `version: v1\nkind: readable_storage\nname: things\ntable: things_local\nengine: MergeTree\norder_by: (id)\ncolumns:\n  - { name: id, type: UInt64 }\nallocation_policies:\n${policies}`,
  );
  return file;
}

describe("allocation policy config in storage YAML", () => {
  it.each([
    ["  - name: ConcurrentRateLimitAllocationPolicy\n    args: { concurrent_limit: 0 }\n", "'allocation_policies[0].args.concurrent_limit' must be >= 1"],
    ["  - name: PerSecondRateLimitAllocationPolicy\n    args: { per_second_limit: 1e12 }\n", "'allocation_policies[0].args.per_second_limit' must be <= 1000000000"],
    ["  - name: ConcurrentRateLimitAllocationPolicy\n    args: { is_enforced: yes-please }\n", "'allocation_policies[0].args.is_enforced' must be boolean"],
    ["  - name: MadeUpPolicy\n", "'allocation_policies[0].name' has an unknown value 'MadeUpPolicy'"],
    ["  - name: BytesScannedWindowAllocationPolicy\n    args: { window_size: 10 }\n", "unknown property 'window_size' is not allowed in 'allocation_policies[0].args'"],
    ["  - name: ConcurrentRateLimitAllocationPolicy\n    args: { overrides: [{ organization_id: one, limit: 3 }] }\n", "'allocation_policies[0].args.overrides[0].organization_id' must be integer"],
  ])("refuses %#", (policies, message) => {
    const file = storageWith(policies);
    expect(() => loadDefinitions(dir)).toThrow(message);
    expect(() => loadDefinitions(dir)).toThrow(file);
  });

  it("accepts a valid config", () => {
    storageWith("  - name: ConcurrentRateLimitAllocationPolicy\n    args: { concurrent_limit: 3, overrides: [{ referrer: a, limit: 1 }] }\n");
    expect(loadDefinitions(dir).storages[0]!.definition.allocationPolicies[0]!.args).toMatchObject({ concurrent_limit: 3 });
  });
});
