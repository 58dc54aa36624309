/**
 * A closed-loop HTTP/1.1 load generator, run as its own process so it does not share the
 * server's event loop: `concurrency` keep-alive connections each send the same POST as soon as
 * the previous answer arrived, for `durationMs` (after a warm-up). It writes the request bytes
 * itself and reads only the status line and Content-Length, because node:http's client costs
 * more per request than the server under test. Prints one JSON line: req/s, p50, p99, errors.
 *   node load-generator.js <url> <bodyJson> <concurrency> <durationMs>
 */
import { connect, type Socket } from "node:net";

const [url, body, concurrencyText, durationText] = process.argv.slice(2);
if (!url || !body) {
  process.stderr.write("usage: load-generator <url> <body> <concurrency> <durationMs>\n");
  process.exit(2);
}
const concurrency = Number(concurrencyText ?? 32);
const durationMs = Number(durationText ?? 5000);
const target = new URL(url);
const payload = Buffer.from(body);
const requestBytes = Buffer.concat([
  Buffer.from(
    `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: keep-alive\r\n\r\n`,
  ),
  payload,
]);
const HEADER_END = Buffer.from("\r\n\r\n");

const latencies: number[] = [];
let errors = 0;
const warmUntil = performance.now() + Math.min(1000, durationMs / 5);
const endAt = warmUntil + durationMs;

/** One connection's request loop; resolves when the time is up. */
function connection(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(target.port), target.hostname);
    socket.setNoDelay(true);
    let buffered: Buffer = Buffer.alloc(0);
    let sentAt = 0;
    const send = () => {
      if (performance.now() >= endAt) {
        socket.end();
        resolve();
        return;
      }
      sentAt = performance.now();
      socket.write(requestBytes);
    };
    socket.on("connect", send);
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const headerEnd = buffered.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const head = buffered.subarray(0, headerEnd).toString("latin1");
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      const total = headerEnd + HEADER_END.length + length;
      if (buffered.length < total) return;
      buffered = buffered.subarray(total);
      const doneAt = performance.now();
      if (sentAt >= warmUntil) {
        if (head.startsWith("HTTP/1.1 200")) latencies.push(doneAt - sentAt);
        else errors++;
      }
      send();
    });
  });
}

await Promise.all(Array.from({ length: concurrency }, connection));
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
process.stdout.write(
  `${JSON.stringify({ requestsPerSecond: Math.round((latencies.length / (endAt - warmUntil)) * 1000), p50Ms: at(0.5), p99Ms: at(0.99), requests: latencies.length, errors })}\n`,
);
