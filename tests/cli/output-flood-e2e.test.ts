import { afterEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { commandScript } from "../safety/approval-script.js";
import { runCli } from "./cli-process.js";

let server: ScriptedServer | null = null;
let ws: TempWorkspace | null = null;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
});

/** A command that prints 100 MB: the model gets head and tail, and so does the user, in both views. */
describe("an output flood (built CLI)", () => {
  it.each<[string[]]>([[["--json"]], [[]]])("reaches the user bounded (flags %j)", async (flags) => {
    server = await startScriptedOpenAIServer(commandScript(["head -c 100000000 /dev/zero | tr '\\0' x; echo; echo FLOOD-END"]));
    ws = await makeTempWorkspace({ "package.json": "{}\n" });
    const env = { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
    const run = await runCli(["run", ...flags, "--approval", "auto", "Run the checks"], { cwd: ws.root, env });
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeLessThan(100_000);
    expect(run.stdout).toMatch(/100\.0 MB of output not shown here/);
    expect(run.stdout).toContain("FLOOD-END");
    if (flags.includes("--json")) {
      const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string });
      expect(lines.filter((e) => e.type === "command_output").length).toBeLessThan(50);
    }
  });
});
