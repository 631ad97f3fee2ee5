import { describe, expect, it } from "vitest";
import { completeInput } from "../../../../src/faces/cli/chat/completion.js";
import { useFolders } from "./folders.js";

const COMMANDS = ["help", "diff", "undo", "cost", "clear", "exit"];

const { workspace } = useFolders();

describe("Tab on a /command", () => {
  it("completes the one command that matches, with a space after it", async () => {
    expect(await completeInput("/di", { workspace: "/nonexistent", commandNames: COMMANDS })).toEqual({ line: "/diff ", options: ["/diff"] });
  });

  it("completes what several share and lists them", async () => {
    expect(await completeInput("/c", { workspace: "/nonexistent", commandNames: COMMANDS })).toEqual({ line: "/c", options: ["/cost", "/clear"] });
    expect(await completeInput("/", { workspace: "/nonexistent", commandNames: ["memory", "model"] })).toEqual({ line: "/m", options: ["/memory", "/model"] });
  });

  it("leaves a line without a match, and a /command with arguments, as they are", async () => {
    expect(await completeInput("/zz", { workspace: "/nonexistent", commandNames: COMMANDS })).toEqual({ line: "/zz", options: [] });
    expect(await completeInput("/diff x", { workspace: "/nonexistent", commandNames: COMMANDS })).toEqual({ line: "/diff x", options: [] });
    expect(await completeInput("plain words", { workspace: "/nonexistent", commandNames: COMMANDS })).toEqual({ line: "plain words", options: [] });
  });
});

describe("Tab on an @path", () => {
  it("completes the one file that matches, with a space after it", async () => {
    const root = await workspace({ "notes.md": "n\n", "package.json": "{}\n" });
    expect(await completeInput("read @no", { workspace: root, commandNames: COMMANDS })).toEqual({ line: "read @notes.md ", options: ["notes.md"] });
  });

  it("completes a folder without a space, so the next Tab goes into it", async () => {
    const root = await workspace({ "src/a/deep.ts": "x\n", "README.md": "r\n" });
    expect((await completeInput("@sr", { workspace: root, commandNames: COMMANDS })).line).toBe("@src/");
    expect((await completeInput("@src/", { workspace: root, commandNames: COMMANDS })).line).toBe("@src/a/");
    expect((await completeInput("look at @src/a/d", { workspace: root, commandNames: COMMANDS })).line).toBe("look at @src/a/deep.ts ");
  });

  it("lists folders first, then files, and completes what they share", async () => {
    const root = await workspace({ "stage.txt": "s\n", "src/x.ts": "x\n", "scripts/b.sh": "b\n", "spec.md": "m\n" });
    expect(await completeInput("@s", { workspace: root, commandNames: COMMANDS })).toEqual({
      line: "@s",
      options: ["@scripts/", "@src/", "@spec.md", "@stage.txt"],
    });
    expect(await completeInput("@sc", { workspace: root, commandNames: COMMANDS })).toEqual({ line: "@scripts/", options: ["scripts/"] });
  });

  it("leaves out git-ignored files and .git, node_modules and .mini-cursor", async () => {
    const root = await workspace({
      ".gitignore": "secret-*.txt\nbuild/\n",
      "secret-key.txt": "k\n",
      "see.txt": "s\n",
      "build/out.js": "o\n",
      ".git/HEAD": "ref: refs/heads/main\n",
      "node_modules/x/index.js": "x\n",
      ".mini-cursor/chat-history": '"hi"\n',
      ".mini-ideas.md": "i\n",
      "nested/.gitignore": "local.txt\n",
      "nested/local.txt": "l\n",
      "nested/kept.txt": "k\n",
    });
    expect((await completeInput("@se", { workspace: root, commandNames: COMMANDS })).line).toBe("@see.txt ");
    expect((await completeInput("@b", { workspace: root, commandNames: COMMANDS })).options).toEqual([]);
    expect((await completeInput("@.", { workspace: root, commandNames: COMMANDS })).options).toEqual(["@.gitignore", "@.mini-ideas.md"]);
    expect((await completeInput("@n", { workspace: root, commandNames: COMMANDS })).line).toBe("@nested/");
    expect((await completeInput("@nested/", { workspace: root, commandNames: COMMANDS })).options).toEqual(["@nested/.gitignore", "@nested/kept.txt"]);
    expect((await completeInput("@.mini-cursor/", { workspace: root, commandNames: COMMANDS })).options).toEqual([]);
  });
});
