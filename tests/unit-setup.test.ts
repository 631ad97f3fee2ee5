import { exec, execFileSync, fork, spawn, spawnSync } from "node:child_process";
import childProcess from "node:child_process";
import { createServer } from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";

// The unit tier's setup file (tests/unit-setup.ts) must catch every way a file reaches a process or a server.
const guard = (globalThis as typeof globalThis & { miniCursorUnitGuard?: { refused: string[] } }).miniCursorUnitGuard;
let refused: string[] = [];
// These refusals are planted: take them before the setup file's own afterEach fails the test for them.
afterEach(() => {
  refused = guard?.refused.splice(0) ?? [];
});

describe("the unit tier starts no process", () => {
  it("is installed in this worker", () => {
    expect(guard).toBeDefined();
  });

  it("refuses spawns through ESM named imports", () => {
    expect(() => spawn("true")).toThrow(/unit tests start no process: child_process.spawn\("true"\)/);
    expect(() => spawnSync("true")).toThrow(/unit tests start no process/);
    expect(() => execFileSync("true")).toThrow(/unit tests start no process/);
    expect(() => exec("true")).toThrow(/unit tests start no process/);
    expect(() => fork("./nothing.js")).toThrow(/unit tests start no process/);
  });

  it("refuses spawns through the default export and a dynamic import", async () => {
    expect(() => childProcess.execSync("true")).toThrow(/unit tests start no process: child_process.execSync/);
    const dynamic = await import("node:child_process");
    expect(() => dynamic.execFile("true")).toThrow(/unit tests start no process: child_process.execFile/);
  });

  it("refuses a listening socket, HTTP or plain, and a signal to a process group", () => {
    expect(() => createServer().listen(0)).toThrow(/unit tests start no process: a server's listen/);
    expect(() => net.createServer().listen(0, "127.0.0.1")).toThrow(/unit tests start no process/);
    expect(() => process.kill(0, "SIGTERM")).toThrow(/unit tests start no process/);
  });

  it("remembers a refusal the code under test swallowed, so the test fails after all", () => {
    try {
      spawn("git", ["status"]);
    } catch {
      // What a tool does with a command that cannot start: report it and carry on.
    }
    expect(guard?.refused).toEqual([expect.stringContaining('child_process.spawn("git")')]);
  });

  it("left each earlier test's refusals for its afterEach", () => {
    expect(refused).toEqual([expect.stringContaining('child_process.spawn("git")')]);
  });
});
