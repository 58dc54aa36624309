/**
 * The one way Quarry gets a ClickHouse client: embedded chDB by default, a ClickHouse server
 * over HTTP when CLICKHOUSE_URL is set. Everything above this file uses the same
 * `@clickhouse/client` API, whichever engine answers.
 */
import { mkdirSync } from "node:fs";
import { createClient, type ClickHouseClient } from "@clickhouse/client";
import { drainPending, Session } from "chdb";
import { createChdbConnection } from "chdb/connection";
import { SerializedEmbeddedConnection } from "./embedded-connection.js";
import { quoteIdentifier, quoteString } from "./escaping.js";

export type EngineKind = "embedded" | "server";

export interface ColumnstoreClient {
  readonly client: ClickHouseClient;
  readonly kind: EngineKind;
  /** Where the engine lives: the data directory or the server URL. */
  readonly location: string;
  /**
   * INSERTs `body` (JSONEachRow lines) into `table` with the statement-level `settings`. The
   * embedded engine takes the bytes through chDB's raw insert (its own parser, about three times
   * faster than the same rows inside the statement text); a server gets them as the POST body.
   */
  insertRows(table: string, settings: Readonly<Record<string, string | number>>, body: string): Promise<void>;
  close(): Promise<void>;
}

/** `INSERT INTO t SETTINGS k = v, ... FORMAT JSONEachRow`, for the server's statement. */
function insertStatement(table: string, settings: Readonly<Record<string, string | number>>): string {
  const pairs = Object.entries(settings).map(([name, value]) => `${name} = ${typeof value === "number" ? String(value) : quoteString(value)}`);
  return `INSERT INTO ${quoteIdentifier(table)}${pairs.length > 0 ? ` SETTINGS ${pairs.join(", ")}` : ""} FORMAT JSONEachRow`;
}

/**
 * Settings every query gets, so both engines answer in the same JSON shapes and read the SQL
 * Quarry prints the same way. Positional references are off: in SnQL a number in ORDER BY or BY
 * is that number, as everywhere else in the query, and a column an entity maps to a constant
 * (`group_id` on discover_transactions is `0`) is that constant; ClickHouse's default reads a
 * constant there as "the N-th selected column", which sorted by another column or failed
 * (`ORDER BY 100`, code 36). The SQL may be longer than ClickHouse's default 256 KiB
 * (`max_query_size`): a request body of up to 1 MiB can list that many project ids, and a SnQL
 * text of up to 256 KiB grows as it is printed (`tags[k]` is an `arrayElement(..., indexOf(...))`);
 * the bound on what a caller sends is the body's, not the engine's parser's (code 62).
 */
const BASE_CLICKHOUSE_SETTINGS = {
  max_query_size: String(8 * 1024 * 1024),
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_denormals: 1,
  output_format_json_named_tuples_as_objects: 0,
  date_time_output_format: "iso",
  enable_positional_arguments: 0,
} as const;

/**
 * Settings the embedded engine's queries get on top of the base ones. ClickHouse remembers the
 * hash-table sizes each aggregation (and join) reached, keyed by the query's plan with its
 * constants, to size the table the next time the same plan runs. The cache is global to the
 * engine and nothing evicts from it that a setting or `SYSTEM DROP` reaches: in Quarry's process
 * it kept ~0.15 KB for every distinct filtered aggregation (20 MB after the 125,000 distinct
 * queries of a 1,000,000-input fuzz run). It pays off only when the very same plan repeats,
 * which the result cache answers before the engine anyway. A ClickHouse server of its own keeps
 * ClickHouse's defaults.
 */
const EMBEDDED_CLICKHOUSE_SETTINGS = {
  ...BASE_CLICKHOUSE_SETTINGS,
  collect_hash_table_stats_during_aggregation: 0,
  collect_hash_table_stats_during_joins: 0,
  // chDB applies a query's settings with SET on the session, where they stay for the queries
  // after it. An insert's deduplication token left there would make the next insert that has none
  // a "duplicate" of that block, silently dropped by the tables that deduplicate (the metrics
  // tables); sent with every query, the empty default puts it back.
  insert_deduplication_token: "",
} as const;

