import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../../src/agents/index.js";
import { filePattern } from "../../../src/agents/middleware/approval.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../../graph/scripted-models.js";
import { agentHarness, ofType, runToEnd, text, toolMessages } from "../agent-harness.js";

const ws = useTempWorkspace({ "a.txt": "original\n" });

const coder = AGENT_SPECS.coder;
const done = () => calls({ name: "submit_work", args: { status: "done", summary: "ok" } });

describe("filePattern", () => {
  it("gives one pattern per file however its path is spelled", () => {
    expect(filePattern("a.txt", "/ws")).toBe("file:a.txt");
    expect(filePattern("./a.txt", "/ws")).toBe("file:a.txt");
    expect(filePattern("././a.txt", "/ws")).toBe("file:a.txt");
    expect(filePattern("/ws/a.txt", "/ws")).toBe("file:a.txt");
    expect(filePattern("src/../src/b.ts", "/ws")).toBe("file:src/b.ts");
    expect(filePattern("./src//b.ts", "/ws")).toBe("file:src/b.ts");
    expect(filePattern("/ws/src/b.ts", "/ws")).toBe(filePattern("./src/b.ts", "/ws"));
    expect(filePattern("src/a.ts", "/ws")).not.toBe(filePattern("a.ts", "/ws"));
  });
});

