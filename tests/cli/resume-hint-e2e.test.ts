import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { commandScript } from "../safety/approval-script.js";
import { CLI, runCli } from "./cli-process.js";

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

/** A printed command pasted into a shell in `cwd` (spawned, not run synchronously: the scripted model lives in this process). */
async function pasteInShell(command: string, cwd: string, input: string): Promise<{ code: number | null; output: string }> {
  const shell = spawn("sh", ["-c", command], { cwd, env: { ...env, HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off" } });
  shell.stdin.end(input);
  let output = "";
  shell.stdout.on("data", (d: Buffer) => (output += d.toString()));
  shell.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => shell.on("close", resolve));
  return { code, output };
}

describe("the printed resume command", () => {
  it("works from the folder the run was started in, when --workspace named another", async () => {
    const workspace = path.join(tmp.root, "my project's");
    const elsewhere = path.join(tmp.root, "elsewhere");
    // stdin closed at the approval: the run ends waiting for it and prints how to answer it.
    const first = await runCli(["run", "--workspace", workspace, "Run the checks"], { cwd: elsewhere, env, input: "" });
    expect(first).toMatchObject({ code: 130 });
    const printed = /Answer it with: (mini-cursor resume .+)$/m.exec(first.stdout)?.[1];
    expect(printed).toContain("--workspace");

    // Pasted into a shell where the user is.
    expect(await pasteInShell(printed ?? "false", elsewhere, "y\n")).toMatchObject({ code: 0 });
    expect(await fs.readFile(path.join(workspace, "ran.txt"), "utf8")).toBe("later\n");
    // Nothing was written where the user stands.
    expect(await fs.readdir(elsewhere)).toEqual([".keep"]);
  });

  it("works from another folder when resume --workspace refuses a follow-up to a session waiting for an answer", async () => {
    const workspace = path.join(tmp.root, "my project's");
    const elsewhere = path.join(tmp.root, "elsewhere");
    expect(await runCli(["run", "--workspace", workspace, "Run the checks"], { cwd: elsewhere, env, input: "" })).toMatchObject({ code: 130 });
    const refused = await runCli(["resume", "--workspace", workspace, "--message", "Also add docs"], { cwd: elsewhere, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    const printed = /answer it first with: (mini-cursor resume .+), then give the follow-up/.exec(refused.stderr)?.[1];
    expect(printed).toContain("--workspace");

    expect(await pasteInShell(printed ?? "false", elsewhere, "y\n")).toMatchObject({ code: 0 });
    expect(await fs.readFile(path.join(workspace, "ran.txt"), "utf8")).toBe("later\n");
    expect(await fs.readdir(elsewhere)).toEqual([".keep"]);
  });

  it("works from another folder when resume --workspace refuses to continue a session stopped by its budget", async () => {
    const workspace = path.join(tmp.root, "my project's");
    const elsewhere = path.join(tmp.root, "elsewhere");
    // A budget of one token stops the session after the planner's first call, before the command.
    expect(await runCli(["run", "--workspace", workspace, "--budget-tokens", "1", "Run the checks"], { cwd: elsewhere, env })).toMatchObject({ code: 1 });
    const refused = await runCli(["resume", "--workspace", workspace], { cwd: elsewhere, env });
    expect(refused.code).toBe(1);
    const printed = /Continue with a higher budget: (mini-cursor resume .+) --budget-tokens <more than \d+>$/m.exec(refused.stdout)?.[1];
    expect(printed).toContain("--workspace");

    expect(await pasteInShell(`${printed ?? "false"} --budget-tokens 1000000`, elsewhere, "y\n")).toMatchObject({ code: 0 });
    expect(await fs.readFile(path.join(workspace, "ran.txt"), "utf8")).toBe("later\n");
    expect(await fs.readdir(elsewhere)).toEqual([".keep"]);
  });

  it("names no workspace when the run was started in it", async () => {
    const workspace = path.join(tmp.root, "my project's");
    const first = await runCli(["run", "Run the checks"], { cwd: workspace, env, input: "" });
    expect(first).toMatchObject({ code: 130 });
    expect(first.stdout).toMatch(/Answer it with: mini-cursor resume \S+$/m);
  });
});
