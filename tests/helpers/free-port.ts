/**
 * Finds a TCP port on 127.0.0.1 that is free right now (the OS picks it). Another process could take it before
 * the caller binds it; prefer listening on port 0 directly when the server under test allows it.
 */
import net from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("freePort: no TCP address"));
        return;
      }
      const { port } = address;
      server.close((err) => (err ? reject(err) : resolve(port)));
    });
  });
}
