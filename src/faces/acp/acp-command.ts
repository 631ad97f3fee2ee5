import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import type { Clock } from "../../platform/clock.js";
import { createAcpAgent } from "./agent-app.js";

export interface AcpStdio {
  stdin: Readable;
  stdout: Writable;
  env: NodeJS.ProcessEnv;
  /** The folder the editor started the agent in. */
  cwd: string;
  version: string;
}

/**
 * Serves ACP on stdin/stdout until the editor closes stdin. stdout carries protocol messages only: anything else
 * written to it (a library's console.log) goes to stderr instead. A signal cancels the running turns (each stops at its
 * next safe point, commands killed, the session resumable) before the process exits.
 */
export async function serveAcp(io: AcpStdio, clock: Clock): Promise<number> {
  const protocol = protocolStream(io.stdout);
  const acp = createAcpAgent({ env: io.env, cwd: io.cwd, clock, version: io.version });
  const onSignal = () => {
    void acp.shutdown().finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const connection = acp.app.connect(ndJsonStream(Writable.toWeb(protocol), Readable.toWeb(io.stdin) as ReadableStream<Uint8Array>));
    await connection.closed;
    await acp.shutdown();
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** A stream to the real stdout for the protocol; other writes to `out` go to stderr from now on. */
function protocolStream(out: Writable): Writable {
  const write = out.write.bind(out) as (chunk: Uint8Array, callback: (error?: Error | null) => void) => boolean;
  out.write = process.stderr.write.bind(process.stderr) as typeof out.write;
  return new Writable({ write: (chunk: Uint8Array, _encoding, callback) => void write(chunk, callback) });
}
