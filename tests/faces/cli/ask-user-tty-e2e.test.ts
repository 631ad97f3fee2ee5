import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { coderAsksScript } from "./ask-user-script.js";
import { count, startPtyCli, type PtyCli } from "./pty-cli.js";
import { roleOf } from "./task-script.js";

const PROMPT = "Your answer (a number from 1 to 2";

let server: ScriptedServer;
let ws: TempWorkspace;
const ptys: PtyCli[] = [];
/** Holds the coder's first request (the one that will ask) until the test opens it: the CLI waits on the model. */
let reached: Promise<void>;
let open = (): void => {};

beforeEach(async () => {
  let arrived = (): void => {};
  reached = new Promise<void>((resolve) => (arrived = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  server = await startScriptedOpenAIServer(async (req) => {
    if (roleOf(req) === "coder" && toolResults(req).length === 0) {
      arrived();
      await opened;
    }
    return coderAsksScript(req);
  });
  ws = await makeTempWorkspace({ "package.json": "{}\n" });
});

afterEach(async () => {
  open();
  for (const pty of ptys.splice(0)) {
    pty.kill();
    await pty.done;
  }
  await server.close();
  await ws.cleanup();
});

describe("a question at a terminal", () => {
  it("ignores a choice typed before the question was shown: only keys pressed after it answer", async () => {
    const cli = startPtyCli(["run", "Pick a greeting for the banner"], {
      cwd: ws.root,
      env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" },
    });
    ptys.push(cli);
    await reached;
    const mark = cli.screen().length;
    cli.type("1\r");
    // The terminal echoed it: the line is in the terminal's input, typed ahead of the question.
    await cli.shows((s) => s.slice(mark).includes("1"), "the typed-ahead answer's echo");
    open();
    await cli.shows((s) => count(s, PROMPT) === 1, "the question");
    cli.type("2\r");
    expect(await cli.done).toBe(0);
    expect(cli.screen()).toContain("(ignored keys typed before this question)");
    const coder = server.requests.filter((r) => roleOf(r) === "coder");
    expect(toolResults(coder[1]!).map((r) => r.content)).toEqual(["The person answered: Good morning"]);
  });
});
