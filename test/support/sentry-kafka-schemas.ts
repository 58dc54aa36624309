/**
 * Validators built from Sentry's own topic definitions (the sentry-kafka-schemas package the test
 * setup installs): a topic's YAML names its JSON schema and its example messages.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { Ajv } from "ajv";
import { parse } from "yaml";

interface TopicDefinition {
  schemas: { version: number; type: string; resource: string; examples?: string[] }[];
}

function topicDefinition(packageDir: string, topic: string): TopicDefinition {
  return parse(readFileSync(join(packageDir, "topics", `${topic}.yaml`), "utf8")) as TopicDefinition;
}

function latestJsonSchema(definition: TopicDefinition, topic: string) {
  const schema = definition.schemas.filter((s) => s.type === "json").sort((a, b) => b.version - a.version)[0];
  if (!schema) throw new Error(`topic ${topic} has no JSON schema`);
  return schema;
}

export interface MessageValidator {
  /** Throws an Error listing what the schema refused. */
  validate(message: unknown): void;
}

export function loadTopicSchema(packageDir: string, topic: string): MessageValidator {
  const schema = latestJsonSchema(topicDefinition(packageDir, topic), topic);
  const ajv = new Ajv({ allErrors: true, strict: false });
  const check = ajv.compile(JSON.parse(readFileSync(join(packageDir, "schemas", schema.resource), "utf8")) as object);
  return {
    validate(message) {
      if (check(message)) return;
      const problems = (check.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? ""}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
      throw new Error(`not a valid ${topic} message (${schema.resource}): ${problems.join("; ")}`);
    },
  };
}

/** One of Sentry's example messages as the package ships it: its file name (within its folder) and its bytes. */
export interface ExampleFile {
  readonly name: string;
  readonly bytes: Buffer;
}

/**
 * Sentry's example messages of a topic's latest JSON schema, as bytes (a processor must read what
 * JSON.parse would lose, such as `100.0`). Like the package's own `iter_examples`, an `examples:`
 * entry is a folder under `<packageDir>/examples/` (all of its JSON files) or a single file.
 */
export function topicExampleFiles(packageDir: string, topic: string): ExampleFile[] {
  const schema = latestJsonSchema(topicDefinition(packageDir, topic), topic);
  return (schema.examples ?? []).flatMap((entry) => {
    const path = join(packageDir, "examples", entry);
    const files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith(".json"))
          .sort()
          .map((name) => join(path, name))
      : [path];
    return files.map((file) => ({ name: basename(file), bytes: readFileSync(file) }));
  });
}

/**
 * Sentry's example messages of a topic whose latest schema is protobuf (`snuba-items`): each
 * `examples:` folder's `.protobuf` files (or a single file), as bytes.
 */
export function topicProtobufExampleFiles(packageDir: string, topic: string): ExampleFile[] {
  const schema = topicDefinition(packageDir, topic)
    .schemas.filter((s) => s.type === "protobuf")
    .sort((a, b) => b.version - a.version)[0];
  if (!schema) throw new Error(`topic ${topic} has no protobuf schema`);
  return (schema.examples ?? []).flatMap((entry) => {
    const path = join(packageDir, "examples", entry);
    const files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith(".protobuf"))
          .sort()
          .map((name) => join(path, name))
      : [path];
    return files.map((file) => ({ name: basename(file), bytes: readFileSync(file) }));
  });
}

/** Sentry's example messages of a topic's latest JSON schema, parsed. */
export function topicExamples(packageDir: string, topic: string): unknown[] {
  return topicExampleFiles(packageDir, topic).map((file) => JSON.parse(file.bytes.toString("utf8")) as unknown);
}

export function subscriptionResultsValidator(packageDir: string, topic = "events-subscription-results"): MessageValidator {
  return loadTopicSchema(packageDir, topic);
}
