import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { CLI, runCli, startCli, type CliRun } from "./cli-process.js";
import { greetScript, roleOf } from "./task-script.js";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
/** The first planner request is held (never answered) while this is set: a run that is busy, deterministically. */
let holdFirstPlanner = false;
const running: CliRun[] = [];
let held: () => void = () => undefined;
let heldReached: Promise<void> = Promise.resolve();

beforeEach(async () => {
  holdFirstPlanner = false;
  heldReached = new Promise((resolve) => (held = resolve));
  server = await startScriptedOpenAIServer((req: ScriptedRequest) => {
    if (holdFirstPlanner && roleOf(req) === "planner") {
      holdFirstPlanner = false;
      held();
      return { hangMs: 60_000 };
    }
    return greetScript(req);
  });
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
});
afterEach(async () => {
  for (const run of running.splice(0)) run.child.kill("SIGKILL");
  await server.close();
  await ws.cleanup();
});

const dataDir = () => path.join(ws.root, ".mini-cursor");

describe("commands that only read create nothing", () => {
  it("resume, sessions, diff and undo leave a folder without sessions as it was", async () => {
    for (const args of [["resume"], ["resume", "20260101-000000-abcd"], ["sessions"], ["diff"], ["undo"]]) {
      const result = await runCli(args, { cwd: ws.root, env });
      expect(result.stderr.split("\n").filter(Boolean).length, args.join(" ")).toBeLessThanOrEqual(1);
      expect(fs.existsSync(dataDir()), args.join(" ")).toBe(false);
    }
    const resumed = await runCli(["resume"], { cwd: ws.root, env });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/no sessions in .* yet/);
  });
});

describe("one running session per workspace", () => {
  it("refuses a second run naming the running session, allows it with --force, and a crashed run does not block", async () => {
    holdFirstPlanner = true;
    const first = startCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    running.push(first);
    await heldReached;
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout) as { id: string }[];
    const firstId = listed[0]?.id ?? "";

    const second = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    expect(second.code).toBe(2);
    expect(second.stderr.trim().split("\n")).toHaveLength(1);
    expect(second.stderr).toContain(`session ${firstId} is running in this workspace (process ${first.child.pid})`);
    expect(second.stderr).toContain("--force");
    // Refused before creating anything: still one session.
    expect(JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout)).toHaveLength(1);

    const forced = await runCli(["run", "--force", "Add greet with a test"], { cwd: ws.root, env });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("Done:");

    first.child.kill("SIGKILL");
    await first.done;
    const after = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    expect(after.stderr).toBe("");
    expect(after.code).toBe(0);
  });
});

describe("resume while another session runs in the workspace", () => {
  it("is refused naming the running session, and goes ahead with --force", async () => {
    expect((await runCli(["run", "--max-steps", "1", "Add greet with a test"], { cwd: ws.root, env })).code).toBe(1);
    const [stopped] = JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout) as { id: string }[];
    holdFirstPlanner = true;
    const busy = startCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    running.push(busy);
    await heldReached;
    const busyId = (JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout) as { id: string }[]).find((s) => s.id !== stopped?.id)?.id;

    const refused = await runCli(["resume", stopped?.id ?? "", "--max-steps", "5"], { cwd: ws.root, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain(`session ${busyId} is running in this workspace (process ${busy.child.pid})`);
    expect(refused.stderr).toContain("start anyway with --force");
    // Refused before anything changed: the stopped session keeps its status, and its settings (the forced resume
    // below still finds max steps at 1).
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: ws.root, env })).stdout) as { id: string; status: string }[];
    expect(listed.find((s) => s.id === stopped?.id)?.status).toBe("limit_reached");

    const forced = await runCli(["resume", stopped?.id ?? "", "--force", "--max-steps", "5"], { cwd: ws.root, env });
    expect(forced.stdout).toContain("max steps: 1 → 5 for the rest of the session");
    expect(forced.code).toBe(0);
  });
});

/** The CLI with the workspace mounted read-only (bubblewrap), as on a read-only mount or a folder the user cannot write. */
async function runReadOnly(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn("bwrap", ["--dev-bind", "/", "/", "--ro-bind", ws.root, ws.root, "--chdir", ws.root, process.execPath, CLI, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off", MINI_CURSOR_APPROVAL: "auto", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stderr };
}

describe("a workspace mini-cursor cannot write", () => {
  it("is a configuration error on one line (exit 2) on a read-only mount", async () => {
    const result = await runReadOnly(["run", "Add greet with a test"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mini-cursor: workspace .* is not writable \(read-only file system\)[^\n]*\n$/);
    expect(result.stderr).not.toMatch(/ENOENT|EROFS|mkdir|at /);
  });

  it("is a configuration error on one line when a file is where .mini-cursor/ should be", async () => {
    fs.writeFileSync(dataDir(), "not a folder");
    const result = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mini-cursor: workspace .* is not writable \(a file is in the way\)[^\n]*\n$/);
  });

  it("runs to the end when HOME is a file (memory goes off, nothing waits)", async () => {
    const home = path.join(ws.root, "home-file");
    fs.writeFileSync(home, "");
    const result = await runCli(["run", "Add greet with a test"], { cwd: ws.root, env: { ...env, HOME: home, MINI_CURSOR_MEMORY: "" } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Memory is off");
  });
});

describe(".mini-cursor/ in a git repository", () => {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ws.root, encoding: "utf8" });

  it("never shows in git status: added to info/exclude once", async () => {
    git("init", "-q");
    expect((await runCli(["run", "Add greet with a test"], { cwd: ws.root, env })).code).toBe(0);
    expect(git("status", "--porcelain", "--untracked-files=all")).not.toContain(".mini-cursor");
    fs.rmSync(dataDir(), { recursive: true });
    expect((await runCli(["run", "Add greet with a test"], { cwd: ws.root, env })).code).toBe(0);
    const exclude = fs.readFileSync(path.join(ws.root, ".git/info/exclude"), "utf8");
    expect(exclude.split("\n").filter((l) => l === "/.mini-cursor/*")).toHaveLength(1);
  });

  it("adds nothing when the project already ignores it", async () => {
    git("init", "-q");
    fs.writeFileSync(path.join(ws.root, ".gitignore"), ".mini-cursor/\n");
    expect((await runCli(["run", "Add greet with a test"], { cwd: ws.root, env })).code).toBe(0);
    expect(fs.readFileSync(path.join(ws.root, ".git/info/exclude"), "utf8")).not.toContain("/.mini-cursor/");
  });
});
