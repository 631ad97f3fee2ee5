import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { shadowDir } from "../../../src/sessions/undo/shadow-repo.js";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { greetScript, roleOf } from "./task-script.js";

/** Nothing listens on the discard port: every connection is refused. */
const DOWN = "http://127.0.0.1:9/v1";

let ws: TempWorkspace;
let server: ScriptedServer | null = null;

beforeEach(async () => {
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
});
afterEach(async () => {
  await server?.close();
  server = null;
  await ws.cleanup();
});

const cli = (args: string[], baseUrl: string) =>
  runCli(args, { cwd: ws.root, env: { OPENAI_BASE_URL: baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_MODEL_RETRIES: "0" } });

async function sessions(baseUrl: string): Promise<{ id: string; status: string }[]> {
  return JSON.parse((await cli(["sessions", "--json"], baseUrl)).stdout) as { id: string; status: string }[];
}

/** Rows the session database holds for any session: index rows, checkpoints, recorded calls. */
function storedRows(): { sessions: number; checkpoints: number; calls: number } {
  const db = new Database(path.join(ws.root, ".mini-cursor/sessions.sqlite"), { readonly: true });
  try {
    const count = (table: string) => {
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
      return exists ? (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
    };
    return { sessions: count("mc_sessions"), checkpoints: count("checkpoints"), calls: count("mc_model_calls") };
  } finally {
    db.close();
  }
}

/** The undo store's snapshot refs (none when the store was never made). */
function undoRefs(): string[] {
  const dir = shadowDir(ws.root);
  if (!fs.existsSync(path.join(dir, "HEAD"))) return [];
  return execFileSync("git", ["--git-dir", dir, "for-each-ref", "--format=%(refname)", "refs/mini-cursor/"], { encoding: "utf8" }).split("\n").filter(Boolean);
}

describe("a run whose model endpoint is down", () => {
  it("says so in one line, exits 1 and keeps no session: no row, no checkpoints, no undo records", async () => {
    const run = await cli(["run", "Add greet with a test"], DOWN);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    const errors = run.stdout.split("\n").filter((l) => l.includes("could not connect to the model endpoint"));
    expect(errors).toEqual([expect.stringContaining(`The session stopped: could not connect to the model endpoint ${DOWN}`)]);
    expect(run.stdout).toContain("Nothing was kept: the model never answered, so there is nothing to resume.");
    expect(run.stdout).not.toContain("Resume with");
    expect(run.stdout).not.toMatch(/\n\s+at /);
    expect(await sessions(DOWN)).toEqual([]);
    expect(storedRows()).toEqual({ sessions: 0, checkpoints: 0, calls: 0 });
    expect(undoRefs()).toEqual([]);
  });

  it("with --json: the error notice, then session_finished failed", async () => {
    const run = await cli(["run", "--json", "Add greet with a test"], DOWN);
    expect(run.code).toBe(1);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; level?: string; status?: string });
    expect(events.filter((e) => e.type === "notice" && e.level === "error")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "session_finished", status: "failed" });
    expect(await sessions(DOWN)).toEqual([]);
  });

  it("a session the model answered before the endpoint went down is kept, and resumes once it is back", async () => {
    let down = true;
    // The planner answers; the coder's calls fail while the endpoint is down.
    server = await startScriptedOpenAIServer((req) =>
      down && roleOf(req) === "coder" ? { httpStatus: 503, error: "down for maintenance" } : greetScript(req),
    );
    const run = await cli(["run", "Add greet with a test"], server.baseUrl);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Resume with: mini-cursor resume");
    const [kept] = await sessions(server.baseUrl);
    expect(kept?.status).toBe("interrupted");
    expect(storedRows().checkpoints).toBeGreaterThan(0);

    down = false;
    const resumed = await cli(["resume", kept?.id ?? ""], server.baseUrl);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect((await sessions(server.baseUrl))[0]?.status).toBe("done");
  });
});
