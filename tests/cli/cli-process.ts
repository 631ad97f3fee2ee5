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
export function startCli(args: string[], options: { cwd: string; env: Record<string, string> }): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    // Memory is off unless a test turns it on (tests/memory): no test may start Chroma in the user's data folder.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, done };
}

export async function runCli(args: string[], options: { cwd: string; env: Record<string, string> }) {
  const run = startCli(args, options);
  const { code } = await run.done;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
