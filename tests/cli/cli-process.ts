import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/main.js");

export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The built CLI as a real child process (as a user runs it), with a clean, explicit environment. */
export interface CliOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to the CLI's stdin (approval answers, one per line), then stdin is closed. */
  input?: string;
  /** Node's own flags for the CLI's process only (NODE_OPTIONS would also reach the commands the agent runs). */
  nodeArgs?: string[];
}

export function startCli(args: string[], options: CliOptions): CliRun {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
    cwd: options.cwd,
    // Memory is off unless a test turns it on (tests/memory): no test may start Chroma in the user's data folder.
    // Approvals are automatic unless a test asks for them (tests/safety): no test waits for a person.
    // A local Chroma stops with its last session, unless a test keeps it up (the product's default does).
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off", MINI_CURSOR_APPROVAL: "auto", MINI_CURSOR_CHROMA_IDLE: "0", ...options.env },
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, done };
}

export async function runCli(args: string[], options: CliOptions) {
  const run = startCli(args, options);
  const { code } = await run.done;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
