/**
 * One port for HTTP/1.1 and cleartext HTTP/2 (h2c, for gRPC). A plain TCP server reads the first
 * bytes of each connection: the HTTP/2 client preface goes to the http2 server, anything else to
 * the http1 server. Both run the same Connect handler, whose fallback is the JSON routes.
 */
import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from "node:http2";
import { createServer as createTcpServer, type Socket } from "node:net";

const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

export type RequestHandler = (request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) => void;

/** Answers a request still in progress at the close deadline (true), or says its answer has begun (false). */
export type CutOffAnswer = (request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) => boolean;

/** How long the answers given at the deadline get to leave before the connections are cut. */
const CUT_OFF_FLUSH_MS = 200;

export interface RunningServer {
  readonly port: number;
  readonly host: string;
  /** Requests being answered now. */
  readonly activeRequests: number;
  /**
   * Stops accepting connections, closes idle ones, lets requests in progress finish for up to
   * `deadlineMs` (closing each connection as its last answer goes out), then answers what is
   * left with the cut-off answer where its answer has not begun, and cuts the connections.
   */
  close(deadlineMs?: number): Promise<void>;
}

export async function listenOnSinglePort(handler: RequestHandler, host: string, port: number, cutOff?: CutOffAnswer): Promise<RunningServer> {
  let active = 0;
  const inProgress = new Map<ServerResponse | Http2ServerResponse, IncomingMessage | Http2ServerRequest>();
  let draining = false;
  let drained: (() => void) | null = null;
  // Requests in progress per HTTP/1.1 connection: a draining server closes a connection as soon
  // as it has none (node's own idle tracking only covers connections a server accepted itself).
  const http1Sockets = new Map<Socket, number>();
  const closeIdleHttp1 = () => {
    for (const [socket, requests] of http1Sockets) if (requests === 0) socket.destroy();
  };
  const tracked: RequestHandler = (request, response) => {
    active += 1;
    inProgress.set(response, request);
    const socket = request.httpVersionMajor === 1 ? (request.socket as Socket) : null;
    if (socket && http1Sockets.has(socket)) http1Sockets.set(socket, http1Sockets.get(socket)! + 1);
    response.once("close", () => {
      active -= 1;
      inProgress.delete(response);
      if (socket && http1Sockets.has(socket)) http1Sockets.set(socket, http1Sockets.get(socket)! - 1);
      if (draining) {
        // The answer is out: its keep-alive connection is idle now, and goes.
        closeIdleHttp1();
        if (active === 0) drained?.();
      }
    });
    handler(request, response);
  };
  const http1 = createHttp1Server({ keepAliveTimeout: 65_000 }, tracked as (req: IncomingMessage, res: ServerResponse) => void);
  const http2 = createHttp2Server({}, tracked as (req: Http2ServerRequest, res: Http2ServerResponse) => void);
  const sockets = new Set<Socket>();
  const sessions = new Set<ServerHttp2Session>();
  http2.on("session", (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });

  const route = (socket: Socket, head: Buffer) => {
    socket.pause();
    socket.unshift(head);
    const isHttp2 = head.length >= HTTP2_PREFACE.length
      ? head.subarray(0, HTTP2_PREFACE.length).equals(HTTP2_PREFACE)
      : HTTP2_PREFACE.subarray(0, head.length).equals(head);
    if (isHttp2) {
      // The http2 session reads from the socket itself; resuming it here would lose the preface.
      http2.emit("connection", socket);
    } else {
      http1Sockets.set(socket, 0);
      socket.once("close", () => http1Sockets.delete(socket));
      http1.emit("connection", socket);
      socket.resume();
    }
  };

  const tcp = createTcpServer((socket) => {
    sockets.add(socket);
    // As node:http does for its own sockets: without it, Nagle's algorithm holds small responses
    // back until the client's delayed ACK, tens of milliseconds per request on keep-alive.
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      // Wait for enough bytes to tell the two protocols apart (a request line is never this short).
      if (buffered.length < HTTP2_PREFACE.length && HTTP2_PREFACE.subarray(0, buffered.length).equals(buffered)) return;
      socket.off("data", onData);
      route(socket, buffered);
    };
    socket.on("data", onData);
  });

  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen(port, host, () => {
      tcp.off("error", reject);
      resolve();
    });
  });
  const address = tcp.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  return {
    port: boundPort,
    host,
    get activeRequests() {
      return active;
    },
    close: async (deadlineMs = 0) => {
      draining = true;
      const closed = new Promise<void>((resolve) => tcp.close(() => resolve()));
      closeIdleHttp1();
      // GOAWAY: the client opens no new stream here; streams in progress finish.
      for (const session of sessions) session.close();
      if (active > 0 && deadlineMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          drained = resolve;
          timer = setTimeout(resolve, deadlineMs);
        });
        clearTimeout(timer);
      }
      if (cutOff !== undefined && inProgress.size > 0) await answerWhatIsLeft(inProgress, cutOff);
      for (const socket of sockets) socket.destroy();
      await closed;
      http1.close();
      http2.close();
    },
  };
}

/** The cut-off answer for each request still in progress, and a moment for those answers to leave. */
async function answerWhatIsLeft(inProgress: ReadonlyMap<ServerResponse | Http2ServerResponse, IncomingMessage | Http2ServerRequest>, cutOff: CutOffAnswer): Promise<void> {
  const leaving: Promise<void>[] = [];
  for (const [response, request] of [...inProgress]) {
    if (!cutOff(request, response)) continue;
    leaving.push(new Promise((resolve) => response.once("close", () => resolve())));
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(leaving), new Promise((resolve) => (timer = setTimeout(resolve, CUT_OFF_FLUSH_MS)))]);
  clearTimeout(timer);
}
