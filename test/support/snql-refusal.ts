/** What the SnQL pipeline says of a query before any engine sees it: its error, or null when it is prepared. */
import { defaultRegistry } from "../../src/datasets/registry.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";

const registry = defaultRegistry();

export function snqlRefusal(query: string): QueryServiceError | null {
  try {
    prepareSnqlQuery(registry, query, false);
    return null;
  } catch (error) {
    if (error instanceof QueryServiceError) return error;
    throw error;
  }
}
