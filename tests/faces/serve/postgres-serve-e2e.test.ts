import fs from "node:fs";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli, startCli, type CliRun } from "../cli/cli-process.js";
import { useCliSession } from "../cli/cli-session.js";
import { followUpScript, sessionRows, SHOUT_SOURCE } from "../cli/follow-up-script.js";
import { sharedPostgres } from "../../sessions/postgres-server.js";

/** `mini-cursor serve` with MINI_CURSOR_DATABASE_URL: the sessions a team keeps in PostgreSQL, read and run over the API. */
const postgres = sharedPostgres();
const session = useCliSession(followUpScript);
let url = "";
let serving: CliRun | undefined;

beforeEach(async () => {
  url = await postgres.freshDatabase();
});

afterEach(async () => {
  if (serving && serving.child.exitCode === null && serving.child.signalCode === null) serving.child.kill("SIGTERM");
  await serving?.done;
  serving = undefined;
});

const env = () => ({ ...session.env, MINI_CURSOR_DATABASE_URL: url, MINI_CURSOR_APPROVAL: "auto" });
const cli = (args: string[]) => runCli(args, { cwd: session.root, env: env() });

describe("mini-cursor serve with sessions in PostgreSQL", () => {
  it("lists and reads a CLI session kept in PostgreSQL, and runs its follow-up there", async () => {
    expect((await cli(["run", "Add greet with a test"])).code).toBe(0);
    const [row] = await sessionRows(cli);
    const run = startCli(["serve", "--port", "0", "--json"], { cwd: session.root, env: env() });
    serving = run;
    for (let waited = 0; !run.stdout().includes("\n"); waited += 50) {
      if (run.child.exitCode !== null || waited > 30_000) throw new Error(`serve did not start: ${run.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const client = new Client({ apiUrl: (JSON.parse(run.stdout().split("\n")[0] ?? "") as { url: string }).url });
    const [thread] = await client.threads.search({ metadata: { session_id: row?.id } });
    expect(thread).toMatchObject({ status: "idle", metadata: { session_status: "done", title: "Add greet with a test" } });
    const state = await client.threads.getState<{ task: string }>(thread?.thread_id ?? "");
    expect(state.values.task).toBe("Add greet with a test");

    await client.runs.wait(thread?.thread_id ?? "", "mini-cursor", { input: { message: "Add shout(name) in src/shout.js" } });
    expect(fs.readFileSync(path.join(session.root, "src/shout.js"), "utf8")).toBe(SHOUT_SOURCE);
    expect((await sessionRows(cli))[0]).toMatchObject({ id: row?.id, status: "done", turns: 2 });
    // Nothing went to a SQLite file in the workspace.
    expect(fs.existsSync(path.join(session.root, ".mini-cursor", "sessions.sqlite"))).toBe(false);
  });
});