describe("approval middleware", () => {
  it("refuses a command matching a deny rule with the rule's reason, and the command does not run", async () => {
    const models = scriptedModels({ coder: [calls({ name: "execute_command", args: { command: "touch forbidden.txt" } }), done()] });
    // Deny beats allow, and "auto" would otherwise run it unasked.
    const { final, outcome, events } = await runToEnd(coder, models, {
      workspace: ws.root,
      safety: { approval: "auto", deny: ["touch forbidden*"], allow: ["touch*"] },
    });
    expect(outcome.stopReason).toBe("finished");
    expect(await ws.exists("forbidden.txt")).toBe(false);
    const result = toolMessages(final.messages)[0];
    expect(result?.status).toBe("error");
    expect(text(result)).toContain('Error: this is not allowed: This command matches the deny rule "touch forbidden*"');
    expect(text(result)).toContain("Do not retry it in another spelling");
    // The model is told on its next call.
    expect(text(models.seen.coder?.[1]?.at(-1))).toBe(text(result));
    expect(ofType(events, "tool_result")[0]).toMatchObject({ tool: "execute_command", ok: false, detail: "denied by rule" });
    expect(ofType(events, "tool_call")).toHaveLength(0);
    // Listed for the final report, marked as denied (it never ran).
    expect(outcome.commands).toEqual([expect.objectContaining({ command: "touch forbidden.txt", refused: "denied" })]);
  });

  it("judges start_process as a command: a deny rule refuses it before it starts, and ask mode asks", async () => {
    const denied = scriptedModels({ coder: [calls({ name: "start_process", args: { command: "touch started.txt; sleep 60" } }), done()] });
    const { final, events } = await runToEnd(coder, denied, { workspace: ws.root, safety: { approval: "auto", deny: ["touch started*"] } });
    expect(text(toolMessages(final.messages)[0])).toContain('Error: this is not allowed: This command matches the deny rule "touch started*"');
    expect(ofType(events, "tool_result")[0]).toMatchObject({ tool: "start_process", ok: false, detail: "denied by rule" });
    expect(await ws.exists("started.txt")).toBe(false);

    const asked = scriptedModels({ coder: [calls({ name: "start_process", args: { command: "npm run dev", cwd: "." } }), done()] });
    const paused = await agentHarness(coder, asked, { workspace: ws.root, safety: { approval: "ask" } }).start();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ type: "approval", kind: "command", tool: "start_process", subject: "npm run dev", cwd: "." });
  });

  it("refuses a built-in dangerous command even in auto mode", async () => {
    const models = scriptedModels({ coder: [calls({ name: "execute_command", args: { command: "rm -rf ." } }), done()] });
    const { final } = await runToEnd(coder, models, { workspace: ws.root, safety: { approval: "auto" } });
    expect(await ws.read("a.txt")).toBe("original\n");
    expect(text(toolMessages(final.messages)[0])).toMatch(/^Error: this is not allowed: /);
  });

  it('pauses in "ask" mode with an approval request, and an "always" answer lets the same command run again unasked', async () => {
    const command = "echo hi >> log.txt";
    const models = scriptedModels({
      coder: [calls({ name: "execute_command", args: { command } }), calls({ name: "execute_command", args: { command } }), done()],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" }, allowPatterns: ["git status"] });
    const paused = await h.start();
    const request = paused.__interrupt__?.[0]?.value;
    expect(request).toEqual({
      type: "approval",
      kind: "command",
      agent: "coder",
      stepId: "s1",
      tool: "execute_command",
      subject: command,
      cwd: ".",
      preview: command,
      suggestedPattern: "echo hi >> log.txt",
      modeOnly: true,
    });
    expect(await h.pending()).toEqual([request]);
    expect(await ws.exists("log.txt")).toBe(false);

    const final = await h.resume({ decision: "always", pattern: "echo hi >> log.txt" });
    expect(final.__interrupt__).toBeUndefined();
    expect(await h.pending()).toEqual([]);
    expect(h.outcome(final).stopReason).toBe("finished");
    expect(final.allowPatterns).toEqual(["git status", "echo hi >> log.txt"]);
    // Both ran: the second without a pause.
    expect(await ws.read("log.txt")).toBe("hi\nhi\n");
    expect(h.outcome(final).commands.map((c) => c.exitCode)).toEqual([0, 0]);
    expect(models.seen.coder).toHaveLength(3);
  });

  it("gives a rejection's reason back to the model as a tool error, and the command does not run", async () => {
    const models = scriptedModels({ coder: [calls({ name: "execute_command", args: { command: "touch nope.txt" } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    await h.start();
    expect(await h.pending()).toHaveLength(1);
    const final = await h.resume({ decision: "reject", reason: "use a temp folder instead" });
    expect(await ws.exists("nope.txt")).toBe(false);
    const result = toolMessages(final.messages)[0];
    expect(result?.status).toBe("error");
    expect(text(result)).toBe("Error: the user rejected this command: use a temp folder instead. Do not repeat it; adjust your approach to the user's reason.");
    expect(text(models.seen.coder?.[1]?.at(-1))).toContain("use a temp folder instead");
    expect(ofType(h.events, "tool_result")[0]).toMatchObject({ ok: false, detail: "rejected by the user" });
    expect(final.allowPatterns).toEqual([]);
  });

  it("treats an answer it cannot parse as a rejection", async () => {
    const models = scriptedModels({ coder: [calls({ name: "execute_command", args: { command: "touch nope.txt" } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    await h.start();
    const final = await h.resume({ decision: "sure" });
    expect(await ws.exists("nope.txt")).toBe(false);
    expect(text(toolMessages(final.messages)[0])).toContain("the user rejected this command: the approval answer was not understood");
  });

  it("asks about each call of one reply on its own and keeps the approved one when the other is rejected", async () => {
    const models = scriptedModels({
      coder: [calls({ name: "execute_command", args: { command: "touch one.txt" } }, { name: "execute_command", args: { command: "touch two.txt" } }), done()],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    await h.start();
    expect((await h.pending()).map((r) => r.subject)).toEqual(["touch one.txt"]);
    await h.resume({ decision: "approve" });
    expect((await h.pending()).map((r) => r.subject)).toEqual(["touch two.txt"]);
    expect(await ws.exists("one.txt")).toBe(false); // nothing runs before every call is decided
    const final = await h.resume({ decision: "reject", reason: "only one" });
    expect(await ws.exists("one.txt")).toBe(true);
    expect(await ws.exists("two.txt")).toBe(false);
    expect(toolMessages(final.messages).map((m) => [m.name, m.status === "error"])).toEqual([
      ["execute_command", false],
      ["execute_command", true],
      ["submit_work", false],
    ]);
  });

  it("with approveFileChanges, shows a new file as its lines added and a long change whole up to 100 lines", async () => {
    const long = Array.from({ length: 90 }, (_, i) => `line ${i + 1}`).join("\n");
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "AGENTS.md", content: "# Agents\nnpm test\n" } }), done()] });
    const request = (await agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask", approveFileChanges: true } }).start())
      .__interrupt__?.[0]?.value;
    expect(request).toHaveProperty("preview", "write AGENTS.md:\n+ # Agents\n+ npm test\n+ ");

    await fs.writeFile(path.join(ws.root, "long.txt"), `${long}\n`);
    const changed = `${long.replace("line 5\n", "line five\n").replace("line 80\n", "line eighty\n")}\n`;
    const edits = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "long.txt", content: changed } }), done()] });
    const diff = (await agentHarness(coder, edits, { workspace: ws.root, safety: { approval: "ask", approveFileChanges: true } }).start()).__interrupt__?.[0]
      ?.value;
    expect(diff).toHaveProperty(
      "preview",
      [
        "write long.txt (changes the existing file):",
        "@@ -2,7 +2,7 @@",
        ...["line 2", "line 3", "line 4"].map((l) => ` ${l}`),
        "-line 5",
        "+line five",
        ...["line 6", "line 7", "line 8"].map((l) => ` ${l}`),
        "@@ -77,7 +77,7 @@",
        ...["line 77", "line 78", "line 79"].map((l) => ` ${l}`),
        "-line 80",
        "+line eighty",
        ...["line 81", "line 82", "line 83"].map((l) => ` ${l}`),
      ].join("\n"),
    );
    expect(await ws.read("long.txt")).toBe(`${long}\n`);
  });

  it('with approveFileChanges, one "always" grant covers ./a.txt and a.txt', async () => {
    const models = scriptedModels({
      coder: [
        calls({ name: "write_file", args: { path: "./a.txt", content: "first\n" } }),
        calls({ name: "write_file", args: { path: "a.txt", content: "second\n" } }),
        calls({ name: "edit_file", args: { path: `${ws.root}/a.txt`, oldText: "second", newText: "third" } }),
        done(),
      ],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask", approveFileChanges: true } });
    const paused = await h.start();
    const request = paused.__interrupt__?.[0]?.value;
    expect(request).toMatchObject({ type: "approval", kind: "file_change", tool: "write_file", subject: "./a.txt", suggestedPattern: "file:a.txt" });
    // a.txt exists: the change is shown as a unified diff against it.
    expect(request).toHaveProperty("preview", "write ./a.txt (changes the existing file):\n@@ -1 +1 @@\n-original\n+first");
    expect(await ws.read("a.txt")).toBe("original\n");

    const final = await h.resume({ decision: "always", pattern: "file:a.txt" });
    expect(final.__interrupt__).toBeUndefined();
    expect(h.outcome(final).stopReason).toBe("finished");
    expect(await ws.read("a.txt")).toBe("third\n");
    expect(final.allowPatterns).toEqual(["file:a.txt"]);
    expect(toolMessages(final.messages).map((m) => [m.name, m.status === "error"])).toEqual([
      ["write_file", false],
      ["write_file", false],
      ["edit_file", false],
      ["submit_work", false],
    ]);
  });

  it("normalises a file grant given in another spelling", async () => {
    const models = scriptedModels({
      coder: [
        calls({ name: "write_file", args: { path: "a.txt", content: "first\n" } }),
        calls({ name: "write_file", args: { path: "./a.txt", content: "second\n" } }),
        done(),
      ],
    });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask", approveFileChanges: true } });
    await h.start();
    const final = await h.resume({ decision: "always", pattern: "file:./a.txt" });
    expect(final.__interrupt__).toBeUndefined();
    expect(final.allowPatterns).toEqual(["file:a.txt"]);
    expect(await ws.read("a.txt")).toBe("second\n");
  });

  it("does not ask about file changes without approveFileChanges", async () => {
    const models = scriptedModels({ coder: [calls({ name: "write_file", args: { path: "a.txt", content: "new\n" } }), done()] });
    const h = agentHarness(coder, models, { workspace: ws.root, safety: { approval: "ask" } });
    const final = await h.start();
    expect(final.__interrupt__).toBeUndefined();
    expect(await ws.read("a.txt")).toBe("new\n");
  });

  it('forceAsk turns "auto" into asking', async () => {
    const script = () => [calls({ name: "execute_command", args: { command: "touch forced.txt" } }), done()];
    const asked = agentHarness(coder, scriptedModels({ coder: script() }), { workspace: ws.root, safety: { approval: "auto" }, deps: { forceAsk: true } });
    const paused = await asked.start();
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ kind: "command", subject: "touch forced.txt" });
    expect(await ws.exists("forced.txt")).toBe(false);
    await asked.resume({ decision: "approve" });
    expect(await ws.exists("forced.txt")).toBe(true);

    await fs.rm(path.join(ws.root, "forced.txt"));
    const unasked = await runToEnd(coder, scriptedModels({ coder: script() }), { workspace: ws.root, safety: { approval: "auto" }, deps: { forceAsk: false } });
    expect(unasked.final.__interrupt__).toBeUndefined();
    expect(await ws.exists("forced.txt")).toBe(true);
  });
});
