/**
 * The two ways of starting a child process (directly, and through the launcher helper) behave alike on real
 * processes: output, input, extra pipes, exit status, signals, process groups, failures to start.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it, vi } from "vitest";
import { launchDirect } from "../../../src/platform/launcher/direct.js";
import { HelperLauncher } from "../../../src/platform/launcher/helper-client.js";
import { LaunchError, type LaunchOptions, type Launched } from "../../../src/platform/launcher/types.js";
import { isProcessAlive } from "../../../src/platform/process-alive.js";

const helper = HelperLauncher.start();
afterAll(() => helper?.stop());

type Launch = (file: string, args: readonly string[], options?: LaunchOptions) => Promise<Launched>;
const ways: [string, Launch][] = [
  ["direct", (file, args, options = {}) => launchDirect(file, args, options)],
  ["through the helper", (file, args, options = {}) => (helper as HelperLauncher).launch(file, args, options)],
];

function read(stream: Readable | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!stream) return reject(new Error("no stream"));
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}

function stat(pid: number): { ppid: number; pgid: number } {
  const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { ppid: Number(fields[1]), pgid: Number(fields[2]) };
}

it("the helper starts", () => {
  expect(helper?.usable).toBe(true);
});

describe.each(ways)("launching %s", (_name, launch) => {
  it("relays stdout and stderr and reports the exit code", async () => {
    const child = await launch("sh", ["-c", "echo out; echo err >&2; exit 3"]);
    const [out, err, closed] = await Promise.all([read(child.stdout), read(child.stderr), child.closed]);
    expect({ out, err, closed }).toEqual({ out: "out\n", err: "err\n", closed: { code: 3, signal: null } });
    expect(await child.exited).toEqual({ code: 3, signal: null });
  });

  it("writes the input to stdin and closes it; without input stdin is empty", async () => {
    const withInput = await launch("cat", [], { input: "hello\nworld" });
    expect(await read(withInput.stdout)).toBe("hello\nworld");
    const without = await launch("cat", []);
    expect(await read(without.stdout)).toBe("");
    expect((await without.closed).code).toBe(0);
  });

  it("opens extra output pipes on fds 3 and up", async () => {
    const child = await launch("sh", ["-c", "echo three >&3; echo four >&4; echo one"], { extraOutputs: 2 });
    const [one, three, four] = await Promise.all([read(child.outputs[1]), read(child.outputs[3]), read(child.outputs[4])]);
    expect({ one, three, four }).toEqual({ one: "one\n", three: "three\n", four: "four\n" });
  });

  it("runs in the given folder with exactly the given environment", async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mc-launch-")));
    try {
      const child = await launch("/bin/sh", ["-c", 'pwd; echo "$ONLY_THIS-${HOME:-unset}"'], { cwd: dir, env: { ONLY_THIS: "yes", PATH: "/usr/bin:/bin" } });
      expect(await read(child.stdout)).toBe(`${dir}\nyes-unset\n`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects with a LaunchError naming the errno when the program does not exist, or the folder", async () => {
    const missing = await launch("no-such-program-mc", []).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(LaunchError);
    expect((missing as LaunchError).code).toBe("ENOENT");
    const badCwd = await launch("true", [], { cwd: "/no/such/folder" }).catch((error: unknown) => error);
    expect((badCwd as LaunchError).code).toBe("ENOENT");
  });

  it("kills with the given signal, and a killed process reports it", async () => {
    const child = await launch("sleep", ["30"]);
    child.kill("SIGKILL");
    expect(await child.closed).toEqual({ code: null, signal: "SIGKILL" });
    child.kill("SIGKILL"); // once it has exited: nothing, no error
  });

  it("detached: the child leads its own process group", async () => {
    const child = await launch("sleep", ["30"], { detached: true });
    try {
      expect(stat(child.pid).pgid).toBe(child.pid);
    } finally {
      child.kill("SIGKILL");
      await child.closed;
    }
  });

  it("reports the exit while a background grandchild still holds the pipes; release closes them", async () => {
    const child = await launch("sh", ["-c", "sleep 30 & echo $!"], { detached: true });
    try {
      const exit = await Promise.race([child.exited, sleep(10_000).then(() => "timeout")]);
      expect(exit).toEqual({ code: 0, signal: null });
      const stillOpen = await Promise.race([child.closed.then(() => "closed"), sleep(300).then(() => "open")]);
      expect(stillOpen).toBe("open");
      child.release();
      expect(await Promise.race([child.closed.then(() => "closed"), sleep(10_000).then(() => "open")])).toBe("closed");
    } finally {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });

  it("sends stdout and stderr to a file when asked, leaving the streams empty", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-launch-out-"));
    try {
      const file = path.join(dir, "server.log");
      fs.writeFileSync(file, "old content that must go\n");
      const child = await launch("sh", ["-c", "echo to-out; echo to-err >&2"], { outputFile: file });
      expect(await read(child.stdout)).toBe("");
      expect((await child.closed).code).toBe(0);
      expect(fs.readFileSync(file, "utf8")).toBe("to-out\nto-err\n");
      const unwritable = await launch("true", [], { outputFile: path.join(dir, "no/such/dir/log") }).catch((e: unknown) => e);
      expect((unwritable as LaunchError).code).toBe("ENOENT");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("relays a large output intact", async () => {
    const child = await launch(process.execPath, ["-e", "for (let i = 0; i < 20000; i++) process.stdout.write(`line ${i} ${'x'.repeat(200)}\\n`)"]);
    const out = await read(child.stdout);
    let expected = "";
    for (let i = 0; i < 20000; i++) expected += `line ${i} ${"x".repeat(200)}\n`;
    expect(out.length).toBe(expected.length);
    expect(createHash("sha256").update(out).digest("hex")).toBe(createHash("sha256").update(expected).digest("hex"));
  });
});

describe("the helper", () => {
  it("is the parent of what it launches, not this process", async () => {
    const child = await (helper as HelperLauncher).launch("sleep", ["30"]);
    try {
      expect(stat(child.pid).ppid).toBe(helper?.pid);
      expect(helper?.pid).not.toBe(process.pid);
    } finally {
      child.kill("SIGKILL");
      await child.closed;
    }
  });

  it("runs without this process's NODE_OPTIONS and CA bundle, and passes both on to what it launches", async () => {
    vi.stubEnv("NODE_OPTIONS", "--no-deprecation");
    vi.stubEnv("NODE_EXTRA_CA_CERTS", "/etc/ssl/certs/ca-certificates.crt");
    let own: HelperLauncher | undefined;
    try {
      own = HelperLauncher.start() as HelperLauncher;
      const child = await own.launch("sh", ["-c", 'echo "$NODE_OPTIONS|$NODE_EXTRA_CA_CERTS"']);
      expect(await read(child.stdout)).toBe("--no-deprecation|/etc/ssl/certs/ca-certificates.crt\n");
      const environ = fs.readFileSync(`/proc/${own.pid}/environ`, "latin1").split("\0");
      expect(environ.filter((entry) => /^NODE_(OPTIONS|EXTRA_CA_CERTS)=/.test(entry))).toEqual([]);
    } finally {
      own?.stop();
      vi.unstubAllEnvs();
    }
  });

  it("holds back a child that prints faster than this process reads: its memory stays bounded", async () => {
    const own = HelperLauncher.start() as HelperLauncher;
    try {
      const child = await own.launch("head", ["-c", "100000000", "/dev/zero"]);
      // This process is busy for a while (a long synchronous step): the helper must not queue all 100 MB meanwhile.
      const until = Date.now() + 1_500;
      while (Date.now() < until) {
        // busy
      }
      let bytes = 0;
      child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length));
      expect((await child.closed).code).toBe(0);
      expect(bytes).toBe(100_000_000);
      const peakKb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${own.pid}/status`, "utf8"))?.[1]);
      expect(peakKb).toBeLessThan(120 * 1024);
    } finally {
      own.stop();
    }
  });

  it("when killed: launches still running end once their process is gone, new ones are refused", async () => {
    const own = HelperLauncher.start() as HelperLauncher;
    const child = await own.launch("sleep", ["30"]);
    own.stop();
    for (let i = 0; i < 100 && own.usable; i++) await sleep(20);
    expect(own.usable).toBe(false);
    await expect(own.launch("true", [])).rejects.toBeInstanceOf(LaunchError);
    process.kill(child.pid, "SIGKILL");
    expect(await Promise.race([child.closed, sleep(10_000).then(() => "timeout")])).toEqual({ code: null, signal: null });
    expect(isProcessAlive(child.pid)).toBe(false);
  });
});
