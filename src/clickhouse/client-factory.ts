/**
 * The one way Quarry gets a ClickHouse client: embedded chDB by default, a ClickHouse server
 * over HTTP when CLICKHOUSE_URL is set. Everything above this file uses the same
 * `@clickhouse/client` API, whichever engine answers.
 */
import { mkdirSync } from "node:fs";
import { createClient, type ClickHouseClient } from "@clickhouse/client";
import { createChdbConnection } from "chdb/connection";
import type { Settings } from "../config/settings.js";
import { SerializedEmbeddedConnection } from "./embedded-connection.js";

export type EngineKind = "embedded" | "server";

export interface ColumnstoreClient {
  readonly client: ClickHouseClient;
  readonly kind: EngineKind;
  /** Where the engine lives: the data directory or the server URL. */
  readonly location: string;
  close(): Promise<void>;
}

/** Settings every query gets, so both engines answer in the same JSON shapes. */
export const BASE_CLICKHOUSE_SETTINGS = {
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_denormals: 1,
  output_format_json_named_tuples_as_objects: 0,
  date_time_output_format: "iso",
} as const;

export function createColumnstoreClient(
  settings: Pick<Settings, "clickhouseUrl" | "clickhouseUser" | "clickhousePassword" | "dataDir">,
): ColumnstoreClient {
  if (settings.clickhouseUrl) {
    const client = createClient({
      url: settings.clickhouseUrl,
      username: settings.clickhouseUser,
      password: settings.clickhousePassword,
      clickhouse_settings: BASE_CLICKHOUSE_SETTINGS,
    });
    return { client, kind: "server", location: settings.clickhouseUrl, close: () => client.close() };
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const client = createClient({
    connection: new SerializedEmbeddedConnection(createChdbConnection({ path: settings.dataDir })),
    clickhouse_settings: BASE_CLICKHOUSE_SETTINGS,
  } as Parameters<typeof createClient>[0]);
  return { client, kind: "embedded", location: settings.dataDir, close: () => client.close() };
}
