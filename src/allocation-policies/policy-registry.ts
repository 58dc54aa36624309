/**
 * The policy instances of each storage, built once from the storage YAML (`allocation_policies`,
 * in order) and kept for the life of the process: their counters are in-process state, so limits
 * hold per Quarry node, not across nodes. A storage without policies gets the PassthroughPolicy.
 * Runtime overrides (tests, benches, operators) replace YAML args per policy name.
 */
import { Ajv } from "ajv";
import type { StorageDefinition } from "../datasets/definition-types.js";
import { BytesScannedWindowAllocationPolicy } from "./bytes-scanned-window-policy.js";
import { ConcurrentRateLimitAllocationPolicy } from "./concurrent-rate-limit-policy.js";
import { PassthroughPolicy } from "./passthrough-policy.js";
import { PerSecondRateLimitAllocationPolicy } from "./per-second-rate-limit-policy.js";
import { POLICY_ARGS_SCHEMAS } from "../datasets/schemas/policy-args-schema.js";
import type { AllocationPolicy } from "./policy-types.js";

type PolicyFactory = new (storageKey: string, args: Readonly<Record<string, unknown>>) => AllocationPolicy;

const FACTORIES: Readonly<Record<string, PolicyFactory>> = {
  ConcurrentRateLimitAllocationPolicy,
  PerSecondRateLimitAllocationPolicy,
  BytesScannedWindowAllocationPolicy,
  PassthroughPolicy,
};

/** Policy name -> args merged over every storage's YAML args for that policy. */
export type PolicyArgOverrides = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

const ajv = new Ajv({ allErrors: true, strict: false });

/** Refuses overrides that the YAML would refuse, naming the policy and the field. */
function validatePolicyOverrides(overrides: PolicyArgOverrides): void {
  for (const [name, args] of Object.entries(overrides)) {
    const schema = POLICY_ARGS_SCHEMAS[name];
    if (!schema) throw new Error(`allocation policy override: unknown policy '${name}'; known: ${Object.keys(FACTORIES).join(", ")}`);
    const validate = ajv.compile(schema);
    if (!validate(args)) {
      const first = validate.errors?.[0];
      throw new Error(`allocation policy override ${name}${first?.instancePath.replace(/\//g, ".") ?? ""}: ${first?.message ?? "invalid"}`);
    }
  }
}

export class PolicyRegistry {
  private readonly byStorage = new Map<string, readonly AllocationPolicy[]>();

  constructor(private readonly overrides: PolicyArgOverrides = {}) {
    validatePolicyOverrides(overrides);
  }

  forStorage(storage: StorageDefinition): readonly AllocationPolicy[] {
    let policies = this.byStorage.get(storage.name);
    if (!policies) {
      const declared = storage.allocationPolicies.length > 0 ? storage.allocationPolicies : [{ name: "PassthroughPolicy", args: {} }];
      policies = declared.map(({ name, args }) => {
        const Factory = FACTORIES[name];
        // The storage schema only lets known names through; this guards hand-built definitions.
        if (!Factory) throw new Error(`storage '${storage.name}' names an unknown allocation policy '${name}'`);
        return new Factory(storage.name, { ...args, ...this.overrides[name] });
      });
      this.byStorage.set(storage.name, policies);
    }
    return policies;
  }

  /**
   * Lets every policy drop the tenants that no longer count anything. Policies sweep as they
   * admit queries; this is for when none come (the backend calls it on a timer), so that a
   * server gone quiet does not keep every tenant of its last burst.
   */
  sweep(nowMs: number): void {
    for (const policies of this.byStorage.values()) for (const policy of policies) policy.sweep?.(nowMs);
  }

  /** What each tenant uses of each policy in force now, for the storages queried so far. */
  usage(nowMs: number): { storage: string; policy: string; bucket: string; used: number; unit: string; limit: number }[] {
    return [...this.byStorage].flatMap(([storage, policies]) =>
      policies.flatMap((policy) => (policy.usage?.(nowMs) ?? []).map((row) => ({ storage, policy: policy.name, ...row }))),
    );
  }
}
