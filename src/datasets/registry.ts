/**
 * The loaded, cross-checked dataset / entity / storage definitions: the only way the rest of
 * Quarry reads configuration. Entities form one global namespace (as in Snuba): a dataset's
 * list says which entities it routes, but any registered entity can be looked up by name.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DatasetDefinition, EntityDefinition, StorageDefinition } from "./definition-types.js";
import { loadDefinitions } from "./loader.js";
import { checkReferences } from "./reference-checks.js";
import { withSubscriptValueTypes } from "./subscript-value-types.js";

export class DatasetRegistry {
  private readonly datasetsByName: ReadonlyMap<string, DatasetDefinition>;
  private readonly entitiesByName: ReadonlyMap<string, EntityDefinition>;
  private readonly storagesByName: ReadonlyMap<string, StorageDefinition>;

  private constructor(
    datasets: readonly DatasetDefinition[],
    entities: readonly EntityDefinition[],
    storages: readonly StorageDefinition[],
  ) {
    this.datasetsByName = new Map(datasets.map((d) => [d.name, d]));
    this.entitiesByName = new Map(entities.map((e) => [e.name, e]));
    this.storagesByName = new Map(storages.map((s) => [s.name, s]));
  }

  /** Loads and checks every definition under `dir`; throws DefinitionError naming the bad file. */
  static loadFrom(dir: string): DatasetRegistry {
    const loaded = loadDefinitions(dir);
    checkReferences(loaded);
    const storages = new Map(loaded.storages.map((s) => [s.definition.name, s.definition]));
    return new DatasetRegistry(
      loaded.datasets.map((d) => d.definition),
      // The references are checked: every entity's readable storage exists.
      loaded.entities.map((e) => withSubscriptValueTypes(e.definition, storages.get(e.definition.readableStorage)!)),
      loaded.storages.map((s) => s.definition),
    );
  }

  dataset(name: string): DatasetDefinition | undefined {
    return this.datasetsByName.get(name);
  }

  entity(name: string): EntityDefinition | undefined {
    return this.entitiesByName.get(name);
  }

  storage(name: string): StorageDefinition | undefined {
    return this.storagesByName.get(name);
  }

  /** Sorted by name. */
  datasets(): readonly DatasetDefinition[] {
    return [...this.datasetsByName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Sorted by name; includes entities no dataset lists (join targets such as groupedmessage). */
  entities(): readonly EntityDefinition[] {
    return [...this.entitiesByName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Sorted by name; includes storages no entity reads (profile_chunks, querylog). */
  storages(): readonly StorageDefinition[] {
    return [...this.storagesByName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The storage an entity's queries read. Throws for an unknown entity: callers resolve the
   * entity first (and report an unknown one as a query error).
   */
  storageOf(entityName: string): StorageDefinition {
    const entity = this.entitiesByName.get(entityName);
    if (!entity) throw new Error(`unknown entity '${entityName}'`);
    // The reference checks guarantee the storage exists.
    return this.storagesByName.get(entity.readableStorage) as StorageDefinition;
  }
}

/** The shipped definitions, next to this module (src/datasets/configuration). */
const DEFAULT_CONFIGURATION_DIR = join(dirname(fileURLToPath(import.meta.url)), "configuration");

let defaultInstance: DatasetRegistry | undefined;

/** The shipped configuration, loaded on first use and cached for the process. */
export function defaultRegistry(): DatasetRegistry {
  defaultInstance ??= DatasetRegistry.loadFrom(DEFAULT_CONFIGURATION_DIR);
  return defaultInstance;
}
