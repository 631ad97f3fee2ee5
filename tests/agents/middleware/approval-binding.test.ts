import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import type { ProgressEvent } from "../../../src/core/index.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness, runToEnd, text, toolMessages } from "../agent-harness.js";

/**
 * Issue 37: one decision per tool call, bound to the call and checked on what actually lands. The swaps here happen
 * at fixed points (while the person reads the prompt, or between the decision and the write); the race test with a
 * real concurrent swapper is tests/agents/middleware/approval-race-e2e.test.ts.
 */
const ws = useTempWorkspace({ ".git/config": "[core]\n", ".git/hooks/README": "hooks\n", "src/a.ts": "a\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });
const hook = "#!/bin/sh\necho pwned\n";

async function linkHooks(): Promise<void> {
  await fs.rm(path.join(ws.root, "hk"), { recursive: true, force: true });
  await fs.symlink(".git/hooks", path.join(ws.root, "hk"));
}

async function plainFolder(): Promise<void> {
  await fs.rm(path.join(ws.root, "hk"), { recursive: true, force: true });
  await fs.mkdir(path.join(ws.root, "hk"));
}

const hookWritten = () => ws.exists(".git/hooks/pre-commit");
const plainWritten = async () => (await fs.lstat(path.join(ws.root, "hk")).catch(() => null))?.isDirectory() === true && ws.exists("hk/pre-commit");

describe("a rejection stays a rejection", () => {
  it("when the symlink that made the write ask becomes a plain folder while the person reads the prompt", async () => {
    await linkHooks();
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "hk/pre-commit", content: hook } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    const paused = await h.start();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({
      kind: "file_change",
      subject: "hk/pre-commit",
      modeOnly: false,
      suggestedPattern: "file:.git/hooks/pre-commit",
    });

    await plainFolder();
    const final = await h.resume({ decision: "reject", reason: "do not touch hooks" });
    expect(text(toolMessages(final.messages)[0])).toContain("the user rejected this change: do not touch hooks");
    expect(await hookWritten()).toBe(false);
    expect(await plainWritten()).toBe(false);
    expect(final.decisions[toolMessages(final.messages)[0]?.tool_call_id ?? ""]).toMatchObject({ decision: "reject", reason: "do not touch hooks" });
  });

  it("when a command asked in ask mode is answered no and the session is resumed under auto", async () => {
    const models = scriptedModels({ coder: [calls({ name: "execute_command", args: { command: "touch nope.txt" } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    await h.start();
    const auto = { ...h.config, configurable: { ...h.config.configurable, safety: { approval: "auto" } } };
    const { Command } = await import("@langchain/langgraph");
    const final = await h.agent.invoke(new Command({ resume: { decision: "reject", reason: "no" } }), auto);
    expect(final.__interrupt__).toBeUndefined();
    expect(await ws.exists("nope.txt")).toBe(false);
    expect(text(toolMessages(final.messages)[0])).toContain("the user rejected this command: no");
  });
});

describe("an approval covers the place it was given for", () => {
  it("refuses a write approved for .git/hooks once the path lands in a plain folder instead", async () => {
    await linkHooks();
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "hk/pre-commit", content: hook } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    await h.start();
    await plainFolder();
    const final = await h.resume({ decision: "approve" });
    const result = toolMessages(final.messages)[0];
    expect(result?.status).toBe("error");
    expect(text(result)).toContain(
      'the path changed while waiting for approval: "hk/pre-commit" now lands at "hk/pre-commit", not at ".git/hooks/pre-commit" as approved',
    );
    expect(await hookWritten()).toBe(false);
    expect(await plainWritten()).toBe(false);
  });

  it("refuses a change approved for a plain folder (ask mode, file changes asked) once the folder became a symlink into .git", async () => {
    await plainFolder();
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "hk/pre-commit", content: hook } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask", approveFileChanges: true } });
    const paused = await h.start();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ kind: "file_change", modeOnly: true, suggestedPattern: "file:hk/pre-commit" });
    await linkHooks();
    const final = await h.resume({ decision: "approve" });
    expect(text(toolMessages(final.messages)[0])).toContain('now lands at ".git/hooks/pre-commit", not at "hk/pre-commit" as approved');
    expect(await hookWritten()).toBe(false);
  });

  it("refuses an edit that an 'always' answer covers for one place once the path lands elsewhere", async () => {
    await linkHooks();
    await fs.writeFile(path.join(ws.root, ".git/hooks/pre-commit"), "old\n");
    const first = { path: "hk/pre-commit", oldText: "old\n", newText: "first\n" };
    const second = { path: "hk/pre-commit", oldText: "first\n", newText: hook };
    let edits = 0;
    const emit = (e: ProgressEvent) => {
      if (e.type !== "tool_call" || e.tool !== "edit_file" || ++edits !== 2) return;
      // Decided (covered by the grant) for .git/hooks/pre-commit; by the time it writes, hk is a plain folder.
      rmSync(path.join(ws.root, "hk"));
      mkdirSync(path.join(ws.root, "hk"));
      writeFileSync(path.join(ws.root, "hk/pre-commit"), "first\n");
    };
    const models = scriptedModels({ coder: [calls({ name: "edit_file", args: first }), calls({ name: "edit_file", args: second }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "auto" }, deps: { emit } });
    await h.start();
    const final = await h.resume({ decision: "always", pattern: "file:.git/hooks/pre-commit" });
    expect(final.__interrupt__).toBeUndefined();
    expect(final.allowPatterns).toContain("file:.git/hooks/pre-commit");
    expect(await fs.readFile(path.join(ws.root, ".git/hooks/pre-commit"), "utf8")).toBe("first\n");
    expect(text(toolMessages(final.messages)[1])).toContain('now lands at "hk/pre-commit", not at ".git/hooks/pre-commit" as approved');
    expect(await ws.read("hk/pre-commit")).toBe("first\n");
  });
});

describe("a write approved without a person never lands in a protected place", () => {
  it.each([".git/hooks", ".git", ".claude/agents"])(
    "refuses it when the folder becomes a symlink to %s between the decision and the write (auto)",
    async (target) => {
      await plainFolder();
      await fs.mkdir(path.join(ws.root, target), { recursive: true });
      const swapped: string[] = [];
      const emit = (e: ProgressEvent) => {
        // Emitted after the decision, just before the tool runs: the worst moment for a swap.
        if (e.type !== "tool_call" || e.tool !== "write_file") return;
        swapped.push(e.detail);
        rmSync(path.join(ws.root, "hk"), { recursive: true });
        symlinkSync(target, path.join(ws.root, "hk"));
      };
      const content = "[core]\n\tfsmonitor = touch /tmp/pwned\n";
      const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "hk/config", content } }), done()] });
      const { final } = await runToEnd(coder, models, { workspace: ws.root, safety: { approval: "auto" }, deps: { emit } });
      expect(swapped).toEqual(["hk/config"]);
      expect(final.__interrupt__).toBeUndefined();
      const result = toolMessages(final.messages)[0];
      expect(result?.status).toBe("error");
      expect(text(result)).toContain(`"hk/config" now lands at "${target}/config", where a write needs a person's approval`);
      expect(await fs.readFile(path.join(ws.root, target, "config"), "utf8").catch(() => "")).not.toContain("fsmonitor");
    },
  );

  it("writes an ordinary file as before when nothing changes (auto)", async () => {
    await plainFolder();
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "hk/notes.txt", content: "fine\n" } }), done()] });
    const { final } = await runToEnd(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    expect(final.__interrupt__).toBeUndefined();
    expect(await ws.read("hk/notes.txt")).toBe("fine\n");
  });
});
