import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { moduleTrace } from "../../helpers/module-trace.js";
import { TEST_PASSWORD, usePostgres } from "../../sessions/postgres-server.js";
import { runCli, startCli, type CliRun } from "./cli-process.js";
import { FAREWELL_SOURCE, followUpScript } from "./follow-up-script.js";
import { GREET_SOURCE, roleOf } from "./task-script.js";

/**
 * Sessions in PostgreSQL through the built CLI (MINI_CURSOR_DATABASE_URL), against a real server started for this
 * file (tests/sessions/postgres-server.ts), one fresh database per test, and the scripted model.
 */

const pgs = usePostgres();
let server: ScriptedServer;
let hold: ((req: ScriptedRequest) => boolean) | null = null;
let reached: () => void = () => {};
let url: string;
const workspaces: TempWorkspace[] = [];
const running: CliRun[] = [];

const DEMO = { "package.json": '{ "name": "demo", "type": "module" }\n' };
const firstReviewerCall = (req: ScriptedRequest) => roleOf(req) === "reviewer" && req.messages.every((m) => m.role !== "tool");

beforeEach(async () => {
  hold = null;
  server = await startScriptedOpenAIServer((req) => {
    if (hold?.(req)) {
      hold = null;
      reached();
      return { hangMs: 60_000 };
    }
    return followUpScript(req);
  });
  url = await pgs.server.freshDatabase();
});
afterEach(async () => {
  for (const run of running.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  await server.close();
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

async function workspace(files: Record<string, string> = DEMO): Promise<string> {
  const ws = await makeTempWorkspace(files);
  workspaces.push(ws);
  return ws.root;
}

const env = (extra: Record<string, string> = {}) => ({
  OPENAI_BASE_URL: server.baseUrl,
  MINI_CURSOR_MODEL: "scripted",
  MINI_CURSOR_DATABASE_URL: url,
  ...extra,
});
const cli = (args: string[], cwd: string, extra: Record<string, string> = {}) => runCli(args, { cwd, env: env(extra) });
const dbName = () => url.slice(url.lastIndexOf("/") + 1);
const label = () => `127.0.0.1:${pgs.server.port}/${dbName()}`;

/** Starts a run that stops in its first reviewer call (the coder's work is checkpointed by then). */
async function stuckRun(cwd: string): Promise<CliRun> {
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  hold = firstReviewerCall;
  const run = startCli(["run", "Add greet with a test"], { cwd, env: env() });
  running.push(run);
  const first = await Promise.race([arrived.then(() => null), run.done]);
  if (first) throw new Error(`the run exited (${String(first.code)}) before its reviewer was called: ${run.stderr()}`);
  return run;
}

async function rows(cwd: string, all = false): Promise<{ id: string; status: string; workspace: string }[]> {
  const listed = await cli(["sessions", "--json", ...(all ? ["--all"] : [])], cwd);
  expect(listed.stderr).toBe("");
  return JSON.parse(listed.stdout) as { id: string; status: string; workspace: string }[];
}

const count = async (table: string) => Number((await pgs.server.query<{ n: string }>(dbName(), `SELECT count(*) AS n FROM ${table}`))[0]?.n);

describe("sessions in PostgreSQL", () => {
  it("keeps a run's session row, checkpoints and recording in PostgreSQL and writes no sessions.sqlite", async () => {
    const root = await workspace();
    const done = await cli(["run", "Add greet with a test"], root);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    expect(fs.existsSync(path.join(root, ".mini-cursor", "sessions.sqlite"))).toBe(false);
    const [row] = await pgs.server.query<{ id: string; status: string; workspace: string }>(dbName(), "SELECT id, status, workspace FROM mc_sessions");
    expect(row).toMatchObject({ status: "done", workspace: root });
    expect(await count("checkpoints")).toBeGreaterThan(3);
    expect(await count("checkpoint_writes")).toBeGreaterThan(0);
    expect(await count("mc_model_calls")).toBe(server.requests.length);
    expect(await pgs.server.query(dbName(), "SELECT component, version FROM mc_schema_version")).toEqual([{ component: "sessions", version: 2 }]);
    expect(await rows(root)).toEqual([expect.objectContaining({ id: row?.id, status: "done" })]);
    const doctor = await cli(["doctor", "--json"], root);
    expect((JSON.parse(doctor.stdout) as { sessions: unknown }).sessions).toEqual({
      ok: true,
      kind: "postgres",
      database: label(),
      detail: "reachable; schema version 2",
    });
  });

  it("resumes a session killed with SIGKILL mid-run from its PostgreSQL checkpoints", async () => {
    const root = await workspace();
    const first = await stuckRun(root);
    first.child.kill("SIGKILL");
    await first.done;
    // Its lock went with its connection: the row says running, nobody holds it, so it is shown as interrupted.
    const [session] = await rows(root);
    expect(session?.status).toBe("interrupted");
    const before = server.requests.length;
    const resumed = await cli(["resume"], root);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`mini-cursor resuming ${session?.id}`);
    // The coder's step was checkpointed: it is not run again.
    expect(server.requests.slice(before).filter((r) => roleOf(r) === "coder")).toHaveLength(0);
    expect(fs.readFileSync(path.join(root, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect((await rows(root))[0]?.status).toBe("done");
  });

  it("refuses a second process on a running session with one line naming the holder", async () => {
    const root = await workspace();
    const first = await stuckRun(root);
    const [session] = await rows(root);
    expect(session?.status).toBe("running");
    // Another checkout (another machine): only the database's advisory lock is shared, not the lock files.
    const elsewhere = await workspace();
    const second = await cli(["resume", session?.id ?? "", "--workspace", elsewhere], root);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `^mini-cursor: session ${session?.id} is already running in process ${first.child.pid} on .+ \\(its lock is in the session database ${label().replace(/[./]/g, "\\$&")}\\); wait for it or stop it first\\n$`,
      ),
    );
    first.child.kill("SIGKILL");
    await first.done;
  });

  it("two resumes of one session racing from two checkouts: one runs it, the other is refused and changes nothing", async () => {
    const root = await workspace();
    const first = await stuckRun(root);
    first.child.kill("SIGKILL");
    await first.done;
    const [session] = await rows(root);
    const id = session?.id ?? "";
    const copy = { ...DEMO, "src/greet.js": GREET_SOURCE };
    const checkouts = [await workspace(copy), await workspace(copy)];
    const results = await Promise.all(checkouts.map((dir) => cli(["resume", id, "--workspace", dir], root)));
    const winner = results.findIndex((r) => r.code === 0);
    const loser = results[1 - winner];
    expect(winner).toBeGreaterThanOrEqual(0);
    expect(loser?.code).toBe(2);
    expect(loser?.stderr).toMatch(new RegExp(`^mini-cursor: session ${id} is already running in process \\d+ on .+\\); wait for it or stop it first\\n$`));
    // The row names the checkout that ran it, not the one refused.
    expect(await rows(checkouts[winner] ?? "")).toEqual([expect.objectContaining({ id, status: "done", workspace: checkouts[winner] })]);
  });

  it("runs four sessions at once in one database; sessions lists this workspace's, --all every workspace's", async () => {
    const roots = await Promise.all([0, 1, 2, 3].map(() => workspace()));
    const results = await Promise.all(roots.map((root) => cli(["run", "Add greet with a test"], root)));
    for (const result of results) {
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
    }
    const all = await rows(roots[0] ?? "", true);
    expect(all).toHaveLength(4);
    expect(new Set(all.map((r) => r.workspace))).toEqual(new Set(roots));
    expect(all.every((r) => r.status === "done")).toBe(true);
    const own = await rows(roots[1] ?? "");
    expect(own.map((r) => r.workspace)).toEqual([roots[1]]);
    const table = await cli(["sessions", "--all"], roots[0] ?? "");
    expect(table.stdout).toMatch(/WORKSPACE/);
    for (const root of roots) expect(table.stdout).toContain(root);
  });

  it("continues a session in another checkout with resume --workspace, which its row and state then name", async () => {
    const first = await workspace();
    expect((await cli(["run", "Add greet with a test"], first)).code).toBe(0);
    const [session] = await rows(first);
    // The other machine's checkout of the same project (what the first session wrote, pulled).
    const second = await workspace({ ...DEMO, "src/greet.js": GREET_SOURCE });
    const moved = await cli(["resume", session?.id ?? "", "--workspace", second, "--message", "Add a farewell function"], first);
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain(`was last run in ${first}; it goes on in ${second}`);
    expect(fs.readFileSync(path.join(second, "src/farewell.js"), "utf8")).toBe(FAREWELL_SOURCE);
    expect(fs.existsSync(path.join(first, "src/farewell.js"))).toBe(false);
    expect(await rows(first)).toEqual([]);
    expect(await rows(second)).toEqual([expect.objectContaining({ id: session?.id, workspace: second, status: "done" })]);
  });

  it("a session killed mid-sub-agent goes on in another checkout: the interrupted run's tools work in the new folder", async () => {
    const first = await workspace();
    const run = await stuckRun(first);
    run.child.kill("SIGKILL");
    await run.done;
    const [session] = await rows(first);
    // The other machine's checkout: what the coder wrote, pulled; the first checkout is gone.
    const second = await workspace({});
    fs.cpSync(first, second, { recursive: true, filter: (from) => !from.includes(`${path.sep}.mini-cursor`) });
    fs.rmSync(first, { recursive: true, force: true });
    const before = server.requests.length;
    const moved = await cli(["resume", session?.id ?? "", "--workspace", second], second);
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    // The reviewer run that was stopped mid-way read the file in the new checkout, not in the old folder.
    const reviewerReads = server.requests
      .slice(before)
      .filter((r) => roleOf(r) === "reviewer")
      .flatMap((r) => r.messages.filter((m) => m.role === "tool").map((m) => m.content));
    expect(reviewerReads.join("\n")).toContain("return `Hello, ${name}!`;");
    expect(fs.existsSync(first)).toBe(false);
    expect(await rows(second)).toEqual([expect.objectContaining({ id: session?.id, workspace: second, status: "done" })]);
  });

  it("a session waiting for an approval goes on in another checkout: the approved write lands in the new folder", async () => {
    const first = await workspace();
    const waiting = await cli(["run", "--approval", "ask", "Add greet with a test"], first);
    expect(waiting.code).toBe(130);
    const [session] = await rows(first);
    expect(session?.status).toBe("awaiting_approval");
    const second = await workspace({});
    fs.cpSync(first, second, { recursive: true, filter: (from) => !from.includes(`${path.sep}.mini-cursor`) });
    fs.rmSync(first, { recursive: true, force: true });
    const moved = await runCli(["resume", session?.id ?? "", "--workspace", second], { cwd: second, env: env(), input: "y\n".repeat(10) });
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    expect(fs.readFileSync(path.join(second, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect(fs.existsSync(first)).toBe(false);
    expect(await rows(second)).toEqual([expect.objectContaining({ id: session?.id, workspace: second, status: "done" })]);
  });

  it("the database down before a run: one line naming it without its password, exit 2; the same for sessions", async () => {
    const root = await workspace();
    pgs.server.stop();
    try {
      const refused = await cli(["run", "Add greet with a test"], root);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        new RegExp(
          `^mini-cursor: cannot reach the session database ${label().replace(/[./]/g, "\\$&")} \\(.*ECONNREFUSED.*\\); start it or fix MINI_CURSOR_DATABASE_URL\\n$`,
        ),
      );
      expect(refused.stderr).not.toContain(TEST_PASSWORD);
      const listed = await cli(["sessions"], root);
      expect(listed.code).toBe(2);
      expect(listed.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      expect(fs.existsSync(path.join(root, ".mini-cursor", "sessions.sqlite"))).toBe(false);
      const doctor = await cli(["doctor", "--json"], root);
      expect(doctor.code).toBe(1);
      const report = JSON.parse(doctor.stdout) as { sessions: { ok: boolean; detail: string } };
      expect(report.sessions).toMatchObject({ ok: false, kind: "postgres", database: label() });
      expect(report.sessions.detail).toMatch(/^cannot reach the session database/);
      expect(doctor.stdout).not.toContain(TEST_PASSWORD);
    } finally {
      pgs.server.start();
    }
  });

  it("the database lost mid-run stops the session resumable (exit 1); resume finishes it once the database is back", async () => {
    const root = await workspace();
    const first = await stuckRun(root);
    pgs.server.stop();
    let restarted = false;
    try {
      const { code } = await first.done;
      expect(code).toBe(1);
      expect(first.stdout()).toContain(`The session stopped: lost the connection to the session database ${label()}`);
      expect(first.stdout()).toContain("Resume once it is back with: mini-cursor resume");
      expect(first.stderr()).toBe("");
      pgs.server.start();
      restarted = true;
      const resumed = await cli(["resume"], root);
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      expect((await rows(root))[0]?.status).toBe("done");
    } finally {
      if (!restarted) pgs.server.start();
    }
  });

  it("a malformed URL is a usage error (exit 2) that does not echo it", async () => {
    const root = await workspace();
    for (const bad of ["http://user:pw@example.com/db", "not a url"]) {
      const result = await cli(["run", "Add greet with a test"], root, { MINI_CURSOR_DATABASE_URL: bad });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^mini-cursor: MINI_CURSOR_DATABASE_URL (must be a postgres:\/\/|is not a valid URL)[^\n]*\n$/);
      expect(result.stderr).not.toContain("pw@");
    }
  });

  it("sessions with a database URL loads neither LangGraph nor zod", async () => {
    const root = await workspace();
    expect((await cli(["run", "Add greet with a test"], root)).code).toBe(0);
    const trace = moduleTrace(root, "trace-sessions-pg");
    const listed = await cli(["sessions"], root, trace.env);
    expect(listed.code).toBe(0);
    const modules = trace.modules();
    expect(modules.some((m) => m.includes("/node_modules/pg/"))).toBe(true);
    expect(modules.filter((m) => /\/node_modules\/(@langchain|zod)\//.test(m))).toEqual([]);
  });

  it("fork, replay, diff and sessions delete read and write the sessions in PostgreSQL", async () => {
    const root = await workspace();
    expect((await cli(["run", "Add greet with a test"], root)).code).toBe(0);
    const [session] = await rows(root);
    const id = session?.id ?? "";
    const forked = await cli(["fork", id, "--json"], root);
    expect(forked.stderr).toBe("");
    expect(forked.code).toBe(0);
    const fork = JSON.parse(forked.stdout) as { id: string; checkpoints: number };
    expect(fork.checkpoints).toBeGreaterThan(3);
    expect((await rows(root)).map((r) => r.id).sort()).toEqual([id, fork.id].sort());
    const followed = await cli(["resume", fork.id, "--message", "Add a farewell function"], root);
    expect(followed.code).toBe(0);
    expect(fs.readFileSync(path.join(root, "src/farewell.js"), "utf8")).toBe(FAREWELL_SOURCE);
    const diff = await cli(["diff", id], root);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain("src/greet.js");
    const into = path.join(await workspace({}), "replayed");
    const replay = await cli(["replay", id, "--into", into], root, { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(replay.stderr).toBe("");
    expect(replay.code).toBe(0);
    expect(fs.readFileSync(path.join(into, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    const deleted = await cli(["sessions", "delete", fork.id, "--json"], root);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ type: "session_deleted", id: fork.id });
    expect((await rows(root)).map((r) => r.id)).toEqual([id]);
    expect(Number((await pgs.server.query<{ n: string }>(dbName(), "SELECT count(*) AS n FROM checkpoints WHERE thread_id = $1", [fork.id]))[0]?.n)).toBe(0);
    expect(fs.existsSync(path.join(root, ".mini-cursor", "sessions.sqlite"))).toBe(false);
  });
});
