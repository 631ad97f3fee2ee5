import { afterEach, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Diagnostics } from "../../../src/services/diagnostics/index.js";
import { createWriteFileTool } from "../../../src/tools/write-file.js";
import { callTool, type TempWorkspace } from "../../tools/helpers.js";
import { requireBubblewrap } from "../../safety/sandbox/helpers.js";
import { hub, makeTsProject } from "./helpers.js";

/**
 * The language service is mini-cursor's own worker: a NODE_OPTIONS meant for the CLI (here an `--import` of a file
 * outside the workspace, which the sandbox does not show) must not reach it, or it cannot start.
 */
describe("the language service and the user's NODE_OPTIONS", () => {
  let ws: TempWorkspace | undefined;
  let diagnostics: Diagnostics | undefined;
  let outside: string | undefined;
  beforeAll(async () => {
    await requireBubblewrap();
  });
  afterEach(async () => {
    diagnostics?.close();
    await ws?.cleanup();
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
    ws = diagnostics = outside = undefined;
  });

  it("still reports the type error when NODE_OPTIONS imports a file the sandbox hides", async () => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "mc-node-options-"));
    const preload = path.join(outside, "preload.mjs");
    fs.writeFileSync(preload, "globalThis.preloaded = true;\n");
    ws = await makeTsProject({});
    diagnostics = hub({}, { ...process.env, NODE_OPTIONS: `--import ${preload}` });
    const result = await callTool(createWriteFileTool({ root: ws.root, diagnostics }), { path: "src/a.ts", content: 'export const a: number = "one";\n' });
    expect(result.content).not.toContain("Note:");
    expect(result.content).toContain("src/a.ts:1:14 TS2322 Type 'string' is not assignable to type 'number'.");
  });
});
