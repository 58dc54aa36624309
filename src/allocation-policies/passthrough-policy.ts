/** PassthroughPolicy: admits everything with its configured threads (a storage without policies). */
import type { TenantIds } from "../query/query-request.js";
import { passthroughTicket, readBaseConfig } from "./policy-base.js";
import type { AllocationPolicy, PolicyTicket } from "./policy-types.js";

export class PassthroughPolicy implements AllocationPolicy {
  readonly name = "PassthroughPolicy";
  private readonly maxThreads: number;

  constructor(
    readonly storageKey: string,
    args: Readonly<Record<string, unknown>>,
  ) {
    this.maxThreads = readBaseConfig(args).maxThreads;
  }

  admit(_tenants: TenantIds, _nowMs: number): PolicyTicket {
    return passthroughTicket(this.storageKey, this.maxThreads);
  }
}
