import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findClosestRegion } from "../../src/tools/closest-region.js";
import { createEditFileTool } from "../../src/tools/edit-file.js";
import { callTool, makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

let ws: TempWorkspace;
const source = [
  "import { x } from './x.js';",
  "",
  "export function total(items: number[]): number {",
  "  let sum = 0;",
  "  for (const item of items) {",
  "    sum += item;",
  "  }",
  "  return sum;",
  "}",
  "",
  "export const a = 1;",
  "export const b = 1;",
  "",
].join("\n");

beforeEach(async () => {
  ws = await makeWorkspace();
  await writeFiles(ws.root, { "src/calc.ts": source });
});
afterEach(async () => {
  await ws.cleanup();
});

const read = () => fs.readFile(path.join(ws.root, "src/calc.ts"), "utf8");

describe("edit_file", () => {
  it("replaces a unique match and reports the changed lines", async () => {
    const { content, artifact } = await callTool(createEditFileTool({ root: ws.root }), {
      path: "src/calc.ts",
      oldText: "    sum += item;",
      newText: "    // Skip negatives.\n    if (item < 0) continue;\n    sum += item;",
    });
    expect(artifact).toEqual({ ok: true, filesChanged: ["src/calc.ts"] });
    expect(content).toContain('Edited "src/calc.ts": replaced 1 occurrence.');
    expect(content).toContain("- old line 6 → now lines 6-8");
    expect(content).toContain("   7|     if (item < 0) continue;");
    expect(await read()).toBe(source.replace("    sum += item;", "    // Skip negatives.\n    if (item < 0) continue;\n    sum += item;"));
  });

  it("treats $ in newText literally", async () => {
    await callTool(createEditFileTool({ root: ws.root }), { path: "src/calc.ts", oldText: "let sum = 0;", newText: "let sum = $&$1;" });
    expect(await read()).toContain("let sum = $&$1;");
  });

  it("refuses an ambiguous match, saying how many and where", async () => {
    const { content, artifact } = await callTool(createEditFileTool({ root: ws.root }), {
      path: "src/calc.ts",
      oldText: "= 1;",
      newText: "= 2;",
    });
    expect(content).toBe(
      'Error: oldText occurs 2 times in "src/calc.ts" (at lines 11, 12). Add surrounding lines to oldText so it matches exactly one place, or set replaceAll=true to replace every occurrence.',
    );
    expect(artifact).toEqual({ ok: false });
    expect(await read()).toBe(source);
  });

  it("replaces every occurrence with replaceAll", async () => {
    const { content } = await callTool(createEditFileTool({ root: ws.root }), {
      path: "src/calc.ts",
      oldText: "= 1;",
      newText: "= 2;",
      replaceAll: true,
    });
    expect(content).toContain("replaced 2 occurrences");
    expect(content).toContain("- old line 11 → now line 11\n- old line 12 → now line 12");
    expect(await read()).toContain("export const a = 2;\nexport const b = 2;");
  });

  it("shows the closest region when oldText does not match", async () => {
    const { content, artifact } = await callTool(createEditFileTool({ root: ws.root }), {
      path: "src/calc.ts",
      oldText: "  for (const itm of items) {\n    sum = sum + item;\n  }",
      newText: "  sum = items.reduce((a, b) => a + b, 0);",
    });
    expect(artifact.ok).toBe(false);
    expect(content).toMatch(/^Error: oldText was not found in "src\/calc.ts".*The most similar region is lines 5-7 \(\d+% similar\)/);
    expect(content).toContain("   5|   for (const item of items) {");
    expect(content).toContain("   6|     sum += item;");
    expect(content).toContain("Retry edit_file with oldText copied exactly");
    expect(await read()).toBe(source);
  });

  it("points out whitespace-only differences", async () => {
    const { content } = await callTool(createEditFileTool({ root: ws.root }), {
      path: "src/calc.ts",
      oldText: "let sum = 0;\nfor (const item of items) {",
      newText: "x",
    });
    expect(content).toContain("The most similar region is lines 4-5");
    expect(content).toContain("differs from oldText only in whitespace or indentation");
  });

  it("matches LF oldText against a CRLF file", async () => {
    await writeFiles(ws.root, { "win.txt": "one\r\ntwo\r\nthree\r\n" });
    const { artifact } = await callTool(createEditFileTool({ root: ws.root }), { path: "win.txt", oldText: "one\ntwo", newText: "1\n2" });
    expect(artifact.ok).toBe(true);
    expect(await fs.readFile(path.join(ws.root, "win.txt"), "utf8")).toBe("1\r\n2\r\nthree\r\n");
  });

  it("refuses empty oldText, identical texts, missing and binary files, and escapes", async () => {
    await writeFiles(ws.root, { "bin.dat": Buffer.from([1, 0, 2]) });
    await fs.symlink(path.join(ws.outside, "secret.txt"), path.join(ws.root, "link-file"));
    const tool = createEditFileTool({ root: ws.root });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ path: "src/calc.ts", oldText: "", newText: "x" }, /^Error: oldText is empty\. To create a file .* use write_file/],
      [{ path: "src/calc.ts", oldText: "a", newText: "a" }, /^Error: oldText and newText are identical/],
      [{ path: "nope.ts", oldText: "a", newText: "b" }, /^Error: file "nope.ts" does not exist\. To create it call write_file/],
      [{ path: "bin.dat", oldText: "a", newText: "b" }, /^Error: "bin.dat" looks like a binary file/],
      [{ path: "link-file", oldText: "TOP", newText: "OWNED" }, /^Error: path "link-file" resolves through a symlink to .* outside the workspace/],
      [{ path: "../outside/secret.txt", oldText: "TOP", newText: "OWNED" }, /^Error: path .* is outside the workspace/],
    ];
    for (const [args, expected] of cases) {
      const { content, artifact } = await callTool(tool, args);
      expect(content).toMatch(expected);
      expect(artifact.ok).toBe(false);
    }
    expect(await fs.readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
  });
});

describe("findClosestRegion", () => {
  it("finds the most similar window", () => {
    const file = ["a", "function foo() {", "  return 1;", "}", "b"];
    expect(findClosestRegion(file, ["function fo() {", "  return 2;"])).toMatchObject({ startLine: 2, endLine: 3 });
    expect(findClosestRegion([], ["x"])).toBeUndefined();
  });

  it("finds the region in a big file", () => {
    const file = Array.from({ length: 50_000 }, (_, i) => `const value${i} = compute(${i}, "${"z".repeat(i % 40)}");`);
    const wanted = Array.from({ length: 150 }, (_, i) => `const value${30_000 + i} = compute(${30_000 + i}, "");`);
    const region = findClosestRegion(file, wanted);
    expect(region?.startLine).toBe(30_001);
  });
});
