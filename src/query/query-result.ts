/** What every query returns before it is written to a wire (JSON route or protobuf). */
import type { QuotaAllowanceBody } from "./quota-allowance.js";
import type { Timing } from "./stage-timer.js";

/** A value of a result cell as JSON carries it: 64-bit integers stay exact as bigints. */
export type ResultValue = string | number | bigint | boolean | null | ResultValue[] | { [key: string]: ResultValue };

export type ResultRow = Record<string, ResultValue>;

export interface ColumnMetaEntry {
  readonly name: string;
  readonly type: string;
}

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
