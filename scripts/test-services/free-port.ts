import { createServer } from "node:net";
import { log } from "./log.js";

/**
 * Asks the OS for a currently unused TCP port on 127.0.0.1 by binding port 0 and
 * releasing it again. There is a small window in which another process could grab
 * the port before our server binds it; with ephemeral ports chosen by the kernel
 * that is rare enough for a test harness.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0 }, () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("could not determine the port the OS assigned"));
        return;
      }
      const { port } = address;
      server.close((err) => (err ? reject(err) : resolve(port)));
    });
  });
}

/** `count` distinct free ports (the OS may hand out a just-released port again). */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/**
 * Runs `start` (which picks its own free ports) again when the server lost the race
 * for a port between {@link freePort} releasing it and the server binding it. The
 * server's log tail is part of the error message, which is where the bind error shows.
 */
export async function retryOnPortClash<T>(what: string, start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (attempt >= attempts || !/address already in use/i.test(message)) throw err;
      log(`${what}: its port was taken before it could bind it; retrying with new ports`);
    }
  }
}
