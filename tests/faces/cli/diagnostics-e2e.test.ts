import { writeFile } from "node:fs/promises";
import { addRepoPackage } from "../../helpers/repo-packages.js";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { diagnosticsScript, TS_PROJECT } from "./diagnostics-script.js";
import { roleOf } from "./task-script.js";

/**
 * Diagnostics after edits through the built CLI: a real TypeScript project (this repository's typescript linked in),
 * a scripted coder that writes a type error and then fixes it, and a reviewer that asks for the project's diagnostics.
 * What is checked is what the model receives in its next request.
 */

let model: ScriptedServer;
let ws: TempWorkspace;
let userConfig: TempWorkspace;

beforeEach(async () => {
  model = await startScriptedOpenAIServer(diagnosticsScript);
  ws = await makeTempWorkspace(TS_PROJECT);
  addRepoPackage(ws.root, "typescript");
  userConfig = await makeTempWorkspace();
});
afterEach(async () => {
  await model.close();
  await Promise.all([ws.cleanup(), userConfig.cleanup()]);
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-test", MINI_CURSOR_MODEL: "scripted", XDG_CONFIG_HOME: userConfig.root, ...extra };
}

describe("diagnostics after edits through the built CLI", () => {
  it("puts the coder's type error into the write_file result the model receives, nothing after the fix, and the project's diagnostics in the reviewer's", async () => {
    const result = await runCli(["run", "--approval", "auto", "Add a count"], { cwd: ws.root, env: env() });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const coder = model.requests.filter((r) => roleOf(r) === "coder");
    const [written, edited] = toolResults(coder.at(-1) as ScriptedRequest);
    expect(written?.name).toBe("write_file");
    expect(written?.content).toContain('Created "src/count.ts"');
    expect(written?.content).toContain("src/count.ts:1:14 TS2322 Type 'string' is not assignable to type 'number'.");
    expect(edited?.name).toBe("edit_file");
    expect(edited?.content).toContain('Edited "src/count.ts"');
    expect(edited?.content).not.toContain("Diagnostics");

    const reviewer = model.requests.filter((r) => roleOf(r) === "reviewer");
    expect(reviewer[0]?.toolNames).toContain("project_diagnostics");
    const [project] = toolResults(reviewer.at(-1) as ScriptedRequest);
    expect(project?.content).toBe("Project diagnostics (TypeScript): no problems.");
  });

  it("leaves the results plain with MINI_CURSOR_DIAGNOSTICS=off or diagnostics.enabled false, and refuses a bad value before any session", async () => {
    const lastWrite = async (extra: Record<string, string>) => {
      const run = await runCli(["run", "--approval", "auto", "Add a count"], { cwd: ws.root, env: env(extra) });
      expect(run.code).toBe(0);
      const coder = model.requests.filter((r) => roleOf(r) === "coder");
      return toolResults(coder.at(-1) as ScriptedRequest)[0]?.content;
    };
    expect(await lastWrite({ MINI_CURSOR_DIAGNOSTICS: "off" })).toBe('Created "src/count.ts" (38 bytes, 1 lines).');

    await writeFile(path.join(ws.root, "mini-cursor.json"), JSON.stringify({ diagnostics: { enabled: false } }));
    expect(await lastWrite({})).toBe('Overwrote "src/count.ts" (was 32 bytes; now 38 bytes, 1 lines).');

    const requests = model.requests.length;
    const bad = await runCli(["run", "--approval", "auto", "Add a count"], { cwd: ws.root, env: env({ MINI_CURSOR_DIAGNOSTICS: "sometimes" }) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('MINI_CURSOR_DIAGNOSTICS must be on or off, got "sometimes"');
    expect(model.requests.length).toBe(requests);
  });
});
