import { describe, expect, it } from "vitest";
import { moduleTrace } from "../../helpers/module-trace.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";

/**
 * A bad command line of `run` is answered before the run module loads (issue 40): the session host, the worktree and
 * MCP code and the process launcher are what made a typo take seconds. Checked by what the built CLI loads (a module
 * hook, tests/helpers/module-trace.ts), never by timing.
 */

const CASES: [string[], string][] = [
  [["run", "fix it", "--max-step", "3"], "unknown option --max-step for mini-cursor run; did you mean --max-steps?"],
  [["run"], 'missing task: mini-cursor run "<task>" or --task-file FILE (see mini-cursor run --help)'],
  [["run", "fix it", "--max-steps", "0"], '--max-steps must be a positive whole number, got "0"'],
  [["run", "fix it", "--approval", "yolo"], '--approval must be ask, auto or read-only, got "yolo"'],
  [["run", "fix it", "--allow-network", "--no-allow-network"], "--allow-network and --no-allow-network contradict each other; give one"],
  [["run", "fix it", "--budget-usd", "free"], '--budget-usd must be a positive amount in USD (e.g. 0.50), got "free"'],
  [["run", "fix it", "--command-timeout", "1.5"], '--command-timeout must be a positive whole number, got "1.5"'],
];

/** Sources that only a session needs: loading any of them means the usage error waited for the run module. */
const SESSION_ONLY = [
  /\/src\/faces\/cli\/commands\/run\.ts$/,
  /\/src\/platform\/launcher\//,
  /\/src\/host\/session-services\.ts$/,
  /\/src\/host\/config-setup\.ts$/,
  /\/src\/sessions\/worktree\//,
  /\/node_modules\/@langchain\//,
];

describe("run's usage errors load no run module (built CLI)", () => {
  const ws = useTempWorkspace({ "README.md": "hello\n" });

  it.each(CASES)("%j → one line, exit 2, before the run module loads", async (args, line) => {
    const trace = moduleTrace(ws.root, "trace");
    const { code, stdout, stderr } = await runCli(args, { cwd: ws.root, env: trace.env });
    expect(stderr).toBe(`mini-cursor: ${line}\n`);
    expect(stdout).toBe("");
    expect(code).toBe(2);
    const modules = trace.modules();
    // The hook saw the check itself: an empty trace would prove nothing.
    expect(modules.some((m) => m.endsWith("/src/faces/cli/commands/run-args.ts"))).toBe(true);
    expect(modules.filter((m) => SESSION_ONLY.some((pattern) => pattern.test(m)))).toEqual([]);
  });

  it("a workspace that does not exist is answered the same way", async () => {
    const trace = moduleTrace(ws.root, "trace-workspace");
    const missing = `${ws.root}/nowhere`;
    const { code, stderr } = await runCli(["run", "fix it", "--workspace", missing], { cwd: ws.root, env: trace.env });
    expect(stderr).toBe(`mini-cursor: workspace ${missing} does not exist\n`);
    expect(code).toBe(2);
    expect(trace.modules().filter((m) => SESSION_ONLY.some((pattern) => pattern.test(m)))).toEqual([]);
  });

  it("a good command line goes on to the run module (which then finds no model endpoint)", async () => {
    const trace = moduleTrace(ws.root, "trace-good");
    // Nothing listens on port 9 (discard): the Ollama probe fails at once and the run stops with the model help.
    const { code, stderr } = await runCli(["run", "fix it"], { cwd: ws.root, env: { ...trace.env, OLLAMA_HOST: "127.0.0.1:9" } });
    expect(stderr).toContain("No model endpoint is configured");
    expect(code).toBe(2);
    expect(trace.modules().some((m) => m.endsWith("/src/faces/cli/commands/run.ts"))).toBe(true);
  });
});
