import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../dist/cli/main.js");

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
  /** stdin a pipe the test keeps open and never writes to (a prompt then waits for good); ignored with `input`. */
  keepStdinOpen?: boolean;
  /** Its own process group (as a shell job is), so a test can signal the whole group as `timeout` or CI do. */
  ownGroup?: boolean;
}

export function startCli(args: string[], options: CliOptions): CliRun {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
    cwd: options.cwd,
    // Memory is off unless a test turns it on (tests/memory): no test may start Chroma in the user's data folder.
    // Approvals are automatic unless a test asks for them (tests/safety): no test waits for a person.
    // A local Chroma stops with its last session, unless a test keeps it up (the product's default does).
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      MINI_CURSOR_MEMORY: "off",
      MINI_CURSOR_APPROVAL: "auto",
      MINI_CURSOR_CHROMA_IDLE: "0",
      ...options.env,
    },
    stdio: [options.input === undefined && !options.keepStdinOpen ? "ignore" : "pipe", "pipe", "pipe"],
    detached: options.ownGroup === true,
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal }));
    // A CLI that cannot start (its cwd gone, say) fails the test at once instead of timing it out.
    child.on("error", (error) => {
      err += `could not start the CLI: ${error.message}\n`;
      resolve({ code: null, signal: null });
    });
  });
  return { child, stdout: () => out, stderr: () => err, done };
}

export async function runCli(args: string[], options: CliOptions) {
  const run = startCli(args, options);
  const { code } = await run.done;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** A `--json` run whose stdin is a pipe the test keeps open: nothing ever answers or closes it. */
export interface OpenStdinRun<Event> {
  child: ChildProcess;
  /** Settles once the output holds the marker given (a prompt's event); rejects, with the events, if the CLI ends first. */
  reached: Promise<void>;
  done: Promise<number | null>;
  events: () => Event[];
  /** Kills the CLI if it still runs (for afterEach). */
  stop: () => void;
}

export function startWithOpenStdin<Event>(args: string[], options: CliOptions, marker: string): OpenStdinRun<Event> {
  const run = startCli(args, { ...options, keepStdinOpen: true });
  const events = () =>
    run
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Event);
  const done = run.done.then(({ code }) => code);
  // Registered after startCli's own listener, so the output read here already holds the chunk.
  const seen = new Promise<void>((resolve) => run.child.stdout?.on("data", () => run.stdout().includes(marker) && resolve()));
  const ended = done.then(() => Promise.reject(new Error(`the CLI ended before ${marker}: ${run.stdout()}`)));
  const stop = () => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  };
  return { child: run.child, reached: Promise.race([seen, ended]), done, events, stop };
}

/** Resolves when `text` has appeared on the CLI's stdout (or stderr); rejects if the CLI ends first. */
export function shows(run: CliRun, text: string, stream: "stdout" | "stderr" = "stdout"): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (run[stream]().includes(text)) resolve();
    };
    run.child[stream]?.on("data", check);
    check();
    void run.done.then(() => reject(new Error(`the CLI ended without printing "${text}": ${run.stdout()} ${run.stderr()}`)));
  });
}
