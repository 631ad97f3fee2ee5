/**
 * Diagnostics after edits under `langgraph dev`, as in the CLI: the coder's type error reaches the model in its
 * write_file result, and the reviewer is offered project_diagnostics, in the run's own workspace.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { addRepoPackage } from "../../helpers/repo-packages.js";
import { startScriptedOpenAIServer, toolResults, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { diagnosticsScript, TS_PROJECT } from "../cli/diagnostics-script.js";
import { roleOf } from "../cli/task-script.js";
import { runOnNewThread, sharedDevServer } from "./dev-server.js";

const RUN_TIMEOUT_MS = 60_000;

let model: ScriptedServer | undefined;
const server = sharedDevServer();
const workspaces: TempWorkspace[] = [];

beforeAll(async () => {
  model = await startScriptedOpenAIServer(diagnosticsScript);
});

afterAll(async () => {
  const results = await Promise.allSettled([model?.close(), ...workspaces.map((w) => w.cleanup())]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}, 30_000);

async function tsProject(): Promise<string> {
  const ws = await makeTempWorkspace(TS_PROJECT);
  workspaces.push(ws);
  addRepoPackage(ws.root, "typescript");
  return ws.root;
}

/** Runs "Add a count" in `root` through the dev server; the coder's and the reviewer's last requests. */
async function runIn(root: string): Promise<{ coder: ScriptedRequest | undefined; reviewer: ScriptedRequest | undefined }> {
  if (!model) throw new Error("beforeAll did not finish");
  const dev = server;
  onTestFailed(() => console.error(`langgraph dev output (last lines):\n${dev.logTail()}`));
  const before = model.requests.length;
  const state = await runOnNewThread(dev, { workspace: root, baseUrl: model.baseUrl, task: "Add a count", timeoutMs: RUN_TIMEOUT_MS });
  expect(state.status).toBe("done");
  const mine = model.requests.slice(before);
  return { coder: mine.filter((r) => roleOf(r) === "coder").at(-1), reviewer: mine.filter((r) => roleOf(r) === "reviewer").at(-1) };
}

describe("diagnostics after edits in Studio (langgraph dev)", () => {
  it(
    "puts the coder's type error into its write_file result and offers the reviewer project_diagnostics",
    async () => {
      const { coder, reviewer } = await runIn(await tsProject());
      const [written, edited] = coder ? toolResults(coder) : [];
      expect(written?.content).toContain("src/count.ts:1:14 TS2322 Type 'string' is not assignable to type 'number'.");
      expect(edited?.content).not.toContain("Diagnostics");
      expect(reviewer?.toolNames).toContain("project_diagnostics");
      expect(reviewer ? toolResults(reviewer)[0]?.content : undefined).toBe("Project diagnostics (TypeScript): no problems.");
    },
    RUN_TIMEOUT_MS + 20_000,
  );

  it(
    "takes each run's workspace settings: a workspace whose mini-cursor.json turns diagnostics off gets plain results",
    async () => {
      const root = await tsProject();
      await writeFile(path.join(root, "mini-cursor.json"), JSON.stringify({ diagnostics: { enabled: false } }));
      const { coder } = await runIn(root);
      expect(coder ? toolResults(coder)[0]?.content : undefined).toBe('Created "src/count.ts" (38 bytes, 1 lines).');
    },
    RUN_TIMEOUT_MS + 20_000,
  );
});
