/**
 * Snuba's RPC transport (facts B8.9): `POST /rpc/<EndpointName>/<version>`, a serialized request
 * message in, the serialized response out with 200, or a serialized `Error` whose `code` is the
 * HTTP status. Names are case-sensitive class names, as in Snuba, so a caller built on Sentry's
 * protos (sentry-protos) works against Quarry unchanged.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { anyPack, StructSchema } from "@bufbuild/protobuf/wkt";
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { TimeSeriesRequestSchema, TimeSeriesResponseSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { CreateSubscriptionRequestSchema, CreateSubscriptionResponseSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_create_subscription_pb.js";
import { ErrorSchema, type Error as RpcError } from "../../gen/sentry_protos/snuba/v1/error_pb.js";
import { QueryServiceError } from "../errors/query-service-error.js";
import { handleCreateSubscription, handleTimeSeries } from "./query-handlers.js";
import { rpcSubscriptionRequestFrom } from "../request/rpc-subscription-request.js";
import { readBody } from "./read-body.js";
import type { ServiceContext } from "./service-context.js";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

const PROTOBUF = "application/x-protobuf";
/** ClickHouse's TIMEOUT_EXCEEDED: Snuba answers it with 408. */
const CLICKHOUSE_TIMEOUT = 159;

interface Endpoint<I extends DescMessage, O extends DescMessage> {
  readonly input: I;
  readonly output: O;
  run(context: ServiceContext, request: MessageShape<I>): Promise<MessageShape<O>>;
}

function endpoint<I extends DescMessage, O extends DescMessage>(e: Endpoint<I, O>): Endpoint<DescMessage, DescMessage> {
  return e as unknown as Endpoint<DescMessage, DescMessage>;
}

/** `<Name>__<version>`, Snuba's registry key. */
const ENDPOINTS: ReadonlyMap<string, Endpoint<DescMessage, DescMessage>> = new Map([
  [
    "EndpointTimeSeries__v1",
    endpoint({ input: TimeSeriesRequestSchema, output: TimeSeriesResponseSchema, run: async (context, request) => (await handleTimeSeries(context, request)).response }),
  ],
  [
    "CreateSubscriptionRequest__v1",
    endpoint({
      input: CreateSubscriptionRequestSchema,
      output: CreateSubscriptionResponseSchema,
      run: async (context, request) => create(CreateSubscriptionResponseSchema, { subscriptionId: await handleCreateSubscription(context, rpcSubscriptionRequestFrom(request)) }),
    }),
  ],
]);

/** Snuba's other endpoints: known names that Quarry does not serve (yet). */
const NOT_SERVED = new Set([
  "EndpointTraceItemTable",
  "EndpointTraceItemAttributeNames",
  "AttributeValuesRequest",
  "EndpointTraceItemDetails",
  "EndpointTraceItemStats",
  "EndpointGetTrace",
  "EndpointGetTraces",
  "EndpointDeleteTraceItems",
  "EndpointExportTraceItems",
]);

export function isRpcPath(parts: readonly string[]): boolean {
  return parts[0] === "rpc";
}

export async function rpcRoute(context: ServiceContext, parts: readonly string[], method: string, request: Request, response: Response): Promise<void> {
  try {
    const [, name = "", version = ""] = parts;
    if (parts.length !== 3) throw rpcFailure(404, `no RPC at /${parts.join("/")}: RPC paths are /rpc/<EndpointName>/<version>, e.g. /rpc/EndpointTimeSeries/v1`);
    const target = ENDPOINTS.get(`${name}__${version}`);
    if (!target) {
      // 404 as for any endpoint the server does not have (Snuba's answer), with a message that says which it does have.
      if (NOT_SERVED.has(name) && version === "v1") throw rpcFailure(404, `endpoint ${name} with version ${version} is a Snuba endpoint Quarry does not serve; it serves EndpointTimeSeries v1 and CreateSubscriptionRequest v1`);
      throw rpcFailure(404, `endpoint ${name} with version ${version} does not exist (did you use the correct version and capitalization?)`);
    }
    if (method !== "POST") throw rpcFailure(405, `method ${method} not allowed here; use POST with a serialized ${target.input.name} body`);
    const body = await readBody(request);
    let message;
    try {
      message = fromBinary(target.input, body);
    } catch (reason) {
      throw rpcFailure(400, `protobuf gave a decode error ${(reason as Error).message} (are all fields set and the correct types?)`);
    }
    const answer = await target.run(context, message);
    send(response, 200, toBinary(target.output, answer));
  } catch (reason) {
    const error = toRpcError(reason);
    send(response, error.code, toBinary(ErrorSchema, error));
  }
}

class RpcFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function rpcFailure(status: number, message: string): RpcFailure {
  return new RpcFailure(status, message);
}

/** Any failure as Snuba's Error: request errors carry an (empty) Struct in `details`, as Snuba's do. */
function toRpcError(reason: unknown): RpcError {
  const requestError = (code: number, message: string) => create(ErrorSchema, { code, message, details: [anyPack(StructSchema, create(StructSchema))] });
  if (reason instanceof RpcFailure) return requestError(reason.status, reason.message);
  const error = QueryServiceError.from(reason);
  if (error.type === "columnstore" && error.code === CLICKHOUSE_TIMEOUT) return requestError(408, error.message);
  if (error.type === "internal_server_error") return create(ErrorSchema, { code: 500, message: `internal error occurred while executing this RPC call: ${error.message}` });
  if (error.httpStatus >= 400 && error.httpStatus < 500) return requestError(error.httpStatus, error.message);
  return create(ErrorSchema, { code: error.httpStatus, message: error.message });
}

function send(response: Response, status: number, body: Uint8Array): void {
  if (response.headersSent) return;
  (response as ServerResponse).writeHead(status, { "content-type": PROTOBUF, "content-length": body.byteLength });
  (response as ServerResponse).end(body);
}
