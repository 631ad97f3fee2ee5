import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { locksDir } from "../../src/sessions/paths.js";
import { SessionLock } from "../../src/sessions/session-lock.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { deadPid } from "../helpers/processes.js";
import { busyError } from "./busy-error.js";

// Locks held by real other processes, live and exited (session-lock.test.ts has the rest).
let ws: TempWorkspace;
const children: ChildProcess[] = [];

beforeEach(async () => {
  ws = await makeTempWorkspace();
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  await ws.cleanup();
});

function lockFile(sessionId: string): string {
  return path.join(locksDir(ws.root), `${sessionId}.lock`);
}

function writeLock(sessionId: string, content: string): void {
  fs.mkdirSync(locksDir(ws.root), { recursive: true });
  fs.writeFileSync(lockFile(sessionId), content);
}

/** A live process that is not this one. */
async function liveChild(): Promise<number> {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  if (child.pid === undefined) throw new Error("sleep has no pid");
  return child.pid;
}

describe("SessionLock", () => {
  it("refuses a session locked by another live process, naming it", async () => {
    const pid = await liveChild();
    writeLock("busy", String(pid));
    expect(SessionLock.isHeld(ws.root, "busy")).toBe(true);
    expect(SessionLock.owner(ws.root, "busy")).toBe(pid);

    const err = busyError(() => SessionLock.acquire(ws.root, "busy"));
    expect(err.message).toContain("busy");
    expect(err.message).toContain(String(pid));
    expect(err.message).toMatch(/already running/);
    // The other owner's lock is left alone.
    expect(fs.readFileSync(lockFile("busy"), "utf8")).toBe(String(pid));
  });

  it("takes over a stale lock whose process has exited", async () => {
    const pid = await deadPid();
    writeLock("stale", `${pid}\n`);
    expect(SessionLock.owner(ws.root, "stale")).toBe(pid);
    expect(SessionLock.isHeld(ws.root, "stale")).toBe(false);

    const lock = SessionLock.acquire(ws.root, "stale");
    expect(SessionLock.owner(ws.root, "stale")).toBe(process.pid);
    expect(SessionLock.isHeld(ws.root, "stale")).toBe(true);
    lock.release();
  });
});
