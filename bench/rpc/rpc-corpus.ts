/**
 * TimeSeriesRequests as Sentry's explore and alert pages send them (the shapes of
 * scripts/fixtures/time-series-requests.py, built here with the generated TypeScript messages so
 * the bench needs no Python), serialised: the front end's input is bytes.
 */
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { Expression_BinaryFormula_Op, TimeSeriesRequestSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { TraceItemType } from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { AttributeKey_Type, ExtrapolationMode, Function as Fn } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { ComparisonFilter_Op } from "../../gen/sentry_protos/snuba/v1/trace_item_filter_pb.js";

type Init = MessageInitShape<typeof TimeSeriesRequestSchema>;

const START = Date.parse("2026-11-20T00:00:00Z") / 1000;
const DURATION = { type: AttributeKey_Type.DOUBLE, name: "sentry.duration_ms" };
const OP = { type: AttributeKey_Type.STRING, name: "sentry.op" };
const STATUS = { type: AttributeKey_Type.STRING, name: "sentry.status" };

const meta = (itemType = TraceItemType.SPAN) => ({
  organizationId: 1n,
  projectIds: [1n, 2n, 3n],
  referrer: "api.explore.timeseries",
  startTimestamp: { seconds: BigInt(START) },
  endTimestamp: { seconds: BigInt(START + 86_400) },
  traceItemType: itemType,
});

const agg = (aggregate: Fn, label: string, extrapolationMode = ExtrapolationMode.NONE, key = DURATION) => ({
  label,
  expression: { case: "conditionalAggregation" as const, value: { aggregate, key, label, extrapolationMode } },
});
const eq = (key: typeof OP, value: string) => ({ value: { case: "comparisonFilter" as const, value: { key, op: ComparisonFilter_Op.EQUALS, value: { value: { case: "valStr" as const, value } } } } });

const REQUESTS: Init[] = [
  { meta: meta(), granularitySecs: 3600n, expressions: [agg(Fn.COUNT, "count"), agg(Fn.SUM, "sum")] },
  { meta: meta(), granularitySecs: 300n, expressions: [agg(Fn.P95, "p95", ExtrapolationMode.SAMPLE_WEIGHTED)], groupBy: [OP] },
  { meta: meta(), granularitySecs: 3600n, filter: { value: { case: "andFilter", value: { filters: [eq(OP, "db"), eq(STATUS, "ok")] } } }, expressions: [agg(Fn.AVG, "avg")] },
  {
    meta: meta(),
    granularitySecs: 600n,
    expressions: [
      {
        label: "failure_rate",
        expression: {
          case: "formula",
          value: {
            op: Expression_BinaryFormula_Op.DIVIDE,
            left: { ...agg(Fn.COUNT, "failed"), expression: { case: "conditionalAggregation", value: { aggregate: Fn.COUNT, key: DURATION, label: "failed", extrapolationMode: ExtrapolationMode.SAMPLE_WEIGHTED, filter: eq(STATUS, "internal_error") } } },
            right: agg(Fn.COUNT, "all", ExtrapolationMode.SAMPLE_WEIGHTED),
            defaultValue: { case: "defaultValueDouble", value: 0 },
          },
        },
      },
    ],
  },
  { meta: meta(TraceItemType.LOG), granularitySecs: 1800n, expressions: [agg(Fn.COUNT, "logs", ExtrapolationMode.NONE, { type: AttributeKey_Type.INT, name: "sentry.severity_number" })], groupBy: [{ type: AttributeKey_Type.STRING, name: "sentry.severity_text" }] },
];

export const RPC_CORPUS: readonly Uint8Array[] = REQUESTS.map((init) => toBinary(TimeSeriesRequestSchema, create(TimeSeriesRequestSchema, init)));
