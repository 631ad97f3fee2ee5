import fs from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { runToEnd } from "../agent-harness.js";

/** A coder's write_file under `--approval auto` that no rule asks about: it runs without a pause and the file is written. */
export async function expectWriteUnasked(workspace: string, file: string, content: string): Promise<void> {
  const done = calls({ name: "submit_work", args: { status: "done", summary: "ok" } });
  const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: file, content } }), done] });
  const { final, outcome } = await runToEnd(AGENT_SPECS.coder, models, { workspace, safety: { approval: "auto" } });
  expect(final).not.toHaveProperty("__interrupt__");
  expect(outcome.stopReason).toBe("finished");
  expect(await fs.readFile(path.join(workspace, file), "utf8")).toBe(content);
}
