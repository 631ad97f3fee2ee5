import { afterEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { spawn } from "node:child_process";
import { CLI, runCli } from "./cli-process.js";

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
      const lines = run.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string });
      expect(lines.filter((e) => e.type === "command_output").length).toBeLessThan(50);
    }
  });

  it("on a terminal, shows a rolling tail while the command runs, then its end", async () => {
    server = await startScriptedOpenAIServer(commandScript(["seq 1 3000000; echo FLOOD-END"]));
    ws = await makeTempWorkspace({ "package.json": "{}\n" });
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      MINI_CURSOR_MEMORY: "off",
      OPENAI_BASE_URL: server.baseUrl,
      MINI_CURSOR_MODEL: "scripted",
    };
    // `script` gives the CLI a real pseudo-terminal, as a person's shell would.
    const cli = ["node", CLI, "run", "--approval", "auto", "'Run the checks'"].join(" ");
    const child = spawn("script", ["-qec", cli, "/dev/null"], { cwd: ws.root, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    // The live view: a status line naming the step, agent and command, and the newest lines redrawn in place.
    expect(out).toMatch(/s1 coder · tokens \d+ in/);
    expect(out).toMatch(/MB so far|kB so far/);
    expect(out).toMatch(/\d+ earlier lines/);
    expect(out).toMatch(/\u001b\[1A\u001b\[2K/);
    expect(out).toContain("FLOOD-END");
    expect(out).toMatch(/MB of output not shown here/);
    // 20 MB printed; what reaches the terminal is the head and tail with their "│" prefixes and a few snapshots.
    expect(out.length).toBeLessThan(400_000);
  });
});
