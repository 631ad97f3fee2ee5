import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryDataDir as defaultDataDir } from "../../../src/platform/config/index.js";
import { acquireStartLock } from "../../../src/memory/chroma/start-lock.js";
import { readServerState, removeServerStateIfOwned, serverPaths, writeServerState } from "../../../src/memory/chroma/state-file.js";
import { ChromaUnavailableError } from "../../../src/memory/chroma/types.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mini-cursor-chroma-lock-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshLock = (): string => path.join(dir, `lock-${++counter}`);

describe("acquireStartLock", () => {
  it("creates the lock and release removes only its own lock", async () => {
    const lockFile = freshLock();
    const release = await acquireStartLock(lockFile, 1_000);
    expect(fs.readFileSync(lockFile, "utf8")).toMatch(new RegExp(`^${process.pid}:`));
    fs.writeFileSync(lockFile, `${process.pid}:someone-else`);
    release();
    expect(fs.existsSync(lockFile)).toBe(true);
  });

  it("gives up on a live holder with an error naming it", async () => {
    const lockFile = freshLock();
    fs.writeFileSync(lockFile, `${process.pid}:other-call`);
    const error = await acquireStartLock(lockFile, 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromaUnavailableError);
    expect((error as Error).message).toContain(`process ${process.pid} has been starting Chroma`);
  });

  it("does not break a fresh lock that has no pid yet", async () => {
    const lockFile = freshLock();
    fs.writeFileSync(lockFile, "");
    await expect(acquireStartLock(lockFile, 100)).rejects.toThrow(/another process has been starting Chroma/);
  });
});

describe("state file", () => {
  it("reads what it wrote, ignores torn files, and removes only a state naming the given pid", () => {
    const dataDir = fs.mkdtempSync(path.join(dir, "data-"));
    writeServerState(dataDir, { pid: 123, port: 4567, startedAt: 89 });
    expect(readServerState(dataDir)).toEqual({ pid: 123, port: 4567, startedAt: 89 });
    removeServerStateIfOwned(dataDir, 999);
    expect(readServerState(dataDir)).not.toBeNull();
    removeServerStateIfOwned(dataDir, 123);
    expect(fs.existsSync(serverPaths(dataDir).stateFile)).toBe(false);
    fs.writeFileSync(serverPaths(dataDir).stateFile, '{"pid": 12');
    expect(readServerState(dataDir)).toBeNull();
  });
});

describe("memoryDataDir", () => {
  it("prefers MINI_CURSOR_DATA_DIR, then an absolute XDG_DATA_HOME, then ~/.local/share", () => {
    expect(defaultDataDir({ MINI_CURSOR_DATA_DIR: "/m", XDG_DATA_HOME: "/x", HOME: "/h" })).toBe("/m");
    expect(defaultDataDir({ XDG_DATA_HOME: "/x", HOME: "/h" })).toBe("/x/mini-cursor");
    expect(defaultDataDir({ XDG_DATA_HOME: "relative", HOME: "/h" })).toBe("/h/.local/share/mini-cursor");
    expect(defaultDataDir({ MINI_CURSOR_DATA_DIR: "", HOME: "/h" })).toBe("/h/.local/share/mini-cursor");
  });
});