/** Enough for a few queries' pipelines at once on the embedded engine; see `engineIdleThreads`. */
export const DEFAULT_ENGINE_IDLE_THREADS = 16;
/**
 * ClickHouse counts ~64 bytes per condition-cache entry on small parts; the allocator holds about
 * seven times that (hash-table node, LRU node, bitmap: 9,700 entries counted as 0.6 MB freed
 * ~4.5 MB when dropped). 4 MiB as counted is ~65,000 entries and ~30 MB of allocator memory at
 * most, where the default 100 MiB let a long fuzz run grow it by tens of MB. The idle release
 * empties it (src/server/idle-memory-release.ts).
 */
export const DEFAULT_ENGINE_CONDITION_CACHE_BYTES = 4 * 1024 * 1024;
/** ~1,000 compiled expressions (they take ~14 KB each). */
export const DEFAULT_ENGINE_EXPRESSION_CACHE_BYTES = 16 * 1024 * 1024;

/** What the embedded engine is started with (defaults above). */
export interface EngineSettings {
  readonly engineIdleThreads?: number;
  readonly engineConditionCacheBytes?: number;
  readonly engineExpressionCacheBytes?: number;
}

/** Where the columnstore is: a server's URL and credentials, else the embedded engine's data directory. */
export interface ColumnstoreSettings extends EngineSettings {
  readonly clickhouseUrl: string | null;
  readonly clickhouseUser: string;
  readonly clickhousePassword: string;
  readonly dataDir: string;
}

/**
 * The embedded engine's server configuration: given when it starts, not settings a query can
 * change. ClickHouse sizes these for a server of its own; in Quarry's process their memory is
 * the service's, and stays after the load that filled them:
 * - the global thread pool keeps at most `engineIdleThreads` idle threads: with ClickHouse's
 *   default (1000) a burst of queries grew the pool by ~130 threads that never went away, and
 *   with them their stacks and allocator caches (~0.5 MB resident each);
 * - the query condition cache gets an entry per part and distinct filter: 51,000 entries
 *   (~10 MB of allocator memory) over a 200,000-input fuzz run, with 8 % of lookups hits, and
 *   its default bound of 100 MiB lets it grow for as long as filters keep changing;
 * - compiled expressions, likewise bounded by 128 MiB.
 */
export function embeddedEngineArgs(settings: EngineSettings): string[] {
  return [
    `--max_thread_pool_free_size=${settings.engineIdleThreads ?? DEFAULT_ENGINE_IDLE_THREADS}`,
    `--query_condition_cache_size=${settings.engineConditionCacheBytes ?? DEFAULT_ENGINE_CONDITION_CACHE_BYTES}`,
    `--compiled_expression_cache_size=${settings.engineExpressionCacheBytes ?? DEFAULT_ENGINE_EXPRESSION_CACHE_BYTES}`,
  ];
}

export function createColumnstoreClient(
  settings: ColumnstoreSettings,
): ColumnstoreClient {
  if (settings.clickhouseUrl) {
    const client = createClient({
      url: settings.clickhouseUrl,
      username: settings.clickhouseUser,
      password: settings.clickhousePassword,
      clickhouse_settings: BASE_CLICKHOUSE_SETTINGS,
    });
    return {
      client,
      kind: "server",
      location: settings.clickhouseUrl,
      async insertRows(table, insertSettings, body) {
        await client.command({ query: `${insertStatement(table, insertSettings)}\n${body}` });
      },
      close: () => client.close(),
    };
  }
  mkdirSync(settings.dataDir, { recursive: true });
  // chDB starts its engine with the first session on a data directory, and later sessions on
  // it share that engine: this one exists to start it with our configuration (the connection
  // API takes no engine arguments), and lives as long as the client.
  const engine = new Session(settings.dataDir, { connectionArgs: embeddedEngineArgs(settings) });
  const connection = new SerializedEmbeddedConnection(createChdbConnection({ path: settings.dataDir }));
  const client = createClient({ connection, clickhouse_settings: EMBEDDED_CLICKHOUSE_SETTINGS } as Parameters<typeof createClient>[0]);
  return {
    client,
    kind: "embedded",
    location: settings.dataDir,
    insertRows: (table, insertSettings, body) => connection.rawInsert(table, insertSettings, body),
    async close() {
      // The connection waits for its call in the engine; drainPending then waits for any teardown
      // chDB still deferred, so the engine is down when this resolves and the process may exit.
      await client.close();
      engine.close();
      await drainPending();
    },
  };
}
