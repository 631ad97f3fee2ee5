/**
 * The helper never outlives or holds up the process that started it: a CLI exits when its work is done, and a
 * killed CLI leaves no helper behind.
 */
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isProcessAlive } from "../../../src/platform/process-alive.js";

const SCRIPT = `
import { launch, launcherHelperPid, startLauncher } from "./src/platform/launcher/index.ts";
startLauncher();
const child = await launch("sh", ["-c", "echo relayed"]);
let out = "";
child.stdout.on("data", (d) => (out += d));
await child.closed;
console.log(JSON.stringify({ out, helper: launcherHelperPid(), self: process.pid }));
if (process.argv.includes("--hang")) setInterval(() => undefined, 1000);
`;

function runScript(...extra: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT, "--", ...extra], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const firstLine = async (): Promise<{ out: string; helper: number; self: number }> => {
    for (let i = 0; i < 300 && !out.includes("\n"); i++) await sleep(50);
    return JSON.parse(out.split("\n")[0] ?? "") as { out: string; helper: number; self: number };
  };
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, firstLine, exit, output: () => out };
}

describe("the launcher helper's lifetime", () => {
  it("does not keep a finished process alive, and ends with it", async () => {
    const run = runScript();
    const code = await Promise.race([run.exit, sleep(20_000).then(() => "still running")]);
    expect(code, run.output()).toBe(0);
    const line = await run.firstLine();
    expect(line.out).toBe("relayed\n");
    expect(line.helper).toBeGreaterThan(0);
    expect(line.helper).not.toBe(line.self);
    for (let i = 0; i < 100 && isProcessAlive(line.helper); i++) await sleep(50);
    expect(isProcessAlive(line.helper)).toBe(false);
  });

  it("lets the process exit while a background child (a server) goes on running", async () => {
    for (const way of ["helper", "direct"]) {
      const script = `
import { launch, startLauncher } from "./src/platform/launcher/index.ts";
import { launchDirect } from "./src/platform/launcher/direct.ts";
startLauncher();
const start = ${way === "helper" ? "launch" : "launchDirect"};
const child = await start("sleep", ["30"], { detached: true, background: true });
console.log(child.pid);
`;
      const run = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      run.stdout.on("data", (d: Buffer) => (out += d.toString()));
      run.stderr.on("data", (d: Buffer) => (out += d.toString()));
      const code = await Promise.race([new Promise<number | null>((resolve) => run.on("exit", resolve)), sleep(20_000).then(() => "still running")]);
      const pid = Number(out.trim().split("\n")[0]);
      try {
        expect(code, `${way}: ${out}`).toBe(0);
        expect(isProcessAlive(pid)).toBe(true);
      } finally {
        if (pid > 0) process.kill(pid, "SIGKILL");
      }
    }
  });

  it("exits when its parent is killed outright", async () => {
    const run = runScript("--hang");
    const line = await run.firstLine();
    expect(isProcessAlive(line.helper)).toBe(true);
    run.child.kill("SIGKILL");
    await run.exit;
    for (let i = 0; i < 100 && isProcessAlive(line.helper); i++) await sleep(50);
    expect(isProcessAlive(line.helper)).toBe(false);
  });

  it("ignores a Ctrl-C sent to the whole process group: the parent decides", async () => {
    const run = runScript("--hang");
    const line = await run.firstLine();
    process.kill(line.helper, "SIGINT");
    await sleep(300);
    expect(isProcessAlive(line.helper)).toBe(true);
    run.child.kill("SIGKILL");
    await run.exit;
  });
});
