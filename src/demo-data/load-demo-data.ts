/**
 * Loads the demo data: errors (and the issue tables derived from them), transactions, metrics
 * (generic and legacy) and EAP trace items for organization 1, projects 1-3, over the 14 days
 * before `now`.
 *
 * Determinism rule: the rows are a pure function of (`rows`, `now` truncated to its UTC hour,
 * DEMO_SEED). Loading again with the same `rows` within the same hour writes identical rows.
 * Everything is generated inside ClickHouse (`INSERT ... SELECT ... FROM numbers(...)`), in
 * chunks of CHUNK_ROWS rows. Metrics go into the raw tables, whose materialized views fill the
 * aggregated tables, as ingestion's rows do. The target tables (raw and aggregated) are
 * truncated first (unless `keepExisting`), so a reload replaces the demo data rather than
 * doubling it.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { quoteIdentifier } from "../clickhouse/escaping.js";
import { defaultRegistry } from "../datasets/registry.js";
import { demoMetricsTables } from "./demo-metric-series.js";
import { splitDemoRows } from "./demo-row-split.js";
import { demoTimeWindow } from "./demo-time-window.js";
import { eapLogsPlan, eapSpansPlan } from "./eap-items-generator.js";
import { eventsPlan } from "./events-generator.js";
import { groupTablesSql } from "./groups-generator.js";
import { runPlan, tableColumns, type GeneratorPlan, type TableColumn } from "./generator-plan.js";
import { metricsRawPlan } from "./metrics-generator.js";
import { ProgressBar } from "./progress-bar.js";
import { transactionsPlan } from "./transactions-generator.js";

export interface LoadDemoDataOptions {
  /** About how many rows to write over all tables (metrics rows are pre-aggregated buckets). */
  readonly rows: number;
  readonly log: (line: string) => void;
  /** Draw a progress bar on stderr instead of logging one line per table. */
  readonly progress: boolean;
  /** Defaults to the current time; truncated to the hour. */
  readonly now?: Date;
  /** Append to the tables instead of truncating them first. */
  readonly keepExisting?: boolean;
}

export interface DemoDataTableSummary {
  readonly table: string;
  /** Rows in the table after the load. */
  readonly rows: number;
  readonly seconds: number;
}

export interface DemoDataSummary {
  /** Start of the hour of `now`: the exclusive end of the data (ISO 8601). */
  readonly windowEnd: string;
  /** 14 days before `windowEnd`: the inclusive start of the data. */
  readonly windowStart: string;
  readonly requestedRows: number;
  /** Rows written, over all tables. */
  readonly totalRows: number;
  readonly tables: readonly DemoDataTableSummary[];
  /** Tables the demo data has rows for but the store lacks (not migrated). */
  readonly skippedTables: readonly string[];
  readonly seconds: number;
}

/** Budget ratio: a table's aggregated rows ≈ this many times its raw (10-second) rows. */
const METRICS_ROWS_PER_BASE_ROW = 3.5;

/** Storage names of the tables the demo data fills (the registry gives their tables). */
const EVENTS_STORAGE = "errors";
const TRANSACTIONS_STORAGE = "transactions";
const EAP_STORAGE = "eap_items";

function tableOf(storage: string, fallback: string): string {
  try {
    return defaultRegistry().storage(storage)?.table ?? fallback;
  } catch {
    return fallback;
  }
}

interface Step {
  /** What the progress bar shows: events, transactions, metrics, eap_items. */
  readonly label: string;
  /** The table the step fills and reports. */
  readonly table: string;
  /**
   * Tables the step writes to reach `table` (a metrics raw table, whose materialized view fills
   * the aggregated one): they must exist, and are truncated with it.
   */
  readonly sourceTables?: readonly string[];
  /** Progress units this step accounts for. */
  readonly units: number;
  readonly run: (columns: readonly TableColumn[], advance: (unitsDone: number) => void) => Promise<void>;
}

function planStep(client: ClickHouseClient, plan: GeneratorPlan): Step {
  return {
    label: plan.label,
    table: plan.table,
    units: plan.rows,
    run: async (columns, advance) => {
      await runPlan(client, plan, columns, advance);
    },
  };
}

async function missingTables(client: ClickHouseClient, tables: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const table of tables) if (!(await tableColumns(client, table))) missing.push(table);
  return missing;
}

async function countRows(client: ClickHouseClient, table: string): Promise<number> {
  const result = await client.query({ query: `SELECT count() AS c FROM ${quoteIdentifier(table)}`, format: "JSONEachRow" });
  const rows = await result.json<{ c: number | string }>();
  return Number(rows[0]?.c ?? 0);
}

