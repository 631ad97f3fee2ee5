import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { EVERYTHING } from "../../services/mcp/everything.js";
import { runCli } from "./cli-process.js";
import { mcpScript } from "./mcp-script.js";
import { startPtyCli, type PtyCli } from "./pty-cli.js";
import { roleOf } from "./task-script.js";

/** A session at a terminal offers to trust the project's MCP servers before it starts; without one it does not ask. */
const QUESTION = "Trust them and start them in this session? [y/N]";

let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;
const ptys: PtyCli[] = [];

beforeEach(async () => {
  server = await startScriptedOpenAIServer(mcpScript([{ name: "mcp__everything__get-sum", args: { a: 40, b: 2 } }]));
  ws = await makeTempWorkspace({ "README.md": "# demo\n" });
  await fs.writeFile(
    path.join(ws.root, ".mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
  );
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto", XDG_CONFIG_HOME: path.join(ws.root, ".xdg") };
});
afterEach(async () => {
  for (const pty of ptys.splice(0)) {
    pty.kill();
    await pty.done;
  }
  await server.close();
  await ws.cleanup();
});

async function session(answer: string | null): Promise<string> {
  const cli = startPtyCli(["run", "Add 40 and 2"], { cwd: ws.root, env });
  ptys.push(cli);
  if (answer !== null) {
    await cli.shows((s) => s.includes(QUESTION), "the trust question");
    cli.type(answer);
  }
  expect(await cli.done).toBe(0);
  return cli.screen();
}

const lastCoder = () => server.requests.filter((r) => roleOf(r) === "coder").at(-1);
const offered = () => lastCoder()?.toolNames.filter((n) => n.startsWith("mcp__")) ?? [];
function sum(): string | undefined {
  const last = lastCoder();
  return last ? toolResults(last).find((t) => t.name === "mcp__everything__get-sum")?.content : undefined;
}

describe("trusting a project's MCP servers at a terminal", () => {
  it("shows what they run and asks; Enter (no) goes on without them, y trusts them for this and later sessions", async () => {
    const declined = await session("\r");
    expect(declined).toContain(
      `This project declares MCP servers that run outside the sandbox, with your rights:\n  everything  ${process.execPath} ${EVERYTHING} stdio  (from ${path.join(ws.root, ".mcp.json")})`,
    );
    expect(declined).toContain('The project declares the MCP server "everything", not started until you trust it');
    expect(offered()).toEqual([]);

    const accepted = await session("y\r");
    expect(accepted).toContain("Trusted (mini-cursor mcp untrust takes it back).");
    expect(accepted).not.toContain("not started until you trust it");
    expect(sum()).toMatch(/42/);

    // Trusted now: no question.
    const later = await session(null);
    expect(later).not.toContain(QUESTION);
    expect(offered()).toContain("mcp__everything__get-sum");
  });

  it("does not ask without a terminal (the session says so in one line) nor under --json", async () => {
    const piped = await runCli(["run", "Add 40 and 2"], { cwd: ws.root, env });
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toContain(QUESTION);
    expect(piped.stdout).toContain("not started until you trust it");
    const json = startPtyCli(["run", "--json", "Add 40 and 2"], { cwd: ws.root, env });
    ptys.push(json);
    expect(await json.done).toBe(0);
    expect(json.screen()).not.toContain(QUESTION);
  });
});
