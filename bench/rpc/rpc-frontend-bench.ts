/**
 * Cost per request of the RPC front end — decode the protobuf bytes, apply EndpointTimeSeries'
 * rules, plan the SQL — on one core, measured in the same run as the SnQL and MQL front ends so
 * the ratios hold on a noisy machine. No ClickHouse.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { TimeSeriesRequestSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { prepareTimeSeries } from "../../src/rpc/run-time-series.js";
import type { BenchSection } from "../bench-row.js";
import { describeThroughput, measureThroughput } from "../measure-throughput.js";
import { mqlFrontEnd } from "../mql/mql-frontend-bench.js";
import { MQL_CORPUS } from "../mql/mql-corpus.js";
import { SNQL_CORPUS } from "../snql/snql-corpus.js";
import { snqlFrontEnd } from "../snql/snql-frontend-bench.js";
import { RPC_CORPUS } from "./rpc-corpus.js";

export const rpcFrontendBench: BenchSection = async ({ quick }) => {
  const registry = defaultRegistry();
  const rpc = (bytes: Uint8Array) => prepareTimeSeries(registry, fromBinary(TimeSeriesRequestSchema, bytes)).prepared.sql;
  const ms = quick ? 300 : 4000;
  const rpcResult = measureThroughput(RPC_CORPUS, rpc, ms);
  const snql = measureThroughput(SNQL_CORPUS, snqlFrontEnd(registry), ms);
  const mql = measureThroughput(MQL_CORPUS, mqlFrontEnd(registry), ms);
  const ratio = (other: number) => (rpcResult.medianMicros / other).toFixed(2);
  return [
    {
      bench: `RPC front end (protobuf decode + EndpointTimeSeries rules + SQL), ${RPC_CORPUS.length} TimeSeriesRequests, one core`,
      figure: describeThroughput(rpcResult),
      target: "≥ 20,000 requests/s",
    },
    {
      bench: "Front ends side by side, same run (median per request)",
      figure: `RPC ${rpcResult.medianMicros} µs, SnQL ${snql.medianMicros} µs, MQL ${mql.medianMicros} µs: RPC/SnQL ${ratio(snql.medianMicros)}×, RPC/MQL ${ratio(mql.medianMicros)}×`,
      target: "—",
    },
  ];
};
