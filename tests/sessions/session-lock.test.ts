import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { locksDir } from "../../src/sessions/paths.js";
import { SessionBusyError, SessionLock } from "../../src/sessions/session-lock.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { deadPid } from "../helpers/processes.js";

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

function busyError(fn: () => unknown): SessionBusyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SessionBusyError);
    return error as SessionBusyError;
  }
  throw new Error("expected a SessionBusyError");
}

describe("SessionLock", () => {
  it("acquires a lock holding this pid and releases it", () => {
    expect(SessionLock.isHeld(ws.root, "s1")).toBe(false);
    expect(SessionLock.owner(ws.root, "s1")).toBeNull();

    const lock = SessionLock.acquire(ws.root, "s1");
    expect(fs.readFileSync(lockFile("s1"), "utf8")).toMatch(new RegExp(`^${process.pid}:`));
    expect(SessionLock.owner(ws.root, "s1")).toBe(process.pid);
    expect(SessionLock.isHeld(ws.root, "s1")).toBe(true);

    lock.release();
    expect(fs.existsSync(lockFile("s1"))).toBe(false);
    expect(SessionLock.owner(ws.root, "s1")).toBeNull();
    expect(SessionLock.isHeld(ws.root, "s1")).toBe(false);
    lock.release(); // twice is harmless
  });

  it("refuses a second acquire of a held session in the same process", () => {
    const lock = SessionLock.acquire(ws.root, "s1");
    expect(() => SessionLock.acquire(ws.root, "s1")).toThrow(SessionBusyError);
    expect(SessionLock.isHeld(ws.root, "s1")).toBe(true);
    lock.release();
  });

  it("locks sessions independently", () => {
    const a = SessionLock.acquire(ws.root, "a");
    const b = SessionLock.acquire(ws.root, "b");
    a.release();
    expect(SessionLock.isHeld(ws.root, "a")).toBe(false);
    expect(SessionLock.isHeld(ws.root, "b")).toBe(true);
    b.release();
  });

  it("can be acquired again after release", () => {
    SessionLock.acquire(ws.root, "s1").release();
    const again = SessionLock.acquire(ws.root, "s1");
    expect(SessionLock.owner(ws.root, "s1")).toBe(process.pid);
    again.release();
  });

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

  it("treats a freshly created empty lock file as being started by someone else", () => {
    writeLock("starting", "");
    expect(SessionLock.owner(ws.root, "starting")).toBeNull();
    const err = busyError(() => SessionLock.acquire(ws.root, "starting"));
    expect(err.message).toContain("starting");
  });

  it("takes over an old lock file with garbage in it", () => {
    writeLock("junk", "not a pid");
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockFile("junk"), old, old);
    expect(SessionLock.owner(ws.root, "junk")).toBeNull();
    const lock = SessionLock.acquire(ws.root, "junk");
    expect(SessionLock.owner(ws.root, "junk")).toBe(process.pid);
    lock.release();
  });
});
