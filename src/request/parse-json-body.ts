/** Raw request bytes -> a JSON object, or an `invalid_query` error saying what is wrong. */
import { QueryServiceError } from "../errors/query-service-error.js";

export const MAX_BODY_BYTES = 1024 * 1024;

export function parseJsonObject(body: Buffer | string): Record<string, unknown> {
  const text = typeof body === "string" ? body : body.toString("utf8");
  if (text.trim() === "") throw new QueryServiceError("invalid_query", "the request body is empty: send a JSON object such as {\"query\": \"MATCH ...\", \"tenant_ids\": {...}}");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (reason) {
    const detail = reason instanceof Error ? reason.message : String(reason);
    throw new QueryServiceError("invalid_query", `the request body is not valid JSON: ${detail}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new QueryServiceError("invalid_query", `the request body must be a JSON object, got ${kind}`);
  }
  return value as Record<string, unknown>;
}
