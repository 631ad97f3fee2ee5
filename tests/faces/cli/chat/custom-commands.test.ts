import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatContext } from "../../../../src/faces/cli/chat/slash-commands.js";
import { loadCustomCommands, type CustomCommand } from "../../../../src/faces/cli/chat/custom-commands.js";
import { customSlashCommand } from "../../../../src/faces/cli/chat/slash-commands.js";
import { systemClock } from "../../../../src/platform/clock.js";
import { useFolders } from "./folders.js";

const BUILT_IN = ["help", "diff", "exit"];

const { workspace, outside: outsideFolder } = useFolders();

describe("loading custom commands", () => {
  it("reads both folders: the file name is the command, the body its message", async () => {
    const root = await workspace({
      ".mini-cursor/commands/review.md": "Review $ARGUMENTS carefully.\nThen report.\n",
      ".claude/commands/fix-lint.md": "Fix the lint errors.\n",
    });
    const { commands, problems } = await loadCustomCommands(root, BUILT_IN);
    expect(problems).toEqual([]);
    expect(commands).toEqual([
      {
        name: "review",
        description: "Review $ARGUMENTS carefully.",
        prompt: "Review $ARGUMENTS carefully.\nThen report.",
        source: ".mini-cursor/commands/review.md",
      },
      { name: "fix-lint", description: "Fix the lint errors.", prompt: "Fix the lint errors.", source: ".claude/commands/fix-lint.md" },
    ]);
  });

  it("takes description and argument-hint from the frontmatter", async () => {
    const root = await workspace({
      ".claude/commands/port.md": "---\ndescription: Port a module\nargument-hint: <module> [target]\n---\nPort $ARGUMENTS to ESM.\n",
    });
    const { commands } = await loadCustomCommands(root, BUILT_IN);
    expect(commands).toEqual([
      { name: "port", description: "Port a module", argumentHint: "<module> [target]", prompt: "Port $ARGUMENTS to ESM.", source: ".claude/commands/port.md" },
    ]);
  });

  it("keeps the first of a name: ours before Claude Code's", async () => {
    const root = await workspace({ ".mini-cursor/commands/ship.md": "Ours.\n", ".claude/commands/ship.md": "Theirs.\n" });
    const { commands } = await loadCustomCommands(root, BUILT_IN);
    expect(commands.map((c) => [c.name, c.prompt])).toEqual([["ship", "Ours."]]);
  });

  it("reports a file named like a built-in command, and one without a message", async () => {
    const root = await workspace({
      ".claude/commands/diff.md": "My diff.\n",
      ".claude/commands/empty.md": "---\ndescription: nothing here\n---\n\n",
      ".claude/commands/ok.md": "Fine.\n",
    });
    const { commands, problems } = await loadCustomCommands(root, BUILT_IN);
    expect(commands.map((c) => c.name)).toEqual(["ok"]);
    expect(problems).toEqual([
      ".claude/commands/diff.md: /diff is a built-in command; rename the file to use it",
      ".claude/commands/empty.md: no message in the file",
    ]);
  });

  it("passes over a symlink that points outside the workspace", async () => {
    const root = await workspace({ ".claude/commands/inside.md": "Inside.\n" });
    const outside = await outsideFolder();
    await fs.writeFile(path.join(outside, "leak.md"), "SECRET outside the workspace\n");
    await fs.symlink(path.join(outside, "leak.md"), path.join(root, ".claude/commands/leak.md"));
    await fs.symlink(path.join(root, ".claude/commands/inside.md"), path.join(root, ".claude/commands/alias.md"));
    // mini-cursor's own state is not a command either, though it is inside the workspace.
    await fs.mkdir(path.join(root, ".mini-cursor"));
    await fs.writeFile(path.join(root, ".mini-cursor/chat-history"), '"typed earlier"\n');
    await fs.symlink(path.join(root, ".mini-cursor/chat-history"), path.join(root, ".claude/commands/state.md"));
    const { commands, problems } = await loadCustomCommands(root, BUILT_IN);
    expect(commands.map((c) => [c.name, c.prompt])).toEqual([
      ["alias", "Inside."],
      ["inside", "Inside."],
    ]);
    expect(problems).toEqual([]);
  });

  it("finds nothing in a workspace without the folders, or one that does not exist", async () => {
    const root = await workspace({ "README.md": "r\n" });
    expect(await loadCustomCommands(root, BUILT_IN)).toEqual({ commands: [], problems: [] });
    expect(await loadCustomCommands(path.join(root, "missing"), BUILT_IN)).toEqual({ commands: [], problems: [] });
  });
});

describe("a custom command as a slash command", () => {
  const sent = (command: CustomCommand, args: string): string[] => {
    const messages: string[] = [];
    const ctx: ChatContext = {
      workspace: "/w",
      env: {},
      clock: systemClock,
      sessionId: "s",
      settings: { approval: "ask", allowNetwork: false, approveFileChanges: false },
      saveSettings: async () => undefined,
      print: () => undefined,
      useSession: () => undefined,
      send: (text) => void messages.push(text),
      leave: () => undefined,
    };
    void customSlashCommand(command).run(args, ctx);
    return messages;
  };
  const base: CustomCommand = {
    name: "port",
    description: "Port a module",
    prompt: "Port $ARGUMENTS to ESM; keep $ARGUMENTS tested.",
    source: ".claude/commands/port.md",
  };

  it("puts what follows the command in place of every $ARGUMENTS", () => {
    expect(sent(base, "  src/a.ts ")).toEqual(["Port src/a.ts to ESM; keep src/a.ts tested."]);
    expect(sent(base, "")).toEqual(["Port  to ESM; keep  tested."]);
  });

  it("appends what follows when the message has no $ARGUMENTS, and sends it alone without", () => {
    const plain = { ...base, prompt: "Fix the lint errors." };
    expect(sent(plain, "only in src/")).toEqual(["Fix the lint errors.\n\nonly in src/"]);
    expect(sent(plain, "  ")).toEqual(["Fix the lint errors."]);
  });

  it("shows its hint and where it comes from in /help", () => {
    expect(customSlashCommand({ ...base, argumentHint: "<module>" })).toMatchObject({
      name: "port",
      args: "<module>",
      description: "Port a module (.claude/commands/port.md)",
    });
    expect(customSlashCommand(base).args).toBeUndefined();
  });
});
