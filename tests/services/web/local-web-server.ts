import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 (free port) for the web tools' tests: each route answers with its handler; every
 * connection and request is counted, so a test can prove a refused URL was never connected to.
 */

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Route = (req: SeenRequest, res: http.ServerResponse) => void;

export interface LocalWebServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  connections: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startLocalWebServer(routes: Record<string, Route>): Promise<LocalWebServer> {
  const sockets = new Set<Socket>();
  const state = { connections: 0, requests: [] as SeenRequest[] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: SeenRequest = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      state.requests.push(seen);
      const route = routes[seen.url.split("?")[0] ?? "/"];
      if (!route) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("no such page");
        return;
      }
      route(seen, res);
    });
  });
  server.on("connection", (socket: Socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** A route answering with a fixed body and content type. */
export function page(body: string | Buffer, contentType: string, status = 200): Route {
  return (_req, res) => {
    const data = typeof body === "string" ? Buffer.from(body) : body;
    res.writeHead(status, { "content-type": contentType, "content-length": data.length });
    res.end(data);
  };
}

export function redirect(location: string, status = 302): Route {
  return (_req, res) => {
    res.writeHead(status, { location });
    res.end();
  };
}
