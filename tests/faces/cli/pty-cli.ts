import { spawn, type ChildProcess } from "node:child_process";
import { shellQuote } from "../../../src/host/resume-hint.js";
import { CLI } from "./cli-process.js";

/** The built CLI on a real pseudo-terminal (util-linux `script`): stdin, stdout and stderr are the terminal. */
export interface PtyCli {
  child: ChildProcess;
  /** Everything the terminal showed so far (echoed keys included), CRLF turned into LF. */
  screen: () => string;
  /** Types into the terminal (use "\r" for Enter, "\u0003" for Ctrl-C). */
  type: (keys: string) => void;
  /** Resolves once `test` holds for the screen; rejects if the CLI ends first. */
  shows: (test: (screen: string) => boolean, what: string) => Promise<void>;
  done: Promise<number | null>;
  /** Ends the terminal (and so the CLI) if it is still running. */
  kill: () => void;
}

export function startPtyCli(args: string[], options: { cwd: string; env: Record<string, string> }): PtyCli {
  // A fixed size: with no terminal around the test, `script` would give the CLI a 0×0 one.
  const command = `stty cols 120 rows 40; exec ${[process.execPath, CLI, ...args].map(shellQuote).join(" ")}`;
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      SHELL: "/bin/sh",
      TERM: "xterm",
      NO_COLOR: "1",
      MINI_CURSOR_MEMORY: "off",
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  // Keys typed after the CLI ended go nowhere; that is not the test's failure to report.
  child.stdin?.on("error", () => {});
  let out = "";
  const watchers = new Set<() => void>();
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString().replace(/\r\n/g, "\n");
    for (const watch of watchers) watch();
  });
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const shows = (test: (screen: string) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const watch = () => {
        if (!test(out)) return;
        watchers.delete(watch);
        resolve();
      };
      watchers.add(watch);
      watch();
      void done.then(() => {
        watchers.delete(watch);
        if (!test(out)) reject(new Error(`the CLI ended before ${what}:\n${out}`));
      });
    });
  return {
    child,
    screen: () => out,
    type: (keys) => void child.stdin?.write(keys),
    shows,
    done,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/** How many times `text` appears in `screen`. */
export const count = (screen: string, text: string): number => screen.split(text).length - 1;
