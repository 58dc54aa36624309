/** A refusal over gRPC: ResourceExhausted with the typed ErrorDetail carrying quota_allowance. */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorDetailSchema } from "../../gen/quarry/v1/common_pb.js";
import { QueryService, SnqlRequestSchema } from "../../gen/quarry/v1/query_pb.js";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({ policyOverrides: { PerSecondRateLimitAllocationPolicy: { per_second_limit: 1 } } });
});
afterAll(async () => {
  await server?.close();
});

describe("rate-limited over gRPC", () => {
  it("is ResourceExhausted with quota_allowance in the error detail", async () => {
    const client = createClient(QueryService, createGrpcTransport({ baseUrl: server.baseUrl }));
    const request = (limit: number) =>
      create(SnqlRequestSchema, {
        dataset: "events",
        query: `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1 LIMIT ${limit}`,
        tenantIds: { organizationId: 1n, referrer: "test.rpc.limits" },
      });
    const first = await client.snql(request(1));
    expect(first.quotaAllowance?.summary?.isSuccessful).toBe(true);
    const failure = await client.snql(request(2)).then(
      () => null,
      (error: unknown) => ConnectError.from(error),
    );
    expect(failure?.code).toBe(Code.ResourceExhausted);
    const [detail] = failure!.findDetails(ErrorDetailSchema);
    expect(detail?.type).toBe("rate-limited");
    expect(detail?.message).toContain("PerSecondRateLimitAllocationPolicy");
    expect(detail?.quotaAllowance?.summary).toMatchObject({ isRejected: true, rejectionStorageKey: "errors", quotaUnit: "queries_per_second", quotaUsed: 2 });
    expect(Object.keys(detail?.timing?.marksMs ?? {})).toContain("rate_limit");
  });
});
