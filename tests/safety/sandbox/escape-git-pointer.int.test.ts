import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readIfExists, runSandboxed, useSandboxWorkspace } from "./helpers.js";

const ws = useSandboxWorkspace();

/**
 * A `.git` that is a file (a git worktree's, as `run --worktree` makes, or a submodule's) tells git outside the sandbox
 * which repository and config to use: mini-cursor's own commits in a worktree, and the person's git. A command that
 * points it at a folder of its own (whose config has a clean filter) would have that git run its program unsandboxed.
 */
describe("bubblewrap sandbox: a .git file", () => {
  it("is read-only for commands: it cannot be rewritten, moved or removed; the rest stays writable", async () => {
    const root = ws().root;
    const pointer = "gitdir: /somewhere/.git/worktrees/s1\n";
    await fs.writeFile(path.join(root, ".git"), pointer);
    const { content } = await runSandboxed(
      ws(),
      ["cat .git", "echo 'gitdir: .x/gd' > .git", "mv .git moved", "rm -f .git", "echo ok > notes.txt", "echo end"].join("; "),
    );
    expect(content).toContain(pointer.trim());
    expect(content).toContain("end");
    expect(await readIfExists(path.join(root, ".git"))).toBe(pointer);
    expect(await readIfExists(path.join(root, "moved"))).toBeUndefined();
    expect(await readIfExists(path.join(root, "notes.txt"))).toBe("ok\n");
  });

  it("a .git folder (the workspace's own repository) stays the project's to change, as before", async () => {
    const root = ws().root;
    await fs.mkdir(path.join(root, ".git"));
    const { content } = await runSandboxed(ws(), "echo x > .git/note && echo end");
    expect(content).toContain("end");
    expect(await readIfExists(path.join(root, ".git", "note"))).toBe("x\n");
  });
});
