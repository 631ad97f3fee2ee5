import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileLock, takeoverMarker } from "../../src/platform/file-lock.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { deadPid } from "../helpers/processes.js";

let dir: TempWorkspace;
let file: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await makeTempWorkspace();
  file = path.join(dir.root, "locks", "x.lock");
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await dir.cleanup();
});

async function liveOtherPid(): Promise<number> {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(child);
  await new Promise<void>((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  return child.pid ?? -1;
}

function plant(target: string, content: string, ageMs = 0): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(target, then, then);
  }
}

function leftovers(): string[] {
  return fs.readdirSync(path.dirname(file)).filter((name) => name !== path.basename(file));
}

describe("FileLock", () => {
  it("is created whole with this pid and a token, and released only by its holder", () => {
    const first = FileLock.tryAcquire(file);
    expect(first.lock).not.toBeNull();
    expect(fs.readFileSync(file, "utf8")).toMatch(new RegExp(`^${process.pid}:[0-9a-z]+-[0-9a-z]+-[0-9a-z]+$`));
    expect(FileLock.owner(file)).toBe(process.pid);
    expect(FileLock.isHeld(file)).toBe(true);
    // Held by a live process (this one too): the second attempt fails at once.
    expect(FileLock.tryAcquire(file)).toEqual({ lock: null, holder: process.pid });
    first.lock?.release();
    expect(fs.existsSync(file)).toBe(false);
    first.lock?.release();

    const second = FileLock.tryAcquire(file).lock;
    fs.writeFileSync(file, `${process.pid}:someone-else`);
    second?.release();
    expect(fs.readFileSync(file, "utf8")).toBe(`${process.pid}:someone-else`);
    expect(leftovers()).toEqual([]);
  });

  it("names a live holder and leaves its lock alone", async () => {
    const pid = await liveOtherPid();
    plant(file, String(pid));
    expect(FileLock.tryAcquire(file)).toEqual({ lock: null, holder: pid });
    expect(fs.readFileSync(file, "utf8")).toBe(String(pid));
  });

  it("takes over a lock whose process is gone, clearing up first, and leaves no marker behind", async () => {
    const dead = await deadPid();
    plant(file, `${dead}:old`);
    const stale: (number | null)[] = [];
    const { lock } = FileLock.tryAcquire(file, { onStale: (pid) => stale.push(pid) });
    expect(lock).not.toBeNull();
    expect(stale).toEqual([dead]);
    expect(FileLock.owner(file)).toBe(process.pid);
    expect(leftovers()).toEqual([]);
    lock?.release();
  });

  it("treats a lock without a pid as being written until the grace time has passed", () => {
    plant(file, "");
    expect(FileLock.tryAcquire(file)).toEqual({ lock: null, holder: null });
    plant(file, "not a pid", 10_000);
    const { lock } = FileLock.tryAcquire(file, { graceMs: 5_000 });
    expect(lock).not.toBeNull();
    lock?.release();
  });

  it("leaves a stale lock to the live process that is taking it over", async () => {
    plant(file, String(await deadPid()));
    const marker = takeoverMarker(file) ?? "";
    plant(marker, `${await liveOtherPid()}:breaking`);
    expect(FileLock.tryAcquire(file)).toEqual({ lock: null, holder: null });
    expect(fs.existsSync(file)).toBe(true);
  });

  it("breaks the marker of a taker that died, then the stale lock", async () => {
    plant(file, String(await deadPid()));
    const marker = takeoverMarker(file) ?? "";
    plant(marker, `${await deadPid()}:breaking`);
    const { lock } = FileLock.tryAcquire(file);
    expect(lock).not.toBeNull();
    expect(leftovers()).toEqual([]);
    lock?.release();
  });

  it("waits for a holder that releases, and reports the holder when the wait runs out", async () => {
    const pid = await liveOtherPid();
    plant(file, String(pid));
    expect(await FileLock.acquire(file, { waitMs: 50 })).toEqual({ lock: null, holder: pid });
    const waiting = FileLock.acquire(file, { waitMs: 30_000 });
    fs.rmSync(file);
    const { lock } = await waiting;
    expect(lock).not.toBeNull();
    lock?.release();
  });

  it("is removed when its process exits, even through process.exit", () => {
    const module = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/platform/file-lock.ts");
    const script = `import { FileLock } from ${JSON.stringify(module)}; FileLock.tryAcquire(${JSON.stringify(file)}); process.stdout.write(String(FileLock.isHeld(${JSON.stringify(file)}))); process.exit(130);`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(child.stdout).toBe("true");
    expect(child.status).toBe(130);
    expect(fs.existsSync(file)).toBe(false);
  }, 120_000);
});
