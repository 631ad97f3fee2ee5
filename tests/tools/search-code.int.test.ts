import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSearchCodeTool } from "../../src/tools/search-code.js";
import { callTool, makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  await writeFiles(ws.root, {
    "src/math.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n",
    "src/main.ts": 'import { add } from "./math.js";\nconsole.log(add(1, 2));\n',
    "src/util/strings.js": "function addPrefix(s) { return 'x' + s; }\n",
    "docs/notes.md": "Remember to ADD tests.\n",
    ".github/ci.yml": "run: npm test # add more\n",
    ".gitignore": "build/\n",
    "build/out.js": "function add() {}\n",
    "node_modules/pkg/index.js": "function add() {}\n",
    ".mini-cursor/log.txt": "add\n",
  });
});
afterEach(async () => {
  await ws.cleanup();
});

describe("search_code", () => {
  it("finds regex matches as path:line: text, skipping ignored folders", async () => {
    const { content, artifact } = await callTool(createSearchCodeTool({ root: ws.root }), { pattern: "function add\\w*" });
    expect(artifact).toEqual({ ok: true });
    expect(content.split("\n")).toEqual([
      "2 matching lines in 2 files for /function add\\w*/ in the workspace (format path:line: text):",
      "src/math.ts:1: export function add(a: number, b: number) {",
      "src/util/strings.js:1: function addPrefix(s) { return 'x' + s; }",
    ]);
  });

  it("uses smart case by default and honours caseSensitive", async () => {
    const tool = createSearchCodeTool({ root: ws.root });
    const smart = await callTool(tool, { pattern: "add", glob: "*.md" });
    expect(smart.content).toContain("docs/notes.md:1: Remember to ADD tests.");
    const exact = await callTool(tool, { pattern: "add", glob: "*.md", caseSensitive: true });
    expect(exact.content).toMatch(/^No matches/);
    const upper = await callTool(tool, { pattern: "ADD", caseSensitive: false, glob: "*.yml" });
    expect(upper.content).toContain(".github/ci.yml:1: run: npm test # add more");
  });

  it("filters by glob (string or array, with exclusions) and by path", async () => {
    const tool = createSearchCodeTool({ root: ws.root });
    const js = await callTool(tool, { pattern: "add", glob: "*.js" });
    expect(js.content).toContain("src/util/strings.js:1:");
    expect(js.content).not.toContain("src/math.ts");
    const arr = await callTool(tool, { pattern: "add", glob: ["src/**/*.ts", "!**/main.ts"] });
    expect(arr.content).toContain("src/math.ts:1:");
    expect(arr.content).not.toContain("main.ts:");
    expect(arr.content).not.toContain("strings.js");
    const sub = await callTool(tool, { pattern: "add", path: "src/util" });
    expect(sub.content.split("\n").slice(1)).toEqual(["src/util/strings.js:1: function addPrefix(s) { return 'x' + s; }"]);
  });

  it("returns rg's message for an invalid regex", async () => {
    const { content, artifact } = await callTool(createSearchCodeTool({ root: ws.root }), { pattern: "add(" });
    expect(content).toMatch(/^Error: invalid regex pattern "add\(":/);
    expect(content).toContain("regex parse error");
    expect(content).toContain("call search_code again");
    expect(artifact.ok).toBe(false);
  });

  it("says when nothing matches and suggests broadening", async () => {
    const { content, artifact } = await callTool(createSearchCodeTool({ root: ws.root }), { pattern: "zebra_unicorn" });
    expect(content).toMatch(/^No matches for \/zebra_unicorn\/ in the workspace/);
    expect(content).toContain("Broaden the search");
    expect(artifact.ok).toBe(true);
  });

  it("caps results and truncates long lines", async () => {
    const many = Array.from({ length: 30 }, (_, i) => `hit ${i} ${"y".repeat(i === 0 ? 1000 : 1)}`).join("\n");
    await writeFiles(ws.root, { "many.txt": many });
    const { content } = await callTool(createSearchCodeTool({ root: ws.root }), { pattern: "^hit", maxResults: 10 });
    const lines = content.split("\n");
    expect(lines[0]).toContain("10 matching lines in 1 file");
    expect(lines).toHaveLength(12);
    expect(lines[1]?.length).toBeLessThan(400);
    expect(lines[1]).toContain("more characters on this line");
    expect(lines[11]).toContain("[showing the first 10 matches; more exist. Narrow with path, glob or a more specific pattern, or raise maxResults");
  });

  it("shows as many checked lines as fit the output limit, counting only the files shown", async () => {
    const files = Object.fromEntries(Array.from({ length: 4 }, (_, f) => [`hot/f${f}.txt`, Array.from({ length: 20 }, (_, i) => `hit ${f}-${i}`).join("\n")]));
    await writeFiles(ws.root, files);
    // Each shown line is "hot/fN.txt:L: hit N-I" (about 25 characters): 1,000 characters hold about 40 of the 80.
    const { content } = await callTool(createSearchCodeTool({ root: ws.root, outputLimitChars: 1000 }), { pattern: "^hit", maxResults: 1000 });
    const lines = content.split("\n");
    const shown = lines.slice(1, -1);
    expect(shown.length).toBeGreaterThan(30);
    expect(shown.length).toBeLessThan(50);
    expect(shown.join("\n").length).toBeLessThanOrEqual(1000);
    expect(shown[0]).toBe("hot/f0.txt:1: hit 0-0");
    expect(shown.at(-1)).toMatch(/^hot\/f[12]\.txt:\d+: hit [12]-\d+$/);
    expect(lines[0]).toBe(
      `${shown.length} matching lines in ${new Set(shown.map((l) => l.split(":")[0])).size} files for /^hit/ in the workspace (format path:line: text):`,
    );
    expect(lines.at(-1)).toBe("[showing the first " + String(shown.length) + " matches; more exist. Narrow with path, glob or a more specific pattern]");
  });

  it("refuses search paths outside the workspace", async () => {
    await fs.symlink(ws.outside, path.join(ws.root, "link-dir"));
    const tool = createSearchCodeTool({ root: ws.root });
    for (const input of ["..", "link-dir", ws.outside]) {
      const { content } = await callTool(tool, { pattern: "SECRET", path: input });
      expect(content).toMatch(/^Error: path .* outside the workspace/);
    }
    // Symlinks met while walking the workspace are not followed either.
    const all = await callTool(tool, { pattern: "SECRET" });
    expect(all.content).toMatch(/^No matches/);
  });

  it("explains a missing search path", async () => {
    const { content } = await callTool(createSearchCodeTool({ root: ws.root }), { pattern: "x", path: "nope" });
    expect(content).toMatch(/^Error: path "nope" does not exist/);
  });
});
