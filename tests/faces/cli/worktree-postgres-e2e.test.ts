import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { sharedPostgres } from "../../sessions/postgres-server.js";
import { runCli } from "./cli-process.js";
import { GREET_SOURCE, greetScript } from "./task-script.js";

/** `run --worktree` with the sessions in PostgreSQL (MINI_CURSOR_DATABASE_URL), a real server, the scripted model. */

const postgres = sharedPostgres();
const NO_GIT_CONFIG = { GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: "1" };
let server: ScriptedServer;
let url: string;
const workspaces: TempWorkspace[] = [];

beforeEach(async () => {
  server = await startScriptedOpenAIServer(greetScript);
  url = await postgres.freshDatabase();
});
afterEach(async () => {
  await server.close();
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

function git(cwd: string, args: string[]): string {
  const r = spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: cwd, ...NO_GIT_CONFIG },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

async function repository(): Promise<string> {
  const ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  workspaces.push(ws);
  git(ws.root, ["init", "-q", "-b", "main"]);
  git(ws.root, ["add", "-A"]);
  git(ws.root, ["commit", "-q", "-m", "initial"]);
  return ws.root;
}

const cli = (args: string[], cwd: string) =>
  runCli(args, { cwd, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_DATABASE_URL: url, ...NO_GIT_CONFIG } });

describe("run --worktree with sessions in PostgreSQL", () => {
  it("stores the branch and folder, lists and diffs it from the main checkout, and refuses to resume it from another checkout", async () => {
    const main = await repository();
    const run = await cli(["run", "--worktree", "Add greet with a test"], main);
    expect(run.code, run.stderr).toBe(0);
    const [row] = JSON.parse((await cli(["sessions", "--json"], main)).stdout) as {
      id: string;
      status: string;
      workspace: string;
      branch: string;
      worktree: string;
    }[];
    const id = row?.id ?? "";
    const folder = path.join(main, ".mini-cursor", "worktrees", id);
    expect(row).toMatchObject({ status: "done", workspace: main, branch: `mini-cursor/${id}`, worktree: folder });
    expect(fs.readFileSync(path.join(folder, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(git(main, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
    expect(git(main, ["rev-list", "--count", `main..mini-cursor/${id}`]).trim()).toBe("1");

    const diff = JSON.parse((await cli(["diff", id, "--json"], main)).stdout) as { changes: { path: string }[] };
    expect(diff.changes.map((c) => c.path).sort()).toEqual(["src/greet.js", "test/greet.test.js"]);

    const other = await repository();
    const moved = await cli(["resume", id, "-m", "More"], other);
    expect(moved.code).toBe(2);
    expect(moved.stderr.trim().split("\n")).toHaveLength(1);
    expect(moved.stderr).toContain(`works in the git worktree ${folder} of ${main}; resume it there`);
    expect(fs.existsSync(path.join(other, "src"))).toBe(false);
  });
});
