import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chromaServerPids, startTestChroma, type TestChroma } from "../helpers/chroma.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { runCli } from "../faces/cli/cli-process.js";
import { multilineScript } from "../faces/cli/multiline-script.js";

let server: ScriptedServer;
let chroma: TestChroma | null = null;
let ws: TempWorkspace;
let dataDir = "";

beforeEach(async () => {
  server = await startScriptedOpenAIServer(multilineScript);
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "mc-memory-entries-"));
});
afterEach(async () => {
  await chroma?.stop();
  chroma = null;
  await server.close();
  await ws.cleanup();
  for (const pid of chromaServerPids(dataDir)) process.kill(pid, "SIGKILL");
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("what a session leaves in long-term memory (real Chroma server)", () => {
  it("stores model text written over several lines as clean one-line entries, and finds them", async () => {
    chroma = await startTestChroma();
    const env = {
      OPENAI_BASE_URL: server.baseUrl,
      MINI_CURSOR_MODEL: "scripted",
      MINI_CURSOR_MEMORY: "on",
      MINI_CURSOR_DATA_DIR: dataDir,
      CHROMA_URL: chroma.url,
    };
    const run = await runCli(["run", "Make the banner\nsay goodbye until approved"], { cwd: ws.root, env });
    expect(run.code, run.stdout + run.stderr).toBe(0);

    const listed = await runCli(["memory", "list", "--json"], { cwd: ws.root, env });
    expect(listed.code, listed.stderr).toBe(0);
    const memories = JSON.parse(listed.stdout) as { kind: string; text: string; source: string }[];
    expect(memories.length).toBeGreaterThan(3);
    for (const m of memories) {
      expect(m.text, m.kind).not.toMatch(/\n|\s{2}|^\s|\s$/);
      expect(m.source, m.kind).not.toMatch(/\n|\s{2}/);
    }
    const texts = (kind: string) => memories.filter((m) => m.kind === kind).map((m) => m.text);
    expect(texts("finding")).toEqual(["The banner is printed by src/banner.js. Its test is test/banner.test.js."]);
    expect(texts("summary")).toEqual([
      expect.stringContaining('Task "Make the banner say goodbye until approved" ended done: The banner says hello and goodbye. Its test still misses a line.'),
    ]);
    expect(texts("lesson")).toContain(
      'Review of "Make the banner say goodbye until approved" found in test/banner.test.js: The test does not check the second line. Fixed by: Changed the banner. Both lines print.',
    );

    const found = await runCli(["memory", "search", "--json", "where is the banner printed"], { cwd: ws.root, env });
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain("The banner is printed by src/banner.js. Its test is test/banner.test.js.");
  });
});
