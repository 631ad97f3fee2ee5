import { spawn, type ChildProcess } from "node:child_process";
import type { CreateTerminalRequest, TerminalExitStatus } from "@agentclientprotocol/sdk";

interface Terminal {
  request: CreateTerminalRequest;
  child: ChildProcess;
  output: string;
  exit: Promise<TerminalExitStatus>;
  released: boolean;
}

/**
 * The terminals of a test editor, as an editor provides them for `terminal/*`: each `terminal/create` really runs
 * the command it names (in the client's environment, outside any sandbox) and keeps its output.
 */
export class ClientTerminals {
  readonly terminals = new Map<string, Terminal>();
  private count = 0;

  create(request: CreateTerminalRequest): { terminalId: string } {
    const env = Object.fromEntries((request.env ?? []).map((v) => [v.name, v.value]));
    const child = spawn(request.command, request.args ?? [], {
      cwd: request.cwd ?? undefined,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const terminal: Terminal = {
      request,
      child,
      output: "",
      released: false,
      exit: new Promise((resolve) => child.on("close", (exitCode, signal) => resolve({ exitCode, signal }))),
    };
    child.stdout?.on("data", (d: Buffer) => (terminal.output += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (terminal.output += d.toString()));
    this.count += 1;
    const terminalId = `term-${this.count}`;
    this.terminals.set(terminalId, terminal);
    return { terminalId };
  }

  private get(terminalId: string): Terminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal || terminal.released) throw new Error(`no terminal ${terminalId}`);
    return terminal;
  }

  async waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    return this.get(terminalId).exit;
  }

  output(terminalId: string) {
    const terminal = this.get(terminalId);
    return { output: terminal.output, truncated: false };
  }

  kill(terminalId: string): void {
    this.get(terminalId).child.kill("SIGKILL");
  }

  release(terminalId: string): void {
    const terminal = this.get(terminalId);
    if (terminal.child.exitCode === null && terminal.child.signalCode === null) terminal.child.kill("SIGKILL");
    terminal.released = true;
  }

  /** Kills whatever still runs (the test's cleanup). */
  stopAll(): void {
    for (const terminal of this.terminals.values()) terminal.child.kill("SIGKILL");
  }
}
