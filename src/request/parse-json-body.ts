/** Raw request bytes -> a JSON object, or an `invalid_query` error saying what is wrong. */
import { QueryServiceError } from "../errors/query-service-error.js";

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * No request field nests deeper than a few levels; later stages (tenant checks, cache keys, the
 * query log) walk values recursively, and a body of 100,000 nested arrays overflowed the stack.
 */
export const MAX_JSON_NESTING = 64;

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
  const tooDeep = nestingBeyond(text, MAX_JSON_NESTING);
  if (tooDeep >= 0) {
    throw new QueryServiceError("invalid_query", `the request body nests objects or arrays more than ${MAX_JSON_NESTING} levels deep (at character ${tooDeep + 1})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new QueryServiceError("invalid_query", `the request body must be a JSON object, got ${kind}`);
  }
  return value as Record<string, unknown>;
}

/** The offset where valid JSON text first opens its (limit + 1)th level, or -1. One pass, no recursion. */
function nestingBeyond(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92 /* \\ */) i++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > limit) return i;
    } else if (code === 125 /* } */ || code === 93 /* ] */) depth--;
  }
  return -1;
}
