/**
 * Errors of the RPC front end. A request the caller got wrong is Snuba's
 * BadSnubaRPCRequestException: HTTP 400 with its message (facts B8.9). It is an
 * `invalid_query` QueryServiceError, so the query log and metrics count it like a bad SnQL query.
 */
import type { DescEnum } from "@bufbuild/protobuf";
import { QueryServiceError } from "../errors/query-service-error.js";

export function badRpcRequest(message: string): QueryServiceError {
  return new QueryServiceError("invalid_query", message);
}

/** The proto name of an enum value (`TYPE_STRING`, `FUNCTION_P95`), or its number when unknown. */
export function enumName(schema: DescEnum, value: number): string {
  return schema.values.find((v) => v.number === value)?.name ?? String(value);
}
