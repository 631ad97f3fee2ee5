import fs from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { runCli } from "./cli-process.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(commandScript(["echo done > done.txt"]));
  ws = await makeTempWorkspace({ "package.json": "{}\n" });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
});

afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

/** Overwrites every third byte past the first page, as a bad disk or a half-copied file leaves it. */
async function damage(file: string): Promise<void> {
  // Everything into the main file first, so no page is read from the write-ahead log instead.
  const db = new Database(file);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  const bytes = await fs.readFile(file);
  for (let i = 4096; i < bytes.length; i += 3) bytes[i] = 0xab;
  await fs.writeFile(file, bytes);
}

describe("a damaged sessions.sqlite (issue 38)", () => {
  it("stops sessions and run with exit 2 and one line that names the file and the way out; moved aside, work goes on", async () => {
    expect((await runCli(["run", "Do it"], { cwd: ws.root, env })).code).toBe(0);
    const file = path.join(ws.root, ".mini-cursor", "sessions.sqlite");
    await damage(file);

    for (const args of [["sessions"], ["run", "Do it again"]]) {
      const result = await runCli(args, { cwd: ws.root, env });
      expect(result.code, args.join(" ")).toBe(2);
      const lines = result.stderr.trim().split("\n");
      expect(lines, `${args.join(" ")}: ${result.stderr}`).toHaveLength(1);
      expect(lines[0]).toContain(`the session database ${file} is damaged`);
      expect(lines[0]).toContain(`mv "${file}" "${file}.damaged"`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }

    await fs.rename(file, `${file}.damaged`);
    const again = await runCli(["run", "--json", "Do it again"], { cwd: ws.root, env });
    expect(again.code).toBe(0);
    // The undo store beside it was kept.
    await expect(fs.access(path.join(ws.root, ".mini-cursor", "shadow.git"))).resolves.toBeUndefined();
  });
});
