import { afterEach, beforeAll, beforeEach } from "vitest";
import { randomUUID } from "node:crypto";
import { promises as fs, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { probeSandbox } from "../../../src/safety/sandbox/probe.js";
import type { CommandSandbox, SandboxStatus } from "../../../src/safety/sandbox/types.js";
import { createExecuteCommandTool } from "../../../src/tools/execute-command.js";
import { callTool, type CallResult } from "../../tools/helpers.js";

/** A command that fetches `target` with the Node that runs the tests (always installed, unlike curl): prints "BODY:…" or exits 7 with "FETCH FAILED: <code>". */
export function fetchCommand(target: string): string {
  const script = `fetch(${JSON.stringify(target)}).then((r) => r.text()).then((t) => console.log("BODY:" + t), (e) => { console.log("FETCH FAILED: " + (e.cause?.code ?? e.message)); process.exit(7); })`;
  return `"${process.execPath}" -e '${script}'`;
}

/**
 * The sandbox tests run real commands in the real bubblewrap sandbox. CI installs bubblewrap, so an unusable
 * sandbox is a failure, never a skip.
 */
export async function requireBubblewrap(): Promise<SandboxStatus> {
  const status = await probeSandbox();
  if (status.kind !== "bubblewrap") {
    throw new Error(`bubblewrap is not usable here, so the sandbox cannot be tested: ${status.reason}`);
  }
  return status;
}

/**
 * A workspace with an `outside` sibling and a fake `home`, all under the real home folder rather than /tmp:
 * the sandbox gives commands a private /tmp, so a sibling there would be unreachable for the wrong reason.
 * Here `outside` is visible to commands (read-only), which is what the escape tests need.
 */
export interface SandboxWorkspace {
  base: string;
  root: string;
  outside: string;
  home: string;
  /** Put into every command's environment, to find any process a command leaves behind. */
  token: string;
  cleanup: () => Promise<void>;
}

export async function makeSandboxWorkspace(): Promise<SandboxWorkspace> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.homedir(), ".mini-cursor-sandbox-test-")));
  const root = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  const home = path.join(base, "home");
  for (const dir of [root, outside, home]) await fs.mkdir(dir);
  await fs.writeFile(path.join(outside, "secret.txt"), "TOP SECRET\n");
  const token = `sandbox-test-${randomUUID()}`;
  return { base, root, outside, home, token, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

/**
 * The usual setup of a sandbox test file: bubblewrap must work (fail loudly otherwise), and every test gets a
 * fresh workspace that is removed afterwards. Returns the current test's workspace.
 */
export function useSandboxWorkspace(): () => SandboxWorkspace {
  let ws: SandboxWorkspace | undefined;
  beforeAll(async () => {
    await requireBubblewrap();
  });
  beforeEach(async () => {
    ws = await makeSandboxWorkspace();
  });
  afterEach(async () => {
    await ws?.cleanup();
    ws = undefined;
  });
  return () => {
    if (!ws) throw new Error("no sandbox workspace outside a test");
    return ws;
  };
}

export type BubblewrapSandbox = Extract<CommandSandbox, { kind: "bubblewrap" }>;

/** Runs `command` through the execute_command tool in the bubblewrap sandbox (no network unless overridden). */
export async function runSandboxed(ws: SandboxWorkspace, command: string, overrides: Partial<BubblewrapSandbox> = {}): Promise<CallResult> {
  const sandbox: BubblewrapSandbox = { kind: "bubblewrap", allowNetwork: false, home: ws.home, ...overrides };
  const tool = createExecuteCommandTool({ root: ws.root, sandbox }, { parentEnv: { ...process.env, SANDBOX_TEST_TOKEN: ws.token } });
  return callTool(tool, { command, timeoutSeconds: 60 });
}

/** Host processes whose environment carries `token` (from any pid namespace: /proc here shows them all). */
export function processesWithToken(token: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(`SANDBOX_TEST_TOKEN=${token}`)) found.push(Number(name));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

/** Host processes whose command line contains `text`. */
export function processesWithCommandLine(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "latin1").split("\0").join(" ").includes(text)) found.push(Number(name));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

export async function readIfExists(file: string): Promise<string | undefined> {
  return fs.readFile(file, "utf8").catch(() => undefined);
}
