/**
 * The query node's side of remote execution: a scheduler node that has no engine sends a
 * subscription (its stored JSON) and a window end; this runs it through the same executor an
 * in-process scheduler uses. Compiled queries are kept per subscription (bounded), so a
 * subscription's query is parsed once here too.
 */
import type { DefinitionLookup } from "../../datasets/definition-lookup.js";
import { QueryServiceError } from "../../errors/query-service-error.js";
import { EXECUTOR_REFERRER, type SubscriptionExecutor, type WindowResult, type WindowRunOptions } from "./executor.js";
import { compileSubscription, type CompiledSubscription } from "./subscription-query.js";
import { decodeSubscription } from "../store/subscription-record.js";

const MAX_COMPILED = 10_000;

export class WindowRunner {
  private readonly compiled = new Map<string, CompiledSubscription>();

  constructor(
    private readonly definitions: DefinitionLookup,
    private readonly executor: SubscriptionExecutor,
  ) {}

  async run(subscriptionJson: string, windowEnd: number, referrer = EXECUTOR_REFERRER, options: WindowRunOptions = {}): Promise<WindowResult> {
    if (!Number.isSafeInteger(windowEnd) || windowEnd <= 0) throw new QueryServiceError("invalid_query", `window_end must be a positive number of Unix seconds, got ${windowEnd}`);
    let subscriptionRecord;
    try {
      subscriptionRecord = decodeSubscription(subscriptionJson);
    } catch (reason) {
      throw new QueryServiceError("invalid_query", `subscription_json is not a stored subscription: ${reason instanceof Error ? reason.message : String(reason)}`);
    }
    const { subscription } = subscriptionRecord;
    const key = `${subscription.id}@${subscription.createdAt}`;
    let compiled = this.compiled.get(key);
    if (!compiled) {
      compiled = compileSubscription(this.definitions, subscription, windowEnd);
      if (this.compiled.size >= MAX_COMPILED) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(key, compiled);
    }
    return this.executor.run(compiled, windowEnd, referrer || EXECUTOR_REFERRER, options);
  }
}
