import { afterEach } from "vitest";
import { startCli, type CliRun } from "./cli-process.js";
import { useCliSession, type CliSession } from "./cli-session.js";
import { hangingCoderScript, sessionRows, type SessionRow } from "./follow-up-script.js";

export interface HangingCoderSession {
  session: CliSession;
  cli: (args: string[]) => ReturnType<CliSession["cli"]>;
  rows: () => Promise<SessionRow[]>;
  /** Starts `run` with the "hang-coder" model; resolves once it is stuck mid-step in its coder's first call. */
  startStuckRun(): Promise<{ run: CliRun; id: string }>;
}

/**
 * useCliSession with hangingCoderScript, for tests of what a session that is running (or was stopped mid-step) allows.
 * A stuck run a test leaves behind is killed after it, before its workspace goes.
 */
export function useHangingCoderSession(): HangingCoderSession {
  let coderWaiting: () => void = () => {};
  const session = useCliSession(hangingCoderScript(() => coderWaiting()));
  const cli = (args: string[]) => session.cli(args);
  const rows = () => sessionRows(cli);
  const started: CliRun[] = [];
  afterEach(() => {
    for (const run of started.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  });
  return {
    session,
    cli,
    rows,
    async startStuckRun() {
      const arrived = new Promise<void>((resolve) => (coderWaiting = resolve));
      const run = startCli(["run", "--model", "hang-coder", "Add greet with a test"], { cwd: session.root, env: session.env });
      started.push(run);
      const first = await Promise.race([arrived.then(() => null), run.done]);
      if (first) throw new Error(`the run exited (${String(first.code)}) before its coder was called: ${run.stderr()}`);
      return { run, id: (await rows())[0]?.id ?? "" };
    },
  };
}
