import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireStartLock } from "../../../src/memory/chroma/start-lock.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mini-cursor-chroma-lock-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshLock = (): string => path.join(dir, `lock-${++counter}`);

describe("acquireStartLock", () => {
  it("takes over a lock whose holder is dead", async () => {
    const lockFile = freshLock();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    fs.writeFileSync(lockFile, `${dead}:old`);
    const release = await acquireStartLock(lockFile, 1_000);
    release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});
