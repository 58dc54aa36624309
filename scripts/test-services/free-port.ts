import { createServer } from "node:net";

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
