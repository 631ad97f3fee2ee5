import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { followUpScript, sessionRows } from "../cli/follow-up-script.js";
import { sharedPostgres } from "../../sessions/postgres-server.js";
import { updatesOf, useAcpAgents, type AcpProcess } from "./acp-process.js";

/** The editors' face with MINI_CURSOR_DATABASE_URL: an ACP session kept in PostgreSQL, loaded by a new agent process. */
const postgres = sharedPostgres();
const fx = useAcpAgents(followUpScript);
let url: string;

beforeEach(async () => {
  url = await postgres.freshDatabase();
});

const env = () => ({ OPENAI_BASE_URL: fx.server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_DATABASE_URL: url });
const start = (): AcpProcess => fx.start({ env: { ...env(), MINI_CURSOR_APPROVAL: "auto" } });

describe("mini-cursor acp with sessions in PostgreSQL", () => {
  it("runs a prompt into PostgreSQL and loads the session again from a new agent process", async () => {
    const before = start();
    await before.agent.request("initialize", { protocolVersion: 1 });
    const { sessionId } = await before.agent.request("session/new", { cwd: fx.ws.root, mcpServers: [] });
    expect((await before.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Add greet with a test" }] })).stopReason).toBe(
      "end_turn",
    );
    expect((await before.close()).code).toBe(0);
    expect(fs.existsSync(path.join(fx.ws.root, ".mini-cursor", "sessions.sqlite"))).toBe(false);

    const after = start();
    await after.agent.request("initialize", { protocolVersion: 1 });
    await after.agent.request("session/load", { sessionId, cwd: fx.ws.root, mcpServers: [] });
    const users = updatesOf(after, "user_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""));
    expect(users).toContain("Add greet with a test");
    expect(
      updatesOf(after, "plan")
        .at(-1)
        ?.entries.every((e) => e.status === "completed"),
    ).toBe(true);
    const rows = await sessionRows((args) => runCli(args, { cwd: fx.ws.root, env: env() }));
    expect(rows[0]).toMatchObject({ id: sessionId, status: "done" });
  });
});
