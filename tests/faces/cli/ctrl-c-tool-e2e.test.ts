import { afterEach, describe, expect, it } from "vitest";
import { commandScript } from "../../safety/approval-script.js";
import { startCli, type CliRun, shows } from "./cli-process.js";
import { useCliSession } from "./cli-session.js";

const cli = useCliSession(commandScript(["echo started; sleep 30"]));
const running: CliRun[] = [];

afterEach(() => {
  for (const run of running.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
});

describe("Ctrl-C while a tool runs", () => {
  it.each([
    ["SIGINT", "stopped by Ctrl-C"],
    ["SIGTERM", "stopped by SIGTERM"],
  ] as const)("%s: the command's line says it was %s, not that it failed unexpectedly", async (signal, said) => {
    const run = startCli(["run", "Run the checks"], { cwd: cli.root, env: cli.env });
    running.push(run);
    await shows(run, "│ started");
    run.child.kill(signal);
    const { code } = await run.done;
    expect(code).toBe(130);
    expect(run.stdout()).toContain(`! execute_command: execute_command was ${said}\n`);
    expect(run.stdout()).not.toContain("failed unexpectedly");
    expect(run.stdout()).not.toContain("This operation was aborted");
    expect(run.stdout()).toContain("Interrupted. Resume with: mini-cursor resume");
  });
});
