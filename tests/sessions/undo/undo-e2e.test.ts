import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "../../faces/cli/cli-process.js";
import { greetScript } from "../../faces/cli/task-script.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(greetScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n', "README.md": "# demo\n" });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

describe("diff and undo after a real session (built CLI)", () => {
  it("shows what the session changed and restores it, skipping a file the user changed afterwards", async () => {
    expect((await runCli(["run", "Add greet with a test"], { cwd: ws.root, env })).code).toBe(0);

    const diff = await runCli(["diff", "--json"], { cwd: ws.root, env });
    expect(diff.code).toBe(0);
    const shown = JSON.parse(diff.stdout) as { changes: { path: string; change: string }[]; diff: string };
    expect(shown.changes).toEqual([
      { path: "src/greet.js", change: "created" },
      { path: "test/greet.test.js", change: "created" },
    ]);
    expect(shown.diff).toContain("+export function greet(name) {");

    // The user edits one of the session's files afterwards: undo must not overwrite it.
    await fs.writeFile(path.join(ws.root, "test/greet.test.js"), "// mine now\n");
    const undo = await runCli(["undo", "--json"], { cwd: ws.root, env });
    expect(undo.code).toBe(1);
    const report = JSON.parse(undo.stdout) as { removed: string[]; skipped: { path: string }[] };
    expect(report.removed).toContain("src/greet.js");
    expect(report.skipped.map((s) => s.path)).toEqual(["test/greet.test.js"]);
    await expect(fs.access(path.join(ws.root, "src/greet.js"))).rejects.toThrow();
    expect(await fs.readFile(path.join(ws.root, "test/greet.test.js"), "utf8")).toBe("// mine now\n");
    expect(await fs.readFile(path.join(ws.root, "README.md"), "utf8")).toBe("# demo\n");

    const again = await runCli(["undo"], { cwd: ws.root, env });
    expect(again.stdout).toMatch(/already undone/i);
  });

  it("counts files, not the folders they were in, in the text report", async () => {
    // The session creates src/greet.js and test/greet.test.js: two files in two new folders.
    const run = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    expect(run.code).toBe(0);
    const undo = await runCli(["undo"], { cwd: ws.root, env });
    expect(undo.stderr).toBe("");
    expect(undo.code).toBe(0);
    const [summary, ...rest] = undo.stdout.trimEnd().split("\n");
    expect(summary).toMatch(/^Undid session \S+: 0 restored, 2 removed, 0 skipped \(and 2 empty folders removed\)\.$/);
    expect(rest).toEqual(["  removed   src/", "  removed   src/greet.js", "  removed   test/", "  removed   test/greet.test.js"]);
    expect((await fs.readdir(ws.root)).sort()).toEqual([".mini-cursor", "README.md", "package.json"]);
  });

  it("undoes a file the session created in a folder whose name starts with two dots (..cache)", async () => {
    // The session creates its files in ..cache/ (undo once took that folder for one outside the workspace).
    await server.close();
    server = await startScriptedOpenAIServer((req) => {
      const reply = greetScript(req);
      return JSON.parse(JSON.stringify(reply).replaceAll("src/greet.js", "..cache/greet.js")) as typeof reply;
    });
    env = { ...env, OPENAI_BASE_URL: server.baseUrl };
    expect((await runCli(["run", "Add greet with a test"], { cwd: ws.root, env })).code).toBe(0);
    await expect(fs.access(path.join(ws.root, "..cache/greet.js"))).resolves.toBeUndefined();
    const undo = await runCli(["undo", "--json"], { cwd: ws.root, env });
    const report = JSON.parse(undo.stdout) as { removed: string[]; skipped: { path: string; reason: string }[] };
    expect(report.skipped).toEqual([]);
    expect(report.removed).toContain("..cache/greet.js");
    await expect(fs.access(path.join(ws.root, "..cache/greet.js"))).rejects.toThrow();
  });
});
