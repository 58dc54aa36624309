/** What every query returns before it is written to a wire (JSON route or protobuf). */
import type { ColumnMetaEntry, ResultRow } from "../execution/execute-sql.js";
import type { QuotaAllowanceBody } from "../allocation-policies/admit-query.js";
import type { Timing } from "./stage-timer.js";

export interface QueryStats {
  columnstore_table: string;
  final: boolean;
  sample: number | null;
  consistent: boolean;
  result_rows: number;
  result_cols: number;
  query_id: string;
  referrer: string;
  max_threads: number;
  cache_status: "hit" | "miss" | "waited" | "bypass";
  rows_read: number;
  bytes_read: number;
}

export interface QueryResult {
  data: ResultRow[];
  meta: ColumnMetaEntry[];
  totals?: ResultRow;
  timing: Timing;
  stats?: QueryStats;
  quota_allowance: QuotaAllowanceBody;
  sql?: string;
}
