import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { shellQuote } from "../../../src/host/resume-hint.js";
import { CLI, runCli, startCli } from "./cli-process.js";

let server: ScriptedServer;
let tmp: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(commandScript(["echo later > ran.txt"]));
  // The workspace's path has a space and a quote: the printed command must quote it.
  tmp = await makeTempWorkspace({ "my project's/package.json": "{}\n", "elsewhere/.keep": "", "bin/.keep": "" });
  // `mini-cursor` on PATH, as an installed CLI is: the printed command runs as printed.
  await fs.writeFile(path.join(tmp.root, "bin", "mini-cursor"), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, { mode: 0o755 });
  env = {
    PATH: `${path.join(tmp.root, "bin")}:${process.env.PATH ?? ""}`,
    OPENAI_BASE_URL: server.baseUrl,
    MINI_CURSOR_MODEL: "scripted",
    MINI_CURSOR_APPROVAL: "ask",
  };
});

afterEach(async () => {
  await server.close();
  await tmp.cleanup();
});

/** The workspace (its path has a space and a quote) and the folder the person runs the CLI from. */
const workspaceDir = () => path.join(tmp.root, "my project's");
const elsewhereDir = () => path.join(tmp.root, "elsewhere");

/**
 * A printed command pasted into a shell where the person is (spawned, not run synchronously: the scripted model lives
 * in this process), answering the approval: it must run the session's command and write nothing there.
 */
async function expectWorksFromElsewhere(command: string | undefined): Promise<void> {
  expect(command).toContain("--workspace");
  const shell = spawn("sh", ["-c", command ?? "false"], { cwd: elsewhereDir(), env: { ...env, HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off" } });
  shell.stdin.end("y\n");
  let output = "";
  shell.stdout.on("data", (d: Buffer) => (output += d.toString()));
  shell.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => shell.on("close", resolve));
  expect({ code, output }).toMatchObject({ code: 0 });
  expect(await fs.readFile(path.join(workspaceDir(), "ran.txt"), "utf8")).toBe("later\n");
  expect(await fs.readdir(elsewhereDir())).toEqual([".keep"]);
}

describe("the printed resume command", () => {
  it("works from the folder the run was started in, when --workspace named another", async () => {
    // stdin closed at the approval: the run ends waiting for it and prints how to answer it.
    const first = await runCli(["run", "--workspace", workspaceDir(), "Run the checks"], { cwd: elsewhereDir(), env, input: "" });
    expect(first).toMatchObject({ code: 130 });
    await expectWorksFromElsewhere(/Answer it with: (mini-cursor resume .+)$/m.exec(first.stdout)?.[1]);
  });

  it("works from another folder when resume --workspace refuses a follow-up to a session waiting for an answer", async () => {
    expect(await runCli(["run", "--workspace", workspaceDir(), "Run the checks"], { cwd: elsewhereDir(), env, input: "" })).toMatchObject({ code: 130 });
    const refused = await runCli(["resume", "--workspace", workspaceDir(), "--message", "Also add docs"], { cwd: elsewhereDir(), env });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    await expectWorksFromElsewhere(/answer it first with: (mini-cursor resume .+), then give the follow-up/.exec(refused.stderr)?.[1]);
  });

  it("works from another folder when resume --workspace refuses to continue a session stopped by its budget", async () => {
    // A budget of one token stops the session after the planner's first call, before the command.
    const args = ["run", "--workspace", workspaceDir(), "--budget-tokens", "1", "Run the checks"];
    expect(await runCli(args, { cwd: elsewhereDir(), env })).toMatchObject({ code: 1 });
    const refused = await runCli(["resume", "--workspace", workspaceDir()], { cwd: elsewhereDir(), env });
    expect(refused.code).toBe(1);
    const printed = /Continue with a higher budget: (mini-cursor resume .+) --budget-tokens <more than \d+>$/m.exec(refused.stdout)?.[1];
    await expectWorksFromElsewhere(printed && `${printed} --budget-tokens 1000000`);
  });

  it("names the workspace by its absolute path when it was typed as a relative one, so it works from anywhere", async () => {
    const first = await runCli(["run", "--workspace", "my project's", "Run the checks"], { cwd: tmp.root, env, input: "" });
    expect(first).toMatchObject({ code: 130 });
    const printed = /Answer it with: (mini-cursor resume .+)$/m.exec(first.stdout)?.[1];
    expect(printed).toContain(`--workspace ${shellQuote(await fs.realpath(workspaceDir()))}`);
    await expectWorksFromElsewhere(printed);
  });

  it("is printed once when Ctrl-C stops a running command", async () => {
    const slow = await startScriptedOpenAIServer(commandScript(["echo started; sleep 30"]));
    try {
      const run = startCli(["run", "--workspace", workspaceDir(), "--approval", "auto", "Run the checks"], {
        cwd: elsewhereDir(),
        env: { ...env, OPENAI_BASE_URL: slow.baseUrl },
      });
      for (const deadline = Date.now() + 30_000; !run.stdout().includes("started");) {
        if (Date.now() > deadline || run.child.exitCode !== null) throw new Error(`the command did not start: ${run.stdout()}${run.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      run.child.kill("SIGINT");
      expect((await run.done).code).toBe(130);
      const hints = `${run.stdout()}${run.stderr()}`.match(/mini-cursor resume .+$/gm) ?? [];
      expect(hints).toEqual([
        `mini-cursor resume ${/session (\S+)/.exec(run.stdout())?.[1] ?? "?"} --workspace ${shellQuote(await fs.realpath(workspaceDir()))}`,
      ]);
    } finally {
      await slow.close();
    }
  });

  it("names no workspace when the run was started in it", async () => {
    const first = await runCli(["run", "Run the checks"], { cwd: workspaceDir(), env, input: "" });
    expect(first).toMatchObject({ code: 130 });
    expect(first.stdout).toMatch(/Answer it with: mini-cursor resume \S+$/m);
  });
});
