/**
 * The read-only view of the loaded definitions that the query pipeline needs. The registry
 * implements it; tests may pass a registry loaded from a temporary directory.
 */
import type { DatasetDefinition, EntityDefinition, StorageDefinition } from "./definition-types.js";

export interface DefinitionLookup {
  dataset(name: string): DatasetDefinition | undefined;
  entity(name: string): EntityDefinition | undefined;
  storage(name: string): StorageDefinition | undefined;
  entities(): readonly EntityDefinition[];
}
