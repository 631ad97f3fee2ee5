import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { locksDir } from "../../src/sessions/paths.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";
import { deadPid } from "../helpers/processes.js";

const CONTENDER = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "lock-contender.ts");

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

function contender(args: string[]): ChildProcess {
  // Quiet: taking over a stale lock logs a warning each time.
  const env = { ...process.env, MINI_CURSOR_LOG_LEVEL: "error" };
  const child = spawn(process.execPath, ["--import", "tsx", CONTENDER, ...args], { stdio: ["pipe", "pipe", "inherit"], env });
  children.push(child);
  return child;
}

/** The child's stdout, one line at a time, each awaited in turn. */
function lines(child: ChildProcess): () => Promise<string> {
  const iterator = readline.createInterface({ input: child.stdout ?? process.stdin })[Symbol.asyncIterator]();
  return async () => {
    const next = await iterator.next();
    if (next.done) throw new Error(`contender ${child.pid} ended early`);
    return next.value;
  };
}

function exitSignal(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
}

/** Replays the enter/exit log: the holders in order; throws at the first overlap. */
function holders(logFile: string): number[] {
  let holder: number | null = null;
  const order: number[] = [];
  for (const line of fs.readFileSync(logFile, "utf8").split("\n").filter(Boolean)) {
    const [event, pidText] = line.split(" ");
    const pid = Number(pidText);
    if (event === "enter") {
      if (holder !== null) throw new Error(`process ${pid} entered while process ${holder} held the lock`);
      holder = pid;
      order.push(pid);
    } else {
      if (holder !== pid) throw new Error(`process ${pid} left a lock held by ${holder}`);
      holder = null;
    }
  }
  return order;
}

/** The lock file as a process killed by SIGKILL leaves it: naming a pid that is gone. */
async function plantStaleLock(lockFile: string): Promise<void> {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  fs.writeFileSync(lockFile, String(await deadPid()));
}

async function startContenders(args: string[]): Promise<{ child: ChildProcess; next: () => Promise<string> }[]> {
  const all = Array.from({ length: 8 }, () => contender(args));
  const racers = all.map((child) => ({ child, next: lines(child) }));
  for (const { next } of racers) expect(await next()).toBe("ready");
  return racers;
}

// Each test starts eight processes through tsx and runs many rounds: a loaded two-core machine needs the time.
describe("one holder at a time, across processes", () => {
  it("the session lock: many processes racing over a stale lock, exactly one wins each round", async () => {
    const sessionId = "raced";
    const logFile = path.join(ws.root, "holders.log");
    const lockFile = path.join(locksDir(ws.root), `${sessionId}.lock`);
    const racers = await startContenders(["session", ws.root, sessionId, logFile]);

    for (let round = 0; round < 20; round++) {
      await plantStaleLock(lockFile);
      for (const { child } of racers) child.stdin?.write("try\n");
      const answers = await Promise.all(racers.map(({ next }) => next()));
      expect(
        answers.filter((a) => a === "won"),
        `round ${round}: ${answers.join(" ")}`,
      ).toHaveLength(1);
      const winner = racers[answers.indexOf("won")];
      winner?.child.stdin?.write("release\n");
      expect(await winner?.next()).toBe("released");
      expect(fs.existsSync(lockFile)).toBe(false);
    }
    expect(holders(logFile)).toHaveLength(20);
  }, 240_000);

  it.each([
    ["undo store", "store"],
    ["Chroma start", "start"],
  ])(
    "the %s lock: waiting processes racing over stale locks, some dying while they hold it, never overlap",
    async (_name, kind) => {
      const logFile = path.join(ws.root, "holders.log");
      const target = kind === "store" ? path.join(ws.root, "store") : path.join(ws.root, "chroma-server.lock");
      const lockFile = kind === "store" ? path.join(target, "mini-cursor.lock") : target;
      const racers = await startContenders([kind, target, logFile]);

      let expected = 0;
      for (let round = 0; round < 10; round++) {
        await plantStaleLock(lockFile);
        // In the first rounds one of them dies (SIGKILL) holding the lock; the others must take it over.
        const crasher = round < 3 ? racers.shift() : undefined;
        crasher?.child.stdin?.write("crash\n");
        for (const { child } of racers) child.stdin?.write("go\n");
        const answers = await Promise.all(racers.map(({ next }) => next()));
        expect(answers.every((a) => a === "done")).toBe(true);
        if (crasher) expect(await exitSignal(crasher.child)).toBe("SIGKILL");
        expected += racers.length + (crasher ? 1 : 0);
        // The last holder released the lock, unless it was the one that died (the next round takes that over).
        if (!crasher || holders(logFile).at(-1) !== crasher.child.pid) expect(fs.existsSync(lockFile)).toBe(false);
      }
      expect(holders(logFile)).toHaveLength(expected);
    },
    240_000,
  );
});
