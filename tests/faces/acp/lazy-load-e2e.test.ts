import { describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { moduleTrace } from "../../helpers/module-trace.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";

/** The ACP SDK and the session machinery load only when `mini-cursor acp` serves: help stays fast. */
const HEAVY = /\/node_modules\/(@agentclientprotocol|@langchain|zod)\//;

describe("mini-cursor acp loads on demand", () => {
  const ws = useTempWorkspace();

  it.each([[["--help"]], [["acp", "--help"]]])("%j loads neither the ACP SDK nor LangChain", async (args) => {
    const trace = moduleTrace(ws.root, `trace-${args.join("-").replace(/[^a-z]/g, "")}`);
    const { code, stdout } = await runCli(args, { cwd: ws.root, env: trace.env });
    expect(code).toBe(0);
    expect(stdout).toContain("mini-cursor acp");
    const modules = trace.modules();
    expect(modules.some((m) => m.endsWith("/src/faces/cli/main.ts"))).toBe(true);
    expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
  });

  it("acp with an argument is one usage line, exit 2", async () => {
    const { code, stdout, stderr } = await runCli(["acp", "now"], { cwd: ws.root, env: {} });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe('mini-cursor: acp takes no arguments (got "now"); an editor starts it and speaks ACP on stdin/stdout\n');
  });
});
