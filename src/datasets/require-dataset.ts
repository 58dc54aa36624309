/** The one check every route and language shares: the dataset named by the path or body exists. */
import type { DefinitionLookup } from "./definition-lookup.js";
import { QueryServiceError } from "../errors/query-service-error.js";

export function requireDataset(definitions: DefinitionLookup, name: string): void {
  if (!definitions.dataset(name)) {
    throw new QueryServiceError("invalid_query", `dataset '${name}' does not exist`, { httpStatus: 404 });
  }
}
