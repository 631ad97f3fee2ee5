import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../helpers/free-port.js";
import { EVERYTHING } from "./everything.js";

export interface HttpMcpServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** server-everything over streamable HTTP on a free loopback port, ready once it says it listens. */
export async function startHttpEverything(): Promise<HttpMcpServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { PATH: process.env.PATH ?? "", PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
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
