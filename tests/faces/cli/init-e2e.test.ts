import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer, userText } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { sessionRows } from "./follow-up-script.js";
import { AGENTS_MD, initScript } from "./init-script.js";
import { roleOf } from "./task-script.js";

/** `mini-cursor init` through the built CLI, answers piped into stdin as a script gives them. */
let server: ScriptedServer;
let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startScriptedOpenAIServer(initScript);
  ws = await makeTempWorkspace({ "package.json": '{ "scripts": { "test": "node --test" } }\n', "src/index.js": "export {};\n" });
  // Auto approval configured: init asks before its file change all the same.
  env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "auto", NO_COLOR: "1" };
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

const agentsFile = () => path.join(ws.root, "AGENTS.md");
const cli = (args: string[], input?: string) => runCli(args, { cwd: ws.root, env, ...(input === undefined ? {} : { input }) });

describe("mini-cursor init", () => {
  it("shows AGENTS.md as added lines, writes it on y, and the session is listed", async () => {
    const result = await cli(["init"], "y\n");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(await fs.readFile(agentsFile(), "utf8")).toBe(AGENTS_MD);
    const shown = result.stdout.indexOf("    write AGENTS.md:\n    + # AGENTS.md\n    + \n    + ## Commands\n    + \n    + - Test: `npm test`");
    expect(shown).toBeGreaterThan(-1);
    expect(result.stdout.indexOf("→ approve")).toBeGreaterThan(shown);
    // The researcher read the project before the coder wrote.
    const researcher = server.requests.filter((r) => roleOf(r) === "researcher");
    expect(researcher.length).toBeGreaterThanOrEqual(3);
    const planner = server.requests.find((r) => roleOf(r) === "planner");
    expect(planner && userText(planner)).toContain("Write AGENTS.md for this project");
    const [session] = await sessionRows((args) => cli(args));
    expect(session?.task).toMatch(/^Write AGENTS\.md for this project/);
    expect(session?.status).toBe("done");
  }, 120_000);

  it("shows a unified diff against an existing AGENTS.md and writes nothing on n", async () => {
    const before = "# AGENTS.md\n\n## Commands\n\n- Test: `make check`\n";
    await fs.writeFile(agentsFile(), before);
    const result = await cli(["init", "--workspace", ws.root], "n not now\n");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        "    write AGENTS.md (changes the existing file):",
        "    @@ -2,4 +2,13 @@",
        "     ",
        "     ## Commands",
        "     ",
        "    -- Test: `make check`",
        "    +- Test: `npm test`",
        "    +- Lint: `npm run lint`",
      ].join("\n"),
    );
    expect(result.stdout).toContain("→ reject: not now");
    expect(await fs.readFile(agentsFile(), "utf8")).toBe(before);
  }, 120_000);

  it("leaves the session waiting when stdin closes unanswered (exit 130), and refuses a task on its command line", async () => {
    const result = await cli(["init"], "");
    expect(result.code).toBe(130);
    await expect(fs.access(agentsFile())).rejects.toThrow();
    const [session] = await sessionRows((args) => cli(args));
    expect(session?.status).toBe("awaiting_approval");

    const extra = await cli(["init", "write it"]);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toBe('mini-cursor: init takes no task, got "write it"; it always writes AGENTS.md\n');
  }, 120_000);
});
