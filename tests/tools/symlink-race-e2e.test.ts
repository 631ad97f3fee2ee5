import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEditFileTool, createListDirectoryTool, createReadFileTool, createSearchCodeTool, createWriteFileTool } from "../../src/tools/index.js";
import { callTool, exists, makeWorkspace, writeFiles, type CallResult, type TempWorkspace } from "./helpers.js";
import { startSwapper, type Swapper } from "./swapper.js";

/**
 * A folder of the workspace swapped, again and again, with a symlink to a forbidden folder (a real process doing
 * renameat2(RENAME_EXCHANGE)) must never redirect a tool: nothing there is returned, written or changed. The
 * forbidden folder is one outside the workspace, or mini-cursor's own state inside it.
 */
let ws: TempWorkspace | undefined;
let swapper: Swapper | undefined;

afterEach(async () => {
  await swapper?.stop();
  swapper = undefined;
  await ws?.cleanup();
  ws = undefined;
});

/** Every file under `dir` (relative path → content); symlinks are not followed. */
async function snapshot(dir: string, prefix = ""): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) for (const [k, v] of await snapshot(abs, `${prefix}${entry.name}/`)) files.set(k, v);
    else files.set(`${prefix}${entry.name}`, entry.isFile() ? await fs.readFile(abs, "utf8") : `<${entry.name}: not a file>`);
  }
  return files;
}

interface Attack {
  root: string;
  /** The folder the symlink points to; its files all contain SECRET. */
  forbidden: string;
  before: Map<string, string>;
}

/** Workspace with dir/ (ordinary files) and swap -> the forbidden folder, the two being exchanged nonstop. */
async function prepare(target: "outside" | "state"): Promise<Attack> {
  ws = await makeWorkspace();
  const forbidden = target === "outside" ? ws.outside : path.join(ws.root, ".mini-cursor");
  await writeFiles(ws.root, { "dir/notes.txt": "alpha inside\n", "dir/sub/deep.txt": "alpha deep inside\n" });
  await writeFiles(forbidden, {
    "notes.txt": "alpha SECRET forbidden\n",
    "forbidden-only.txt": "SECRET\n",
    "sub/deep.txt": "alpha SECRET deep forbidden\n",
  });
  await fs.symlink(forbidden, path.join(ws.root, "swap"));
  const before = await snapshot(forbidden);
  swapper = await startSwapper(path.join(ws.root, "dir"), path.join(ws.root, "swap"));
  return { root: ws.root, forbidden, before };
}

/** Runs `call` `times` times while the swapper runs, then stops it (which puts dir/ back in place). */
async function underAttack(times: number, call: (i: number) => Promise<CallResult>): Promise<CallResult[]> {
  const results: CallResult[] = [];
  for (let i = 0; i < times; i += 1) results.push(await call(i));
  const swaps = await swapper?.stop();
  swapper = undefined;
  expect(swaps).toBeGreaterThan(0);
  return results;
}

function expectNothingLeaked(results: CallResult[], marker: string): void {
  expect(results.filter((r) => r.content.includes(marker)).map((r) => r.content)).toEqual([]);
  for (const r of results.filter((x) => !x.artifact.ok)) expect(r.content).toMatch(/^Error: \S/);
}

for (const target of ["outside", "state"] as const) {
  describe(`a folder swapped with a symlink to the ${target === "outside" ? "outside of the workspace" : "agent's state"}, concurrently`, () => {
    it("read_file never returns a file from there", async () => {
      const { root } = await prepare(target);
      const tool = createReadFileTool({ root });
      const results = await underAttack(300, (i) => callTool(tool, { path: i % 2 ? "dir/notes.txt" : "dir/sub/deep.txt" }));
      expectNothingLeaked(results, "SECRET");
      // Not vacuous: plenty of calls still work during the attack.
      expect(results.filter((r) => r.artifact.ok && r.content.includes("inside")).length).toBeGreaterThan(0);
    });

    it("write_file never writes there, also when it creates parent folders", async () => {
      const { root, forbidden, before } = await prepare(target);
      const tool = createWriteFileTool({ root });
      const paths = (i: number): string => (i % 2 ? `dir/new-${i}.txt` : `dir/fresh-${i}/deeper/new.txt`);
      const results = await underAttack(300, (i) => callTool(tool, { path: paths(i), content: `written ${i}\n` }));
      expectNothingLeaked(results, "SECRET");
      expect(await snapshot(forbidden)).toEqual(before);
      const written = results.flatMap((r, i) => (r.artifact.ok ? [paths(i)] : []));
      expect(written.length).toBeGreaterThan(0);
      for (const rel of written) expect(await exists(path.join(root, rel))).toBe(true);
    });

    it("edit_file never changes a file there", async () => {
      const { root, forbidden, before } = await prepare(target);
      const tool = createEditFileTool({ root });
      const results = await underAttack(300, (i) =>
        callTool(tool, { path: i % 2 ? "dir/notes.txt" : "dir/sub/deep.txt", oldText: "alpha", newText: "alpha." }),
      );
      expectNothingLeaked(results, "SECRET");
      expect(await snapshot(forbidden)).toEqual(before);
      const edits = results.filter((r) => r.artifact.ok).length;
      expect(edits).toBeGreaterThan(0);
      const inside = (await fs.readFile(path.join(root, "dir/notes.txt"), "utf8")) + (await fs.readFile(path.join(root, "dir/sub/deep.txt"), "utf8"));
      expect(inside.split(".").length - 1).toBe(edits);
    });

    it("list_directory never lists that folder", async () => {
      const { root } = await prepare(target);
      const tool = createListDirectoryTool({ root });
      const results = await underAttack(200, (i) => callTool(tool, i % 2 ? { path: "dir", depth: 2 } : { path: ".", depth: 3 }));
      expectNothingLeaked(results, "forbidden-only");
      expect(results.filter((r) => r.artifact.ok && r.content.includes("notes.txt")).length).toBeGreaterThan(0);
    });

    it("search_code never returns lines from there", async () => {
      const { root } = await prepare(target);
      const tool = createSearchCodeTool({ root });
      const results = await underAttack(120, (i) => callTool(tool, i % 2 ? { pattern: "alpha", path: "dir" } : { pattern: "alpha" }));
      expectNothingLeaked(results, "SECRET");
      // Matches are found during the attack (shown, or left out because their file moved) and after it.
      expect(results.filter((r) => /alpha (deep )?inside|left out/.test(r.content)).length).toBeGreaterThan(0);
      expect((await callTool(tool, { pattern: "alpha" })).content).toContain("dir/notes.txt:1: alpha inside");
    });
  });
}