export async function loadDemoData(client: ClickHouseClient, options: LoadDemoDataOptions): Promise<DemoDataSummary> {
  const started = Date.now();
  const window = demoTimeWindow(options.now ?? new Date());
  const split = splitDemoRows(options.rows);

  const steps: Step[] = [
    planStep(client, { ...eventsPlan(window, split.events), table: tableOf(EVENTS_STORAGE, "errors_local") }),
    planStep(client, { ...transactionsPlan(window, split.transactions), table: tableOf(TRANSACTIONS_STORAGE, "transactions_local") }),
  ];
  // After the events: the issue tables are derived from them.
  const groupTables = groupTablesSql(steps[0]!.table, {
    groupedMessage: tableOf("groupedmessages", "groupedmessage_local"),
    groupAssignee: tableOf("groupassignees", "groupassignee_local"),
    groupAttributes: tableOf("group_attributes", "group_attributes_local"),
  });
  for (const { table, sql } of groupTables) {
    const run: Step["run"] = async (_columns, advance) => {
      await client.command({ query: sql });
      advance(1);
    };
    steps.push({ label: "issues", table, units: 1, run });
  }
  for (const spec of demoMetricsTables()) {
    const table = tableOf(spec.storage, spec.storage);
    const rawTable = tableOf(spec.rawStorage, spec.rawStorage);
    const budget = Math.round((split.metrics * spec.share) / 100);
    steps.push({
      label: "metrics",
      table,
      sourceTables: [rawTable],
      units: budget,
      run: async (_columns, advance) => {
        const rawColumns = await tableColumns(client, rawTable);
        if (!rawColumns) throw new Error(`demo data: the raw table ${rawTable} vanished during the load`);
        const plan = metricsRawPlan(window, rawTable, spec, Math.round(budget / METRICS_ROWS_PER_BASE_ROW));
        await runPlan(client, plan, rawColumns, () => undefined);
        advance(budget);
      },
    });
  }
  const eapTable = tableOf(EAP_STORAGE, "eap_items_1_local");
  const spans = eapSpansPlan(window, split.eapSpans);
  const logs = eapLogsPlan(window, split.eapLogs);
  steps.push({
    label: "eap_items",
    table: eapTable,
    units: spans.rows + logs.rows,
    run: async (columns, advance) => {
      await runPlan(client, { ...spans, table: eapTable }, columns, advance);
      await runPlan(client, { ...logs, table: eapTable }, columns, (done) => advance(spans.rows + done));
    },
  });

  const totalUnits = steps.reduce((sum, step) => sum + step.units, 0);
  const bar = options.progress ? new ProgressBar(totalUnits) : null;
  const tables: DemoDataTableSummary[] = [];
  const skippedTables: string[] = [];
  // A raw table shared by several steps (release health's) is truncated once, before its first step.
  const truncated = new Set<string>();
  const truncate = async (table: string) => {
    if (options.keepExisting || truncated.has(table)) return;
    truncated.add(table);
    await client.command({ query: `TRUNCATE TABLE ${quoteIdentifier(table)}` });
  };
  let unitsBefore = 0;
  try {
    for (const step of steps) {
      const stepStarted = Date.now();
      const columns = await tableColumns(client, step.table);
      const missing = columns ? await missingTables(client, step.sourceTables ?? []) : [step.table];
      if (!columns || missing.length > 0) {
        skippedTables.push(step.table);
        options.log(`demo data: table ${missing.join(", ")} does not exist (run the migrations); ${step.table} skipped`);
      } else {
        for (const table of [...(step.sourceTables ?? []), step.table]) await truncate(table);
        const base = unitsBefore;
        bar?.update(base, step.label);
        await step.run(columns, (done) => bar?.update(base + done, step.label));
        const rows = await countRows(client, step.table);
        const seconds = (Date.now() - stepStarted) / 1000;
        tables.push({ table: step.table, rows, seconds });
        if (!bar) options.log(`demo data: ${step.table}: ${rows} rows in ${seconds.toFixed(1)} s`);
      }
      unitsBefore += step.units;
      bar?.update(unitsBefore, step.label);
    }
  } finally {
    bar?.finish();
  }

  const totalRows = tables.reduce((sum, t) => sum + t.rows, 0);
  const seconds = (Date.now() - started) / 1000;
  const windowStart = new Date(window.start * 1000).toISOString();
  const windowEnd = new Date(window.end * 1000).toISOString();
  options.log(`demo data: ${totalRows} rows in ${tables.length} tables, ${windowStart} .. ${windowEnd}, in ${seconds.toFixed(1)} s`);
  return { windowStart, windowEnd, requestedRows: options.rows, totalRows, tables, skippedTables, seconds };
}

/** Whether the store already holds demo data: the errors table exists and has rows. */
export async function hasDemoData(client: ClickHouseClient): Promise<boolean> {
  const table = tableOf(EVENTS_STORAGE, "errors_local");
  if (!(await tableColumns(client, table))) return false;
  return (await countRows(client, table)) > 0;
}
