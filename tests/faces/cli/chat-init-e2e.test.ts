import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-process.js";
import { sessionRows } from "./follow-up-script.js";
import { AGENTS_MD, initScript } from "./init-script.js";
import { useChatTerminal } from "./chat-terminal.js";

/** `/init` in a conversation at the terminal (tmux), with the scripted model of tests/faces/cli/init-script.ts. */
const fx = useChatTerminal(initScript, { "package.json": '{ "scripts": { "test": "node --test" } }\n' });

describe("/init in a conversation", () => {
  it("starts a new session that shows AGENTS.md as a diff, writes it on y, and the conversation goes on in it", async () => {
    // Auto approval: /init asks before its file change all the same, for its own turn only.
    const env = { ...fx.env, MINI_CURSOR_APPROVAL: "auto" };
    const tty = fx.start([], { env, rows: 50 });
    await tty.shows("/help for commands", 1, "the prompt");
    tty.sendLine("Say hello");
    await tty.shows("· done", 1, "the end of the first session's turn");

    tty.sendLine("/init");
    const asked = await tty.shows("Approve? [y]es", 1, "the approval of AGENTS.md");
    expect(asked).toMatch(/New session \S+: the next message is its task\./);
    expect(asked).toContain("    write AGENTS.md:\n    + # AGENTS.md\n    +\n    + ## Commands");
    await expect(fs.access(path.join(fx.ws.root, "AGENTS.md"))).rejects.toThrow();
    tty.type("y\r");
    await tty.shows("· done", 2, "the end of the init");
    expect(await fs.readFile(path.join(fx.ws.root, "AGENTS.md"), "utf8")).toBe(AGENTS_MD);

    tty.sendLine("Thanks");
    await tty.shows("· done", 3, "the follow-up in the init's session");
    tty.sendLine("/exit");
    expect(await tty.exitCode()).toBe(0);

    const rows = await sessionRows(async (args) => runCli(args, { cwd: fx.ws.root, env }));
    expect(rows.map((r) => [r.task.split(":")[0], r.status, r.turns])).toEqual([
      ["Write AGENTS.md for this project", "done", 2],
      ["Say hello", "done", 1],
    ]);
  }, 180_000);
});
