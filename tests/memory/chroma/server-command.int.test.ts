import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ensureChromaServer } from "../../../src/memory/chroma/server.js";
import { chromaServerCommand, isChromaServerCommand } from "../../../src/memory/chroma/server-command.js";
import { makeTempWorkspace } from "../../helpers/temp-workspace.js";

describe("the local Chroma server's command line", () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  it("runs chromadb's platform binding directly, not its CLI (which imports the whole client first)", () => {
    const { args, stopsWhenIdle } = chromaServerCommand();
    expect(stopsWhenIdle).toBe(false);
    expect(args[3]).toBe("null");
    expect(chromaServerCommand({ dataDir: "/d", idleMs: 5_000 }).stopsWhenIdle).toBe(true);
    // No idle time: still watched (for sessions that were killed), but its last session stops it.
    const watched = chromaServerCommand({ dataDir: "/d", idleMs: 0 });
    expect(watched.stopsWhenIdle).toBe(false);
    expect(JSON.parse(watched.args[3] ?? "null")).toMatchObject({ dataDir: "/d", idleMs: 0 });
    expect(args[0]).toBe("-e");
    expect(args[2]).toMatch(/chromadb-js-bindings-linux-x64-gnu/);
    expect(fs.existsSync(args[2] ?? "")).toBe(true);
    expect(args.join(" ")).not.toMatch(/cli\.mjs/);
  });

  it("starts a server that answers, whose /proc command line is recognised as ours", async () => {
    const temp = await makeTempWorkspace();
    stops.push(temp.cleanup);
    const dataDir = temp.root;
    const endpoint = await ensureChromaServer({ dataDir });
    stops.unshift(() => endpoint.stop());
    const state = JSON.parse(fs.readFileSync(`${dataDir}/chroma-server.json`, "utf8")) as { pid: number };
    const cmdline = fs.readFileSync(`/proc/${state.pid}/cmdline`, "utf8");
    expect(cmdline).toContain(`run\0--path\0${dataDir}/chroma`);
    expect(isChromaServerCommand(cmdline)).toBe(true);
    const beat = await fetch(`${endpoint.url}/api/v2/heartbeat`);
    expect(beat.ok).toBe(true);
  });

  it("does not take an unrelated process for a Chroma server", () => {
    expect(isChromaServerCommand(fs.readFileSync("/proc/self/cmdline", "utf8"))).toBe(false);
    expect(isChromaServerCommand("node\0-e\0/* mini-cursor-chroma-server */ ...\0")).toBe(true);
  });
});
