import { afterEach, describe, expect, it } from "vitest";
import { DefinitionError } from "../../src/datasets/definition-error.js";
import { DatasetRegistry } from "../../src/datasets/registry.js";
import { tempConfig as makeTempConfig, VALID_DATASET, VALID_ENTITY, VALID_STORAGE, type TempConfig } from "./temp-config.js";

let config: TempConfig | undefined;
const created: TempConfig[] = [];

afterEach(() => {
  for (const cfg of created.splice(0)) cfg.remove();
  config = undefined;
});

/** A temp configuration removed after the test; also the one `config` refers to. */
function tempConfig(overrides?: Parameters<typeof makeTempConfig>[0]): TempConfig {
  const cfg = makeTempConfig(overrides);
  created.push(cfg);
  return cfg;
}

/** Loads the directory and returns the DefinitionError it must fail with. */
function loadError(cfg: TempConfig): DefinitionError {
  config = cfg;
  try {
    DatasetRegistry.loadFrom(cfg.dir);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error("expected the configuration to be rejected");
}

describe("loading a configuration directory", () => {
  it("accepts the valid trio", () => {
    config = tempConfig();
    const registry = DatasetRegistry.loadFrom(config.dir);
    expect(registry.dataset("things")).toEqual({ name: "things", entities: ["things"] });
    expect(registry.storageOf("things").table).toBe("things_local");
    expect(registry.entity("things")?.columnMappers.name).toEqual({ kind: "column", column: "label" });
    expect(registry.entity("things")?.columnValidation).toBe("error");
  });

  it("rejects a directory that does not exist", () => {
    expect(() => DatasetRegistry.loadFrom("/nonexistent/quarry-config")).toThrow(/configuration directory does not exist/);
  });
});

describe("dataset files", () => {
  it("needs a version", () => {
    const error = loadError(tempConfig({ dataset: VALID_DATASET.replace("version: v1\n", "") }));
    expect(error.message).toContain("'version' is a required property");
    expect(error.file).toBe(config?.datasetFile);
    expect(error.message.startsWith(`${config?.datasetFile}: `)).toBe(true);
  });

  it("needs version v1", () => {
    const error = loadError(tempConfig({ dataset: VALID_DATASET.replace("version: v1", "version: v2") }));
    expect(error.message).toContain("'version' must be equal to constant 'v1'");
  });

  it("needs kind dataset", () => {
    const error = loadError(tempConfig({ dataset: VALID_DATASET.replace("kind: dataset", "kind: entity") }));
    expect(error.message).toContain("'kind' must be equal to constant 'dataset'");
    expect(error.file).toBe(config?.datasetFile);
  });

  it("allows no other properties", () => {
    const error = loadError(tempConfig({ dataset: `${VALID_DATASET}foo: 1\n` }));
    expect(error.message).toContain("unknown property 'foo' is not allowed");
  });

  it("reports every problem of the document at once", () => {
    const error = loadError(tempConfig({ dataset: "kind: storage\nname: things\n" }));
    expect(error.message).toContain("'version' is a required property");
    expect(error.message).toContain("'kind' must be equal to constant 'dataset'");
  });

  it("must list entities that exist", () => {
    const error = loadError(tempConfig({ dataset: VALID_DATASET.replace("[things]", "[things, ghosts]") }));
    expect(error.message).toContain("dataset 'things' lists entity 'ghosts' but no entity definition exists");
    expect(error.file).toBe(config?.datasetFile);
  });

  it("must be YAML with a mapping at the top", () => {
    expect(loadError(tempConfig({ dataset: "version: [v1\n" })).message).toContain("invalid YAML");
    expect(loadError(tempConfig({ dataset: "- v1\n" })).message).toContain("the top level must be a mapping");
  });

  it("must have a unique name", () => {
    const cfg = tempConfig();
    cfg.write("other/dataset.yaml", VALID_DATASET);
    expect(loadError(cfg).message).toMatch(/things\/dataset\.yaml: dataset 'things' is already defined in .*other\/dataset\.yaml/);
  });
});

describe("entity files", () => {
  it("must read a storage that exists", () => {
    const error = loadError(tempConfig({ entity: VALID_ENTITY.replace("readable: things_store", "readable: nowhere") }));
    expect(error.message).toContain("entity 'things' reads storage 'nowhere' but no storage definition exists");
    expect(error.file).toBe(config?.entityFile);
  });

  it("must write a writable storage", () => {
    const error = loadError(tempConfig({ storage: VALID_STORAGE.replace("kind: writable_storage", "kind: readable_storage") }));
    expect(error.message).toContain("writes storage 'things_store', which is not a writable_storage");
  });

  it("must join entities that exist", () => {
    const entity = `${VALID_ENTITY}join_relationships:\n  owner:\n    rhs_entity: owners\n    join_type: inner\n    columns: [[project_id, project_id]]\n`;
    const error = loadError(tempConfig({ entity }));
    expect(error.message).toContain("join 'owner' targets entity 'owners' but no entity definition exists");
  });

  it("must map onto storage columns that exist", () => {
    const error = loadError(tempConfig({ entity: VALID_ENTITY.replace("column: label }", "column: labelz }") }));
    expect(error.message).toContain("maps column 'name' to storage column 'labelz' but storage 'things_store' has no such column");
  });

  it("must give every column a storage column or a mapper", () => {
    const entity = VALID_ENTITY.replace("  - { name: label, type: String }\n", "  - { name: label, type: String }\n  - { name: extra, type: String }\n");
    const error = loadError(tempConfig({ entity }));
    expect(error.message).toContain("column 'extra' is not a column of storage 'things_store' and has no mapper");
  });

  it("must use valid ClickHouse types", () => {
    const misspelt = loadError(tempConfig({ entity: VALID_ENTITY.replace("name: label, type: String", "name: label, type: Strng") }));
    expect(misspelt.message).toContain("column 'label' has an invalid ClickHouse type 'Strng': unknown type 'Strng'");
    const unclosed = loadError(tempConfig({ storage: VALID_STORAGE.replace("type: String }", "type: Nullable(String }") }));
    expect(unclosed.message).toContain("column 'label' has an invalid ClickHouse type 'Nullable(String'");
    expect(unclosed.file).toBe(config?.storageFile);
  });

  it("names the place of a nested schema problem", () => {
    const error = loadError(tempConfig({ entity: VALID_ENTITY.replace("  - { name: label, type: String }", "  - { name: label }") }));
    expect(error.message).toContain("'type' is a required property in 'columns[3]'");
  });

  it("rejects unknown mapper kinds and validation modes", () => {
    const mapper = loadError(tempConfig({ entity: VALID_ENTITY.replace("{ kind: column, column: label }", "{ kind: renamed, column: label }") }));
    expect(mapper.message).toContain("'column_mappers.name.kind' has an unknown value 'renamed'");
    const mode = loadError(tempConfig({ entity: `${VALID_ENTITY}validate_data_model: loud\n` }));
    expect(mode.message).toContain("'validate_data_model' must be equal to one of the allowed values: error, warn, do_nothing");
  });

  it("must bucket time into a column it has", () => {
    const error = loadError(tempConfig({ entity: VALID_ENTITY.replace("time: timestamp", "time: finish_ts") }));
    expect(error.message).toContain("names the bucketed column of 'time', 'finish_ts' but has no such column");
  });

  it("must require columns it has", () => {
    const error = loadError(tempConfig({ entity: VALID_ENTITY.replace("[project_id]", "[org_id]") }));
    expect(error.message).toContain("names required column 'org_id' but has no such column");
  });
});

describe("storage files", () => {
  it("needs a sorting key unless it is a view", () => {
    const error = loadError(tempConfig({ storage: VALID_STORAGE.replace("order_by: (project_id, timestamp)\n", "") }));
    expect(error.message).toContain("'order_by' is a required property");
  });

  it("must sample by part of the primary key", () => {
    const error = loadError(tempConfig({ storage: `${VALID_STORAGE}sample_by: cityHash64(label)\n` }));
    expect(error.message).toContain("samples by 'cityHash64(label)', which is not part of its primary key");
  });

  it("feeds materialized views only into tables of storages that exist, each view named once", () => {
    const feeding = (views: string) => `${VALID_STORAGE.replace("name: things_store", "name: things_raw").replace("table: things_local", "table: things_raw_local")}materialized_views:\n${views}`;
    const view = (name: string, target: string) => `  - { name: ${name}, target: ${target}, select: "project_id, timestamp, label" }\n`;
    let cfg = tempConfig();
    cfg.write("things/storages/things_raw.yaml", feeding(view("things_mv", "elsewhere")));
    expect(loadError(cfg).message).toContain("storage 'things_raw' materialized view 'things_mv' writes storage 'elsewhere' but no storage definition exists");
    cfg = tempConfig();
    cfg.write("things/storages/things_raw.yaml", feeding(view("things_mv", "things_raw")));
    expect(loadError(cfg).message).toContain("materialized view 'things_mv' writes its own storage");
    cfg = tempConfig();
    cfg.write("things/storages/things_raw.yaml", feeding(view("things_mv", "things_store") + view("things_mv", "things_store")));
    expect(loadError(cfg).message).toContain("materialized view 'things_mv' is already defined in");
    cfg = tempConfig();
    cfg.write("things/storages/things_raw.yaml", feeding(view("things_local", "things_store")));
    expect(loadError(cfg).message).toContain("materialized view 'things_local' has the name of a storage table");
    cfg = tempConfig();
    cfg.write("things/storages/things_raw.yaml", feeding(view("things_mv", "things_store")));
    config = cfg;
    expect(DatasetRegistry.loadFrom(cfg.dir).storage("things_raw")?.materializedViews).toEqual([
      { name: "things_mv", target: "things_store", select: "project_id, timestamp, label", where: null, groupBy: null },
    ]);
  });

  it("keeps TTL, settings and materialized views to tables, and a column either defaulted or materialized", () => {
    const view = `version: v1
kind: readable_storage
name: things_view
table: things_view_local
engine: View
view: { sources: [{ storage: things_store }] }
ttl: timestamp + toIntervalDay(1)
columns:
  - { name: project_id, type: UInt64 }
`;
    const cfg = tempConfig();
    cfg.write("things/storages/things_view.yaml", view);
    expect(loadError(cfg).message).toContain("'ttl' is not allowed on a View storage");
    const both = VALID_STORAGE.replace("- { name: label, type: String }", '- { name: label, type: String, readonly: true, materialized: "toString(project_id)", default: "\'x\'" }');
    expect(loadError(tempConfig({ storage: both })).message).toContain("column 'label' is both materialized and defaulted");
    const badSetting = `${VALID_STORAGE}settings: { "Bad-Name": 1 }\n`;
    expect(loadError(tempConfig({ storage: badSetting })).message).toContain("settings");
  });

  it("must not share a table with another storage", () => {
    const cfg = tempConfig();
    cfg.write("more/storages/copy.yaml", VALID_STORAGE.replace("name: things_store", "name: copy"));
    expect(loadError(cfg).message).toContain("table 'things_local' is already defined in");
  });

  it("must view storages that exist, covering every non-Nullable column", () => {
    const view = (sources: string, extraColumn = ""): string => `version: v1
kind: readable_storage
name: things_view
table: things_view_local
engine: View
view:
  sources: ${sources}
columns:
  - { name: project_id, type: UInt64 }
  - { name: maybe, type: Nullable(String) }
${extraColumn}`;
    const cfg = tempConfig();
    cfg.write("things/storages/things_view.yaml", view("[{ storage: elsewhere }]"));
    expect(loadError(cfg).message).toContain("is a view over storage 'elsewhere' but no storage definition exists");

    const missing = tempConfig();
    missing.write("things/storages/things_view.yaml", view("[{ storage: things_store }]", "  - { name: required, type: String }\n"));
    expect(loadError(missing).message).toContain(
      "column 'required' is not in storage 'things_store', has no expression for it and is neither Nullable nor an array",
    );

    // A Nullable column the source lacks is NULL in the view; an expression fills the rest.
    const ok = tempConfig();
    ok.write(
      "things/storages/things_view.yaml",
      view("[{ storage: things_store, columns: { required: label } }]", "  - { name: required, type: String }\n"),
    );
    config = ok;
    expect(DatasetRegistry.loadFrom(ok.dir).storage("things_view")?.view?.sources[0]?.columns).toEqual({ required: "label" });
  });

  it("must use a known kind", () => {
    const error = loadError(tempConfig({ storage: VALID_STORAGE.replace("kind: writable_storage", "kind: cdc_storage") }));
    expect(error.message).toContain("'kind' must be equal to one of the allowed values: readable_storage, writable_storage");
  });
});
