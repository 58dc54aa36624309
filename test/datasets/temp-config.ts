/**
 * Small configuration directories for loader tests: a valid dataset / entity / storage trio
 * that each test breaks in one place.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const VALID_DATASET = `version: v1
kind: dataset
name: things
entities: [things]
`;

export const VALID_ENTITY = `version: v1
kind: entity
name: things
storages:
  readable: things_store
  writable: things_store
required_time_column: timestamp
required_columns: [project_id]
columns:
  - { name: project_id, type: UInt64 }
  - { name: timestamp, type: DateTime }
  - { name: time, type: DateTime }
  - { name: label, type: String }
  - { name: name, type: String }
  - { name: tags, type: "Nested(key String, value String)" }
time_bucket_columns:
  time: timestamp
column_mappers:
  name: { kind: column, column: label }
subscriptables:
  tags: { kind: nested, key_column: tags.key, value_column: tags.value, nullable: false }
`;

export const VALID_STORAGE = `version: v1
kind: writable_storage
name: things_store
table: things_local
engine: MergeTree
order_by: (project_id, timestamp)
columns:
  - { name: project_id, type: UInt64 }
  - { name: timestamp, type: DateTime }
  - { name: label, type: String }
  - { name: tags, type: "Nested(key String, value String)" }
`;

export interface TempConfig {
  readonly dir: string;
  readonly datasetFile: string;
  readonly entityFile: string;
  readonly storageFile: string;
  /** Writes (or overwrites) a file relative to the configuration directory. */
  write(relative: string, text: string): string;
  remove(): void;
}

/** A configuration directory holding the valid trio, with any file replaced by `overrides`. */
export function tempConfig(overrides: { dataset?: string; entity?: string; storage?: string } = {}): TempConfig {
  const dir = mkdtempSync(join(tmpdir(), "quarry-defs-"));
  const write = (relative: string, text: string): string => {
    const file = join(dir, relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  return {
    dir,
    datasetFile: write("things/dataset.yaml", overrides.dataset ?? VALID_DATASET),
    entityFile: write("things/entities/things.yaml", overrides.entity ?? VALID_ENTITY),
    storageFile: write("things/storages/things_store.yaml", overrides.storage ?? VALID_STORAGE),
    write,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
