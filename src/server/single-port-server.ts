/**
 * One port for HTTP/1.1 and cleartext HTTP/2 (h2c, for gRPC). A plain TCP server reads the first
 * bytes of each connection: the HTTP/2 client preface goes to the http2 server, anything else to
 * the http1 server. Both run the same Connect handler, whose fallback is the JSON routes.
 */
import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import { createServer as createTcpServer, type Socket } from "node:net";

const HTTP2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

export type RequestHandler = (request: IncomingMessage | Http2ServerRequest, response: ServerResponse | Http2ServerResponse) => void;

export interface RunningServer {
  readonly port: number;
  readonly host: string;
  close(): Promise<void>;
}

export async function listenOnSinglePort(handler: RequestHandler, host: string, port: number): Promise<RunningServer> {
  const http1 = createHttp1Server({ keepAliveTimeout: 65_000 }, handler as (req: IncomingMessage, res: ServerResponse) => void);
  const http2 = createHttp2Server({}, handler as (req: Http2ServerRequest, res: Http2ServerResponse) => void);
  const sockets = new Set<Socket>();

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
    close: async () => {
      await new Promise<void>((resolve) => {
        tcp.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      http1.close();
      http2.close();
    },
  };
}
