import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { commandScript } from "../../safety/approval-script.js";
import { runCli } from "./cli-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

let server: ScriptedServer | null = null;
let ws: TempWorkspace | null = null;
let term: TmuxTerminal | null = null;

afterEach(async () => {
  term?.close();
  await server?.close();
  await ws?.cleanup();
  term = null;
  server = null;
  ws = null;
});

/** Thirty lines, then it waits until the test creates `go` (so the screen can be read while it runs). */
const LONG = "seq 1 30; while [ ! -e go ]; do sleep 0.1; done; echo finished";
const REJECTED = "echo never-run > rejected.txt";

async function setup(commands: string[]) {
  server = await startScriptedOpenAIServer(commandScript(commands));
  ws = await makeTempWorkspace({ "package.json": "{}\n" });
  return { root: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted" } };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;
const SGR = /\u001b\[[0-9;]*m/;

describe("the live view in a real terminal (tmux)", () => {
  it("shows a status line and a bounded output tail while a command runs, asks clearly, and reports every command", async () => {
    const { root, env } = await setup([LONG, REJECTED]);
    term = TmuxTerminal.start(["run", "Run the checks"], { cwd: root, env: { ...env, MINI_CURSOR_APPROVAL: "ask" }, cols: 100, rows: 40 });
    const t = term;

    await t.waitFor((s) => s.includes("Approve?"), "the first approval prompt");
    expect(t.screen()).toContain("? approval needed: coder (s1) wants to run in .:");
    t.type("y\n");

    // While the command waits: the newest 8 of its 30 lines, a note for the rest, the status line below.
    const running = await t.waitFor((s) => /│ 30$/m.test(s), "the command's output");
    const rows = running.split("\n");
    expect(rows).toContain("    ┆ … 22 earlier lines");
    expect(rows.filter((r) => r.startsWith("    │ "))).toEqual(["23", "24", "25", "26", "27", "28", "29", "30"].map((n) => `    │ ${n}`));
    expect(running).toMatch(/^\S \d+:\d\d · s1 coder · tokens [\d.]+k? in \/ [\d.]+k? out · .* · \$ seq 1 30/m);
    expect(running).toMatch(/^ {2}plan {2}▶ s1/m);

    await fs.writeFile(path.join(root, "go"), "");
    await t.waitFor((s) => s.includes("Approve?") && s.includes(REJECTED), "the second approval prompt");
    t.type("n not now\n");
    expect(await t.exitCode()).toBe(0);

    const all = t.history();
    // The step is announced once, however many approvals it took.
    expect(count(all, "▶ s1 coder: Run the checks")).toBe(1);
    // One line per tool call; the finished command keeps its last lines, bounded.
    expect(count(all, `  $ execute_command ${LONG}`)).toBe(1);
    expect(all).toContain("    │ finished");
    expect(all).not.toMatch(/│ 5$/m);
    expect(all).toContain("→ reject: not now");
    // The report lists both commands, the rejected one marked so.
    expect(all).toMatch(new RegExp(`\\[coder s1\\] ${LONG.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} → exit 0`));
    expect(all).toContain(`[coder s1] ${REJECTED} → rejected by the user`);
    await expect(fs.access(path.join(root, "rejected.txt"))).rejects.toThrow();
    // The status block is gone at the end: the last lines are the report's.
    expect(t.screen()).not.toMatch(/^\S \d+:\d\d · /m);
    // Colour on a terminal (the check below means something).
    expect(t.styledHistory()).toMatch(SGR);
  });

  it("honours NO_COLOR: still live, without colour", async () => {
    const { root, env } = await setup(["echo hello-from-the-command"]);
    term = TmuxTerminal.start(["run", "Run the checks"], { cwd: root, env: { ...env, MINI_CURSOR_APPROVAL: "auto", NO_COLOR: "1" } });
    expect(await term.exitCode()).toBe(0);
    const all = term.history();
    expect(all).toContain("    │ hello-from-the-command");
    expect(all).toContain("▶ s1 coder: Run the checks");
    expect(term.styledHistory()).not.toMatch(SGR);
  });

  it("gives plain lines without escape codes when stdout is a pipe", async () => {
    const { root, env } = await setup(["echo hello-from-the-command"]);
    const result = await runCli(["run", "Run the checks"], { cwd: root, env: { ...env, MINI_CURSOR_APPROVAL: "auto" } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("▶ s1 coder: Run the checks");
    expect(result.stdout).toContain("    │ hello-from-the-command");
    expect(result.stdout).not.toContain("\u001b");
  });
});
