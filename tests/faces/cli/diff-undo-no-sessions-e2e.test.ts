import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";

/**
 * `diff` and `undo` in a folder that never had a session (issue 40): a mistyped or missing session id is one line and
 * exit 2, and the folder stays exactly as it was: no `.mini-cursor/`, no undo store, nothing in the home folder either.
 */

/** Every entry under `root` (the root itself included): its kind, mode, size, modification time and content hash. */
async function snapshot(root: string): Promise<string[]> {
  const lines: string[] = [];
  async function visit(dir: string): Promise<void> {
    const stat = await fs.lstat(dir);
    lines.push(`${path.relative(root, dir) || "."} dir ${stat.mode} ${stat.mtimeMs}`);
    for (const entry of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        await visit(full);
        continue;
      }
      const s = await fs.lstat(full);
      const hash = entry.isFile()
        ? createHash("sha256")
            .update(await fs.readFile(full))
            .digest("hex")
        : "";
      lines.push(`${path.relative(root, full)} ${s.mode} ${s.size} ${s.mtimeMs} ${hash}`);
    }
  }
  await visit(root);
  return lines;
}

let ws: TempWorkspace;
let home: TempWorkspace;
beforeEach(async () => {
  ws = await makeTempWorkspace();
  home = await makeTempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
  await home.cleanup();
});

const CASES: [string[], (root: string) => string][] = [
  [["diff", "BADID"], (root) => `no session "BADID" in ${root} (see mini-cursor sessions)`],
  [["undo", "BADID"], (root) => `no session "BADID" in ${root} (see mini-cursor sessions)`],
  [["undo", "--json", "20261205-101500-abcd"], (root) => `no session "20261205-101500-abcd" in ${root} (see mini-cursor sessions)`],
  [["diff"], (root) => `no sessions in ${root} yet`],
  [["undo"], (root) => `no sessions in ${root} yet`],
];

describe("diff and undo where no session ever ran (built CLI)", () => {
  it.each(CASES)("%j in an empty folder: one line, exit 2, and the folder stays empty", async (args, line) => {
    const before = await snapshot(ws.root);
    const homeBefore = await snapshot(home.root);
    const { code, stdout, stderr } = await runCli(args, { cwd: ws.root, env: { HOME: home.root } });
    expect(stderr).toBe(`mini-cursor: ${line(ws.root)}\n`);
    expect(stdout).toBe("");
    expect(code).toBe(2);
    expect(await fs.readdir(ws.root)).toEqual([]);
    expect(await snapshot(ws.root)).toEqual(before);
    expect(await snapshot(home.root)).toEqual(homeBefore);
  });

  it("leaves a project folder byte for byte as it was, also with --workspace from elsewhere", async () => {
    await fs.mkdir(path.join(ws.root, "src"));
    await fs.writeFile(path.join(ws.root, "src", "main.js"), "export const x = 1;\n");
    await fs.writeFile(path.join(ws.root, "README.md"), "# project\n");
    const before = await snapshot(ws.root);
    for (const command of ["diff", "undo"]) {
      const { code, stderr } = await runCli([command, "BADID", "--workspace", ws.root], { cwd: home.root, env: { HOME: home.root } });
      expect(stderr).toBe(`mini-cursor: no session "BADID" in ${ws.root} (see mini-cursor sessions)\n`);
      expect(code).toBe(2);
    }
    expect(await snapshot(ws.root)).toEqual(before);
    await expect(fs.access(path.join(ws.root, ".mini-cursor"))).rejects.toThrow();
  });
});
