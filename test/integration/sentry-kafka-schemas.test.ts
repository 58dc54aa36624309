import { describe, expect, inject, it } from "vitest";
import { subscriptionResultsValidator, topicExamples } from "../support/sentry-kafka-schemas.js";

// The validator the subscription tests rely on is built from Sentry's installed package: it
// accepts Sentry's own example messages and refuses broken ones, naming the problem.

describe("sentry-kafka-schemas validators", () => {
  const dir = inject("sentryKafkaSchemasDir");

  it("accepts Sentry's own examples of every subscription result topic", () => {
    for (const topic of ["events-subscription-results", "transactions-subscription-results", "metrics-subscription-results", "generic-metrics-subscription-results"]) {
      const examples = topicExamples(dir, topic);
      expect(examples.length, topic).toBeGreaterThan(0);
      const validator = subscriptionResultsValidator(dir, topic);
      for (const example of examples) validator.validate(example);
    }
  });

  it("refuses messages that break the schema, naming what is wrong", () => {
    const validator = subscriptionResultsValidator(dir);
    const [example] = topicExamples(dir, "events-subscription-results") as { version: number; payload: Record<string, unknown> }[];
    if (example === undefined) throw new Error("sentry-kafka-schemas has no example of events-subscription-results");
    // The unbroken message passes, so each refusal below is down to the one thing broken in it.
    validator.validate(example);
    const { entity: _entity, ...withoutEntity } = example.payload;
    expect(() => validator.validate({ ...example, payload: withoutEntity })).toThrow(/\/payload must have required property 'entity'/);
    expect(() => validator.validate({ ...example, version: 2 })).toThrow(/\/version must be equal to constant/);
    const result = { data: { count: 0 }, meta: [] };
    expect(() => validator.validate({ ...example, payload: { ...example.payload, result } })).toThrow(/\/payload\/result\/data must be array/);
    expect(() => validator.validate("not a message")).toThrow(/must be object/);
  });
});
