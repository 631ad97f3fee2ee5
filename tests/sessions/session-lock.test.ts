import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { locksDir } from "../../src/sessions/paths.js";
import { SessionBusyError, SessionLock } from "../../src/sessions/session-lock.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { busyError } from "./busy-error.js";

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await makeTempWorkspace();
});

afterEach(async () => {
  await ws.cleanup();
});

function lockFile(sessionId: string): string {
  return path.join(locksDir(ws.root), `${sessionId}.lock`);
}

function writeLock(sessionId: string, content: string): void {
  fs.mkdirSync(locksDir(ws.root), { recursive: true });
  fs.writeFileSync(lockFile(sessionId), content);
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
