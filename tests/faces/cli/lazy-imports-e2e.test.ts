import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../../src/platform/clock.js";
import { openSessionDatabase } from "../../../src/sessions/database.js";
import { moduleTrace } from "../../helpers/module-trace.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";

/**
 * Commands that only list rows or print help start fast because they never import LangGraph, LangChain or zod
 * (most of a second on this machine). Checked without timing: a module hook records every module the built CLI
 * loads, and the test reads that list.
 */

const LANGCHAIN = /\/node_modules\/@langchain\//;
const ZOD = /\/node_modules\/zod\//;

describe("commands that list rows or print help load no LangGraph", () => {
  const ws = useTempWorkspace();

  /** Runs the built CLI with the module hook; returns its result and what it loaded (sources, bundle expanded). */
  async function traced(args: string[], env: Record<string, string> = {}) {
    const trace = moduleTrace(ws.root, `trace-${args.join("-").replace(/[^a-z]/g, "")}`);
    const result = await runCli(args, { cwd: ws.root, env: { ...trace.env, ...env } });
    return { ...result, modules: trace.modules() };
  }

  function seedSessions(count: number): void {
    const database = openSessionDatabase(ws.root, systemClock);
    try {
      for (let i = 0; i < count; i++) database.sessions.create({ id: `lazy-${i}`, task: `task ${i}`, workspace: ws.root, model: "m", options: "{}" });
    } finally {
      database.close();
    }
  }

  it("sessions lists its rows with plain SQLite", async () => {
    seedSessions(3);
    const { code, stdout, stderr, modules } = await traced(["sessions", "--workspace", ws.root]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    // Its rows say running but no process holds them: shown as interrupted (the lock module loads on demand).
    expect(stdout).toMatch(/lazy-2 +interrupted/);
    // The hook saw the command's own module: an empty trace would prove nothing.
    expect(modules.some((m) => m.endsWith("/src/faces/cli/commands/sessions.ts"))).toBe(true);
    expect(modules.filter((m) => LANGCHAIN.test(m) || ZOD.test(m))).toEqual([]);
  });

  it("help and the listing commands load the CommonJS entry alone; the others hand over to the ES module app", async () => {
    seedSessions(1);
    const ENTRY = path.join("dist", "cli", "main.js");
    const APP = path.join("dist", "app", "app.js");
    for (const args of [["--help"], ["--version"], ["sessions", "--workspace", ws.root], ["memory", "list", "--workspace", ws.root], ["diff", "--help"]]) {
      const trace = moduleTrace(ws.root, `entry-${args.join("-").replace(/[^a-z]/g, "")}`);
      const result = await runCli(args, { cwd: ws.root, env: { ...trace.env, MINI_CURSOR_DATA_DIR: path.join(ws.root, "no-memory") } });
      expect(result.code, args.join(" ")).toBe(0);
      expect(trace.buildFiles(), args.join(" ")).toEqual([ENTRY]);
    }
    // Deleting a session needs the undo store: the entry leaves that out and the app runs the command from the start.
    const trace = moduleTrace(ws.root, "entry-delete");
    const deleted = await runCli(["sessions", "delete", "lazy-0", "--workspace", ws.root], { cwd: ws.root, env: trace.env });
    expect(deleted.stderr).toBe("");
    expect(deleted.code).toBe(0);
    expect(trace.buildFiles().slice(0, 2)).toEqual([ENTRY, APP]);
    const listed = await runCli(["sessions", "--workspace", ws.root], { cwd: ws.root, env: {} });
    expect(listed.stdout).not.toContain("lazy-0");
    // An unknown command is answered by the entry too, as one line and exit 2.
    const unknown = await runCli(["sesions"], { cwd: ws.root, env: {} });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('mini-cursor: unknown command "sesions"; did you mean sessions?\n');
  });

  it("the CommonJS entry takes Node's built-ins as they are, without esbuild's copy of each into a new object", async () => {
    const entry = await readFile(path.resolve(import.meta.dirname, "../../../dist/cli/main.js"), "utf8");
    expect(entry).not.toMatch(/__toESM\(require\("node:/);
    expect(entry.match(/__builtin\(require\("node:fs"\)\)/g)?.length ?? 0).toBeGreaterThan(0);
  });

  it.each([[["--help"]], [["diff", "--help"]], [["undo", "--help"]], [["memory", "list", "--help"]], [["sessions", "--help"]]])(
    "%j prints help without loading LangChain or zod",
    async (args) => {
      const { code, stdout, modules } = await traced(args);
      expect(code).toBe(0);
      expect(stdout).toMatch(/Usage: mini-cursor|mini-cursor <command> --help/);
      expect(modules.some((m) => m.endsWith("/src/faces/cli/main.ts"))).toBe(true);
      expect(modules.filter((m) => LANGCHAIN.test(m) || ZOD.test(m))).toEqual([]);
    },
  );

  it("diff reads the session index without LangGraph", async () => {
    seedSessions(1);
    const { code, stdout, modules } = await traced(["diff", "--workspace", ws.root]);
    expect(code).toBe(0);
    expect(stdout).toContain("Session lazy-0 has no recorded changes.");
    expect(modules.some((m) => m.endsWith("/src/sessions/undo/session-target.ts"))).toBe(true);
    expect(modules.filter((m) => LANGCHAIN.test(m))).toEqual([]);
  });
});
