import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/runtime/clock.js";
import { openSessionDatabase } from "../../src/sessions/database.js";
import { moduleTrace } from "../helpers/module-trace.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";
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
    expect(modules.some((m) => m.endsWith("/src/cli/commands/sessions.ts"))).toBe(true);
    expect(modules.filter((m) => LANGCHAIN.test(m) || ZOD.test(m))).toEqual([]);
  });

  it.each([[["--help"]], [["diff", "--help"]], [["undo", "--help"]], [["memory", "list", "--help"]], [["sessions", "--help"]]])(
    "%j prints help without loading LangChain or zod",
    async (args) => {
      const { code, stdout, modules } = await traced(args);
      expect(code).toBe(0);
      expect(stdout).toMatch(/Usage: mini-cursor|mini-cursor <command> --help/);
      expect(modules.some((m) => m.endsWith("/src/cli/main.ts"))).toBe(true);
      expect(modules.filter((m) => LANGCHAIN.test(m) || ZOD.test(m))).toEqual([]);
    },
  );

  it("diff reads the session index without LangGraph", async () => {
    seedSessions(1);
    const { code, stdout, modules } = await traced(["diff", "--workspace", ws.root]);
    expect(code).toBe(0);
    expect(stdout).toContain("Session lazy-0 has no recorded changes.");
    expect(modules.some((m) => m.endsWith("/src/undo/session-target.ts"))).toBe(true);
    expect(modules.filter((m) => LANGCHAIN.test(m))).toEqual([]);
  });
});
