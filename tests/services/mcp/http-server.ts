import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { freePort } from "../../helpers/free-port.js";
import { EVERYTHING } from "./everything.js";

export interface HttpMcpServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** server-everything over streamable HTTP on a free loopback port, ready once it says it listens. */
export async function startHttpEverything(): Promise<HttpMcpServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
    env: { PATH: process.env.PATH ?? "", PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let said = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes(`listening on port ${port}`)) resolve();
    });
    void exited.then(() => reject(new Error(`server-everything (HTTP) exited: ${said}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface HeaderCheckingProxy {
  url: string;
  /** The value of the checked header on every request that arrived, in order ("" when absent). */
  seen: string[];
  stop(): Promise<void>;
}

/**
 * A loopback proxy in front of an HTTP MCP server that lets a request through only when `header` has `value`
 * (else 401), so a test sees that configured headers really reach the server (server-everything ignores them).
 */
export async function startHeaderCheckingProxy(target: string, header: string, value: string): Promise<HeaderCheckingProxy> {
  const upstream = new URL(target);
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const got = req.headers[header.toLowerCase()];
    seen.push(typeof got === "string" ? got : "");
    if (got !== value) {
      res.writeHead(401, { "content-type": "text/plain" }).end("unauthorized");
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
