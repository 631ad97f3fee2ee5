import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expandMentions } from "../../../../src/faces/cli/chat/mentions.js";
import { useFolders } from "./folders.js";

const { workspace, outside: outsideFolder } = useFolders();

describe("@path mentions", () => {
  it("leaves a message without mentions alone (an e-mail address is none)", async () => {
    const root = await workspace({ "a.md": "a\n" });
    expect(await expandMentions(root, "write to me@a.md please", 1_000)).toEqual({ text: "write to me@a.md please", notes: [] });
  });

  it("puts a mentioned file's content after the message, once however often it is mentioned", async () => {
    const root = await workspace({ "notes.md": "The deploy word is PELICAN-42.\n" });
    expect(await expandMentions(root, "Read @notes.md, then @notes.md again.", 1_000)).toEqual({
      text: "Read @notes.md, then @notes.md again.\n\nContent of notes.md (mentioned as @notes.md):\n```\nThe deploy word is PELICAN-42.\n\n```",
      notes: [],
    });
  });

  it("lists a mentioned folder, folders marked, ignored entries left out", async () => {
    const root = await workspace({ ".gitignore": "*.log\n", "src/b.ts": "b\n", "src/a.ts": "a\n", "src/lib/c.ts": "c\n", "src/debug.log": "d\n" });
    const { text, notes } = await expandMentions(root, "Look at @src/", 1_000);
    expect(notes).toEqual([]);
    expect(text).toBe("Look at @src/\n\nListing of src/ (mentioned as @src/):\n```\na.ts\nb.ts\nlib/\n```");
  });

  it("leaves an unknown, a git-ignored or an own-state path as written, with a note", async () => {
    const root = await workspace({ ".gitignore": "secret.txt\n", "secret.txt": "TOKEN\n", ".mini-cursor/chat-history": '"x"\n' });
    const { text, notes } = await expandMentions(root, "See @missing.md and @secret.txt and @.mini-cursor/chat-history", 1_000);
    expect(text).toBe("See @missing.md and @secret.txt and @.mini-cursor/chat-history");
    expect(notes).toEqual([
      "@missing.md could not be read (does not exist): left as written",
      "@secret.txt is not a file or folder of the workspace: left as written",
      "@.mini-cursor/chat-history is not a file or folder of the workspace: left as written",
    ]);
  });

  it("cuts what does not fit the budget, with a note", async () => {
    const root = await workspace({ "big.txt": "x".repeat(100), "small.txt": "0123456789" });
    const { text, notes } = await expandMentions(root, "@small.txt @big.txt", 40);
    expect(notes).toEqual(["@big.txt is cut to 30 characters to fit the context budget"]);
    expect(text).toContain("```\n0123456789\n```");
    expect(text).toContain(`\`\`\`\n${"x".repeat(30)}\n… (cut here; read the file for the rest)\n\`\`\``);
    expect(text).not.toContain("x".repeat(31));
  });

  it("does not read a symlink that leaves the workspace", async () => {
    const root = await workspace({ "ok.md": "fine\n" });
    const outside = await outsideFolder();
    await fs.writeFile(path.join(outside, "secret.txt"), "OUTSIDE-SECRET\n");
    await fs.symlink(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    await fs.symlink(outside, path.join(root, "linkdir"));
    const { text, notes } = await expandMentions(root, "@link.txt @linkdir/secret.txt @linkdir", 1_000);
    expect(text).toBe("@link.txt @linkdir/secret.txt @linkdir");
    expect(text).not.toContain("OUTSIDE-SECRET");
    expect(notes).toHaveLength(3);
    for (const note of notes) expect(note).toMatch(/^@\S+ is not a file or folder of the workspace: left as written$/);
  });
});
