import { promises as fs } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AgentContext } from "@agentclientprotocol/sdk";
import { errorMessage } from "../../platform/error-info.js";
import { logger } from "../../platform/logger.js";

/**
 * What runs in the editor's terminal: not the command (that runs in mini-cursor's sandbox) but a viewer that prints
 * what the agent sends it over a private socket and exits with the command's exit code. Each line is JSON: `{"o":
 * text}` to print, `{"x": code}` for the exit code. It runs as CommonJS under `node -e`; it reads nothing else.
 */
const VIEWER = [
  'const s = require("node:net").connect(process.argv[1]);',
  "let code = 0;",
  'require("node:readline").createInterface({ input: s })',
  '  .on("line", (l) => { const m = JSON.parse(l); if (typeof m.o === "string") process.stdout.write(m.o); else if (typeof m.x === "number") code = m.x; })',
  '  .on("close", () => process.stdout.write("", () => process.exit(code)));',
  's.on("error", () => process.exit(1));',
].join("\n");

/** The editor keeps at most this much of a terminal's output (ACP outputByteLimit). */
const OUTPUT_BYTE_LIMIT = 1024 * 1024;
/** An editor that does not answer terminal/create within this long gets the output as text instead. */
const CREATE_TIMEOUT_MS = 5_000;
/** How long the viewer may take to connect, and to exit once told the end, before it is released anyway. */
const VIEWER_TIMEOUT_MS = 10_000;

/**
 * One command's output shown in an editor terminal (ACP `terminal/create`) while the command itself runs in the
 * sandbox: the terminal runs the viewer above, fed through a Unix socket in a private folder (mode 0700), so only
 * this user's processes could reach it and only the viewer does. Output written before the viewer connects waits.
 * Every failure falls back to showing the output as text (the terminal's id is then null).
 */
export class TerminalRelay {
  /** The editor's terminal id once it made one; null when it did not (the output then goes as text). */
  readonly id: Promise<string | null>;
  private socket: net.Socket | null = null;
  private pending: string[] = [];
  private ended = false;
  private readonly server = net.createServer();
  private folder: string | null = null;

  constructor(
    private readonly client: AgentContext,
    private readonly sessionId: string,
    cwd: string,
  ) {
    this.id = this.start(cwd).catch((error: unknown) => {
      logger.warn(`terminal/create failed; command output goes as text: ${errorMessage(error)}`);
      void this.cleanup();
      return null;
    });
  }

  write(text: string): void {
    if (this.ended || text === "") return;
    this.send({ o: text });
  }

  /** The command ended: the viewer prints what is left and exits with its code; then the terminal is released. */
  finish(exitCode: number | null): void {
    if (this.ended) return;
    this.send({ x: exitCode ?? 1 });
    this.ended = true;
    this.socket?.end();
    void this.release();
  }

  private send(message: { o: string } | { x: number }): void {
    const line = `${JSON.stringify(message)}\n`;
    if (this.socket) this.socket.write(line);
    else this.pending.push(line);
  }

  private async start(cwd: string): Promise<string> {
    this.folder = await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-term-"));
    const socketPath = path.join(this.folder, "s");
    this.server.on("connection", (socket) => {
      // One viewer per terminal: anything after it is turned away.
      if (this.socket) return void socket.destroy();
      this.socket = socket;
      socket.on("error", () => undefined);
      for (const line of this.pending.splice(0)) socket.write(line);
      if (this.ended) socket.end();
    });
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(socketPath, resolve);
    });
    const created = await this.client.request(
      "terminal/create",
      { sessionId: this.sessionId, command: process.execPath, args: ["-e", VIEWER, socketPath], cwd, env: [], outputByteLimit: OUTPUT_BYTE_LIMIT },
      { cancellationSignal: AbortSignal.timeout(CREATE_TIMEOUT_MS), stopWaitingOnCancel: true },
    );
    return created.terminalId;
  }

  /** Waits for the viewer to print everything and exit (bounded), then releases the terminal; its output stays shown. */
  private async release(): Promise<void> {
    const terminalId = await this.id;
    if (terminalId !== null) {
      const params = { sessionId: this.sessionId, terminalId };
      const bounded = { cancellationSignal: AbortSignal.timeout(VIEWER_TIMEOUT_MS), stopWaitingOnCancel: true };
      await this.client.request("terminal/wait_for_exit", params, bounded).catch(() => undefined);
      await this.client.request("terminal/release", params, bounded).catch((error: unknown) => logger.warn(`terminal/release failed: ${errorMessage(error)}`));
    }
    await this.cleanup();
  }

  private async cleanup(): Promise<void> {
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.folder) await fs.rm(this.folder, { recursive: true, force: true });
  }
}
