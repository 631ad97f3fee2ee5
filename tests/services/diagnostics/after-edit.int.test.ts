import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createEditFileTool } from "../../../src/tools/edit-file.js";
import { createWriteFileTool } from "../../../src/tools/write-file.js";
import type { Diagnostics } from "../../../src/services/diagnostics/index.js";
import { callTool, type TempWorkspace } from "../../tools/helpers.js";
import { requireBubblewrap } from "../../safety/sandbox/helpers.js";
import { hub, makeTsProject, processesMentioning } from "./helpers.js";

const MATH = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const USE = 'import { add } from "./math.js";\n\nexport const three: number = add(1, 2);\n';

describe("diagnostics after write_file and edit_file (real typescript, real sandbox)", () => {
  let ws: TempWorkspace | undefined;
  let diagnostics: Diagnostics | undefined;
  beforeAll(async () => {
    await requireBubblewrap();
  });
  afterEach(async () => {
    diagnostics?.close();
    diagnostics = undefined;
    await ws?.cleanup();
    ws = undefined;
  });

  const tools = (root: string, d: Diagnostics) => ({
    write: createWriteFileTool({ root, diagnostics: d }),
    edit: createEditFileTool({ root, diagnostics: d }),
  });

  it("returns the type error the coder wrote, with file:line:col and its TS code, and nothing for a clean edit", async () => {
    ws = await makeTsProject({ "src/math.ts": MATH, "src/use.ts": USE });
    diagnostics = hub();
    const { write, edit } = tools(ws.root, diagnostics);

    const bad = await callTool(write, { path: "src/count.ts", content: 'export const count: number = 1;\nexport const label: number = "one";\n' });
    expect(bad.artifact.ok).toBe(true);
    expect(bad.content).toMatch(/^Created "src\/count\.ts"/);
    expect(bad.content).toContain("Diagnostics: 1 new problem after this change");
    expect(bad.content).toContain("src/count.ts:2:14 TS2322 Type 'string' is not assignable to type 'number'.");

    const clean = await callTool(edit, { path: "src/math.ts", oldText: "return a + b;", newText: "return b + a;" });
    expect(clean.artifact.ok).toBe(true);
    expect(clean.content).not.toContain("Diagnostics");
    expect(clean.content).not.toContain("Note:");

    // The old error is not new any more; a second one in the same file is.
    const second = await callTool(edit, { path: "src/count.ts", oldText: "export const count: number = 1;", newText: "export const count: number = true;" });
    expect(second.content).toContain("src/count.ts:1:14 TS2322 Type 'boolean' is not assignable to type 'number'.");
    expect(second.content).not.toContain("'string'");
  });

  it("reports an importer broken by an edit (an export renamed), and only problems the change introduced", async () => {
    ws = await makeTsProject({
      "src/math.ts": MATH,
      "src/use.ts": USE,
      // Broken before the session: never reported as new.
      "src/old.ts": 'export const old: number = "already broken";\n',
    });
    diagnostics = hub();
    const { edit } = tools(ws.root, diagnostics);
    const result = await callTool(edit, { path: "src/math.ts", oldText: "export function add(", newText: "export function sum(" });
    expect(result.artifact.ok).toBe(true);
    expect(result.content).toContain("Diagnostics: 1 new problem");
    expect(result.content).toMatch(/src\/use\.ts:1:10 TS2305 Module '"\.\/math\.js"' has no exported member 'add'\./);
    expect(result.content).not.toContain("old.ts");
  });

  it("reports importers two and three hops away, through barrels that re-export, nearest first", async () => {
    ws = await makeTsProject({
      "src/math.ts": MATH,
      // Barrels: no error of their own when math.ts drops an export.
      "src/lib/index.ts": 'export * from "../math.js";\n',
      "src/index.ts": 'export * from "./lib/index.js";\n',
      "src/app.ts": 'import { add } from "./lib/index.js";\n\nexport const five: number = add(2, 3);\n',
      "src/main.ts": 'import { add } from "./index.js";\n\nexport const six: number = add(3, 3);\n',
    });
    diagnostics = hub();
    const { edit } = tools(ws.root, diagnostics);
    const result = await callTool(edit, { path: "src/math.ts", oldText: "export function add(", newText: "export function sum(" });
    expect(result.artifact.ok).toBe(true);
    expect(result.content).toContain("Diagnostics: 2 new problems");
    expect(result.content).toMatch(/src\/app\.ts:1:10 TS2305 Module '"\.\/lib\/index\.js"' has no exported member 'add'\./);
    expect(result.content).toMatch(/src\/main\.ts:1:10 TS2305 Module '"\.\/index\.js"' has no exported member 'add'\./);
    expect(result.content.indexOf("src/app.ts")).toBeLessThan(result.content.indexOf("src/main.ts"));
  });

  it("sees a top-level file replaced after the service started (the workspace is bound live)", async () => {
    ws = await makeTsProject({ "src/math.ts": MATH });
    diagnostics = hub();
    const { write, edit } = tools(ws.root, diagnostics);
    const clean = await callTool(write, { path: "main.ts", content: "export const main = 1;\n" });
    expect(clean.content).toBe('Created "main.ts" (23 bytes, 1 lines).');
    const bad = await callTool(edit, { path: "main.ts", oldText: "export const main = 1;", newText: "export const main: string = 1;" });
    expect(bad.content).toContain("main.ts:1:14 TS2322 Type 'number' is not assignable to type 'string'.");
  });

  it("turns a checker that takes too long into a short note; the change itself stands", async () => {
    ws = await makeTsProject({}, false);
    diagnostics = hub({ typescript: false, commands: [{ command: "sleep 20 # {file}" }], timeoutMs: 500 });
    const { write } = tools(ws.root, diagnostics);
    const slow = await callTool(write, { path: "notes.txt", content: "hello\n" });
    expect(slow.artifact.ok).toBe(true);
    expect(slow.content).toBe('Created "notes.txt" (6 bytes, 1 lines).\n\nNote: "sleep 20 # {file}" took longer than 0.5 s and was skipped for this change.');
    expect(await readFile(path.join(ws.root, "notes.txt"), "utf8")).toBe("hello\n");
    expect(processesMentioning("sleep 20")).toEqual([]);
  });

  it("says once that the project has no typescript, and does not use another", async () => {
    ws = await makeTsProject({ "src/math.ts": MATH }, false);
    diagnostics = hub();
    const { write } = tools(ws.root, diagnostics);
    const first = await callTool(write, { path: "src/bad.ts", content: 'export const n: number = "x";\n' });
    expect(first.content).toContain("Note: no TypeScript diagnostics: the project has no `typescript` package installed (node_modules/typescript).");
    expect(first.content).not.toContain("TS2322");
    const second = await callTool(write, { path: "src/bad2.ts", content: 'export const m: number = "y";\n' });
    expect(second.content).toBe('Created "src/bad2.ts" (30 bytes, 1 lines).');
  });

  it("is off when switched off: the edit result is the plain one", async () => {
    ws = await makeTsProject({ "src/math.ts": MATH });
    diagnostics = hub({ enabled: false });
    const { write } = tools(ws.root, diagnostics);
    const result = await callTool(write, { path: "src/bad.ts", content: 'export const n: number = "x";\n' });
    expect(result.content).toBe('Created "src/bad.ts" (30 bytes, 1 lines).');
    expect(processesMentioning(ws.root)).toEqual([]);
  });

  it("runs a configured command with {file} in the sandbox and reports its path:line problems", async () => {
    ws = await makeTsProject({});
    // A checker in the shape most linters print: path:line:col: message, exit 1 when it found something.
    const command = "grep -Hn FIXME {file} | sed -E 's/^([^:]+):([0-9]+):.*/\\1:\\2:1: no FIXME allowed/'; ! grep -q FIXME {file}";
    diagnostics = hub({ commands: [{ command, extensions: [".py"] }] });
    const { write, edit } = tools(ws.root, diagnostics);
    const clean = await callTool(write, { path: "tool.py", content: "print('hi')\n" });
    expect(clean.content).toBe('Created "tool.py" (12 bytes, 1 lines).');
    const bad = await callTool(edit, { path: "tool.py", oldText: "print('hi')", newText: "print('hi')\n# FIXME later" });
    expect(bad.content).toContain("Diagnostics: 1 new problem");
    expect(bad.content).toContain("tool.py:2:1 grep -Hn no FIXME allowed");
    // Not for other files.
    const other = await callTool(write, { path: "notes.txt", content: "FIXME\n" });
    expect(other.content).not.toContain("Diagnostics");
  });

  it("starts the language service again once when it dies, and the edit after that still gets its problems", async () => {
    ws = await makeTsProject({ "src/math.ts": MATH });
    diagnostics = hub();
    const { write } = tools(ws.root, diagnostics);
    await callTool(write, { path: "src/one.ts", content: "export const one = 1;\n" });
    const first = processesMentioning(ws.root);
    expect(first.length).toBeGreaterThan(0);
    for (const pid of first) process.kill(pid, "SIGKILL");
    for (let i = 0; i < 100 && processesMentioning(ws.root).length > 0; i++) await sleep(20);
    const bad = await callTool(write, { path: "src/two.ts", content: 'export const two: number = "2";\n' });
    expect(bad.artifact.ok).toBe(true);
    expect(bad.content).toContain("src/two.ts:1:14 TS2322");
  });

  it("keeps the language service warm between checks and stops it with the session, leaving no process", async () => {
    ws = await makeTsProject({ "src/math.ts": MATH, "src/use.ts": USE });
    diagnostics = hub();
    const { edit } = tools(ws.root, diagnostics);
    await callTool(edit, { path: "src/math.ts", oldText: "return a + b;", newText: "return b + a;" });
    const running = processesMentioning(ws.root);
    expect(running.length).toBeGreaterThan(0);
    await callTool(edit, { path: "src/math.ts", oldText: "return b + a;", newText: "return a + b;" });
    expect(processesMentioning(ws.root)).toEqual(running);
    diagnostics.close();
    for (let i = 0; i < 100 && processesMentioning(ws.root).length > 0; i++) await sleep(20);
    expect(processesMentioning(ws.root)).toEqual([]);
  });
});
