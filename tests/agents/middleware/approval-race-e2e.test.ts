import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness, text, toolMessages } from "../agent-harness.js";
import { BackgroundProcesses } from "../../../src/services/processes/background-processes.js";

/**
 * Issue 37's race, as the red-team ran it: a real process swaps a plain folder and a symlink into .git/hooks with
 * renameat2(RENAME_EXCHANGE) as fast as it can while the coder writes through that name under `--approval auto`, and
 * the person rejects every write that is asked about. No write may land in .git/hooks (none was approved), and no
 * rejected write may land anywhere.
 */
const SWAPPER = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
print("ready", flush=True)
while True:
    libc.renameat2(-100, a, -100, b, 2)  # AT_FDCWD, RENAME_EXCHANGE
`;

const ws = useTempWorkspace({ ".git/config": "[core]\n", ".git/hooks/README": "hooks\n" });
let swapper: ChildProcess | undefined;
let processes: BackgroundProcesses | undefined;
afterEach(async () => {
  await stopSwapper();
  swapper = undefined;
  await processes?.stopAll();
  processes = undefined;
});

/** Stops the swapper and waits until it is gone: the names must hold still while the test reads them. */
async function stopSwapper(): Promise<void> {
  const child = swapper;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

async function startSwapper(a: string, b: string): Promise<void> {
  const child = spawn("python3", ["-c", SWAPPER, a, b], { cwd: ws.root, stdio: ["ignore", "pipe", "inherit"] });
  swapper = child;
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.stdout?.once("data", () => resolve());
  });
}

const coder = AGENT_SPECS.coder;
const RUNS = 50;
const WRITES_PER_RUN = 5;

describe("approvals under a concurrent folder swapper", () => {
  it(`lets no write into .git/hooks through and none after a rejection (${RUNS * WRITES_PER_RUN} writes)`, async () => {
    await fs.mkdir(path.join(ws.root, "hk"));
    await fs.symlink(".git/hooks", path.join(ws.root, "hk-alt"));
    await startSwapper("hk", "hk-alt");
    const rejected = new Set<string>();
    const outcomes = { asked: 0, written: 0, refused: 0 };
    for (let run = 0; run < RUNS; run += 1) {
      const names = Array.from({ length: WRITES_PER_RUN }, (_, j) => `pre-commit-${run}-${j}`);
      const replies = names.map((name) => calls({ name: "write_file", args: { path: `hk/${name}`, content: "#!/bin/sh\necho pwned\n" } }));
      const models = scriptedModels({ coder: [...replies, calls({ name: "submit_work", args: { status: "done", summary: "ok" } })] });
      const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" }, maxModelCalls: WRITES_PER_RUN + 2 });
      let result = await h.start();
      for (let value = result.__interrupt__?.[0]?.value; value !== undefined; value = result.__interrupt__?.[0]?.value) {
        outcomes.asked += 1;
        rejected.add(path.basename((value as { subject: string }).subject));
        result = await h.resume({ decision: "reject", reason: "not in hooks" });
      }
      for (const message of toolMessages(result.messages)) {
        if (message.name !== "write_file") continue;
        if (message.status === "error") outcomes.refused += 1;
        else if (text(message).startsWith("Created")) outcomes.written += 1;
      }
    }
    await stopSwapper();
    expect((await fs.readdir(path.join(ws.root, ".git/hooks"))).sort()).toEqual(["README"]);
    const plain = (await fs.lstat(path.join(ws.root, "hk"))).isDirectory() ? "hk" : "hk-alt";
    const landed = await fs.readdir(path.join(ws.root, plain));
    expect(landed.filter((name) => rejected.has(name))).toEqual([]);
    // The race really ran both ways: some writes were asked about (judged through the symlink), some landed.
    expect(outcomes.asked).toBeGreaterThan(0);
    expect(outcomes.written).toBeGreaterThan(0);
    expect(landed).toHaveLength(outcomes.written);
  });

  it("lets no write into .git/hooks through when the coder starts the swapper itself in the sandbox (start_process)", async () => {
    await fs.mkdir(path.join(ws.root, "hk"));
    await fs.symlink(".git/hooks", path.join(ws.root, "hk-alt"));
    await fs.writeFile(path.join(ws.root, "swap.py"), SWAPPER);
    processes = new BackgroundProcesses();
    const deps = { tools: { sandbox: { kind: "bubblewrap" as const, allowNetwork: false }, processes } };
    // The coder's first run starts the swapper in the sandbox; it keeps running for the runs after it (one session).
    const starter = scriptedModels({
      coder: [
        calls({ name: "start_process", args: { command: "python3 swap.py hk hk-alt", name: "swapper" } }),
        calls({ name: "wait_for_process", args: { process: "swapper", pattern: "ready", timeoutSeconds: 20 } }),
        calls({ name: "submit_work", args: { status: "done", summary: "started" } }),
      ],
    });
    const first = await agentHarness(coder, starter, { workspace: ws.root, safety: { approval: "auto" }, deps }).start();
    expect(text(toolMessages(first.messages).find((m) => m.name === "start_process"))).toContain("Started in the background");
    const rejected = new Set<string>();
    const outcomes = { written: 0, refused: 0 };
    for (let run = 0; run < 20; run += 1) {
      const names = Array.from({ length: WRITES_PER_RUN }, (_, j) => `pre-push-${run}-${j}`);
      const replies = names.map((name) => calls({ name: "write_file", args: { path: `hk/${name}`, content: "#!/bin/sh\necho pwned\n" } }));
      const models = scriptedModels({ coder: [...replies, calls({ name: "submit_work", args: { status: "done", summary: "ok" } })] });
      const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" }, maxModelCalls: WRITES_PER_RUN + 2, deps });
      let result = await h.start();
      for (let value = result.__interrupt__?.[0]?.value; value !== undefined; value = result.__interrupt__?.[0]?.value) {
        rejected.add(path.basename((value as { subject: string }).subject));
        result = await h.resume({ decision: "reject", reason: "not in hooks" });
      }
      for (const message of toolMessages(result.messages).filter((m) => m.name === "write_file")) {
        if (message.status === "error") outcomes.refused += 1;
        else outcomes.written += 1;
      }
    }
    expect((await fs.readdir(path.join(ws.root, ".git/hooks"))).sort()).toEqual(["README"]);
    await processes.stopAll();
    const plain = (await fs.lstat(path.join(ws.root, "hk"))).isDirectory() ? "hk" : "hk-alt";
    expect((await fs.readdir(path.join(ws.root, plain))).filter((name) => rejected.has(name))).toEqual([]);
    // The writes raced both ways: some landed, some were refused or asked about.
    expect(outcomes.written).toBeGreaterThan(0);
    expect(outcomes.refused + rejected.size).toBeGreaterThan(0);
  });
});
