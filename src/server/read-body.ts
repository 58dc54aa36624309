/** Reads a request body within the size bound every route shares. */
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import { QueryServiceError } from "../errors/query-service-error.js";
import { MAX_BODY_BYTES } from "../request/parse-json-body.js";

/** Past this much, an oversized upload is cut off instead of drained. */
const MAX_DRAIN_BYTES = 64 * MAX_BODY_BYTES;

export async function readBody(request: IncomingMessage | Http2ServerRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    // An oversized body is still read (and dropped) to its end, so the client, which is
    // blocked sending it, gets to read our 413; a body beyond any reason is cut off.
    if (size > MAX_DRAIN_BYTES) {
      (request as IncomingMessage).destroy();
      break;
    }
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) {
    throw new QueryServiceError("invalid_query", `the request body is larger than ${MAX_BODY_BYTES} bytes`, { httpStatus: 413 });
  }
  return Buffer.concat(chunks);
}

