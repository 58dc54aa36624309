/**
 * A request still in progress when the server's close deadline comes is answered a typed 503 in
 * its own protocol (cut-off-answer.ts): the JSON routes' `{"error": {...}}`, Connect's
 * `unavailable`, gRPC's status 14 in a trailers-only answer; one whose answer has begun is cut.
 */
import { request } from "node:http";
import { connect } from "node:http2";
import { afterEach, describe, expect, it } from "vitest";
import { answerCutOff } from "../../src/server/cut-off-answer.js";
import { listenOnSinglePort, type RunningServer } from "../../src/server/single-port-server.js";

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close(0);
  server = undefined;
});

/** A server whose handler never answers, but begins the answer on /begun. */
async function stuckServer(): Promise<RunningServer> {
  return listenOnSinglePort((req, res) => {
    if (req.url === "/begun") {
      (res as import("node:http").ServerResponse).writeHead(200, { "content-type": "application/json" });
      (res as import("node:http").ServerResponse).write("{");
    }
  }, "127.0.0.1", 0, answerCutOff);
}

function post(port: number, path: string, contentType: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", path, headers: { "content-type": contentType } });
    req.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", (error) => resolve({ error: error.message }));
    });
    req.on("error", (error) => resolve({ error: error.message }));
    req.end("{}");
  });
}

describe("a request in progress at the close deadline", () => {
  it("is answered a typed 503 on the JSON routes and on Connect, and a begun answer is cut", async () => {
    server = await stuckServer();
    const port = server.port;
    const answers = [post(port, "/events/snql", "application/json"), post(port, "/quarry.v1.QueryService/RunSnql", "application/json"), post(port, "/begun", "application/json")] as const;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.activeRequests).toBe(3);
    const closing = server.close(300);
    const [json, connectAnswer, begun] = await Promise.all(answers);
    await closing;
    expect(json).toMatchObject({ status: 503 });
    expect(JSON.parse((json as { body: string }).body).error).toEqual({ type: "storage-not-available", message: expect.stringContaining("stop deadline") });
    expect(connectAnswer).toMatchObject({ status: 503 });
    expect(JSON.parse((connectAnswer as { body: string }).body)).toEqual({ code: "unavailable", message: expect.stringContaining("stop deadline") });
    // Its 200 and first byte went out: the connection is cut, the body never completes.
    expect("error" in begun || (begun as { body: string }).body === "{").toBe(true);
  });

  it("is answered gRPC status 14 (UNAVAILABLE) over HTTP/2", async () => {
    server = await stuckServer();
    const session = connect(`http://127.0.0.1:${server.port}`);
    session.on("error", () => {});
    const stream = session.request({ ":method": "POST", ":path": "/quarry.v1.QueryService/RunSnql", "content-type": "application/grpc+proto", te: "trailers" });
    stream.on("error", () => {});
    const headers = new Promise<Record<string, unknown>>((resolve) => stream.on("response", (h) => resolve(h as Record<string, unknown>)));
    stream.end(Buffer.from([0, 0, 0, 0, 0]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server.close(300);
    const answer = await headers;
    session.destroy();
    expect(answer[":status"]).toBe(200);
    expect(answer["grpc-status"]).toBe("14");
    expect(decodeURIComponent(String(answer["grpc-message"]))).toContain("stop deadline");
  });
});
