import { describe, expect, it } from "vitest";
import { describeCall, describeDivergence } from "../../../src/faces/cli/commands/replay.js";
import { REPLAY_ENVIRONMENT } from "../../../src/faces/cli/replay-environment.js";
import type { RecordedMessage } from "../../../src/models/recording-codec.js";
import { compareToolResults, normalizer } from "../../../src/models/replay-compare.js";
import { DIAGNOSTICS_DEFAULTS } from "../../../src/platform/config/diagnostics-settings.js";
import { sandboxNotes } from "../../../src/safety/sandbox/sandbox-notes.js";
import { sandboxSpawnOptions } from "../../../src/safety/sandbox/sandboxed-command.js";
import { createDiagnosticsHub } from "../../../src/services/diagnostics/diagnostics-hub.js";

const same = normalizer([]);
const result = (name: string, content: string, status?: string): RecordedMessage => ({
  role: "tool",
  name,
  toolCallId: "call_1",
  content,
  ...(status ? { status } : {}),
});
const compare = (tool: string, recorded: string, replayed: string) =>
  compareToolResults([result(tool, recorded)], [result(tool, replayed)], same, REPLAY_ENVIRONMENT);

const TS_NOTE = "Note: no TypeScript diagnostics: the project has no `typescript` package installed (node_modules/typescript).";
const WROTE = 'Created "src/b.ts" (20 bytes, 1 lines).';

describe("what a replay counts as the environment's (issue 40)", () => {
  it("knows the notes the sandbox and the diagnostics really write", async () => {
    const sandbox = sandboxSpawnOptions("/w", { kind: "bubblewrap", allowNetwork: false, workspaceAccess: "read-write" });
    if (!sandbox) throw new Error("no sandbox options");
    const notes = [
      ...sandboxNotes("bwrap: oops\ntouch: Read-only file system\ncurl: Could not resolve host", 137, sandbox),
      ...sandboxNotes("EROFS", 1, { ...sandbox, workspaceAccess: "read-only" }),
    ];
    expect(notes.length).toBe(5);
    // No sandbox: the hub says so once per process, without starting any checker.
    const hub = createDiagnosticsHub({ settings: DIAGNOSTICS_DEFAULTS, sandbox: undefined });
    notes.push(await hub.afterEdit("/w", { file: "a.ts", before: null }));
    hub.close();
    for (const note of [...notes, TS_NOTE, "Note: the TypeScript check took longer than 5 s and was skipped for this change (the change itself is done)."])
      expect(REPLAY_ENVIRONMENT.isNote(note), note).toBe(true);
    // Notes about the call itself are not the environment's.
    expect(REPLAY_ENVIRONMENT.isNote("Note: the output was long; only its beginning and end are shown.")).toBe(false);
    expect(REPLAY_ENVIRONMENT.isNote('Note: removed the leading "cd src" because cwd is already "src".')).toBe(false);
  });

  it("a result that differs only in such a note is an environment difference, not a divergence", () => {
    expect(compare("write_file", `${WROTE}\n\n${TS_NOTE}`, WROTE)).toEqual([
      { tool: "write_file", toolCallId: "call_1", environment: true, diff: expect.stringContaining(TS_NOTE) as string },
    ]);
    expect(compare("memory_search", "2 memories from earlier sessions: ...", "Error: long-term memory is off in this session")[0]?.environment).toBe(true);
  });

  it("a real difference is still a divergence, its diff without the notes", () => {
    const [file] = compare("write_file", `Overwrote "src/b.ts" (was 4 bytes; now 20 bytes, 1 lines).\n\n${TS_NOTE}`, WROTE);
    expect(file).toEqual({
      tool: "write_file",
      toolCallId: "call_1",
      environment: false,
      diff: `- Overwrote "src/b.ts" (was 4 bytes; now 20 bytes, 1 lines).\n+ ${WROTE}`,
    });
    const network = "Note: commands have no network access in this sandbox (not even to services running elsewhere on this machine).";
    const [command] = compare("execute_command", `$ make\nExit code: 0\n${network}\nOutput:\nok`, `$ make\nExit code: 2\nOutput:\nfailed`);
    expect(command?.environment).toBe(false);
    expect(command?.diff).not.toContain("Note:");
    // The same text with another status (an error now) is not the environment's either.
    expect(compareToolResults([result("read_file", "x")], [result("read_file", "x", "error")], same, REPLAY_ENVIRONMENT)[0]?.environment).toBe(false);
  });

  it("names the step of a divergence, or says the planner's call was between steps; never an empty step", () => {
    expect(describeCall({ seq: 7, role: "coder", step: "s1" })).toBe("step s1 (coder, call 7)");
    expect(describeCall({ seq: 3, role: "planner", step: null })).toBe("the planner (call 3, between steps)");
    expect(describeCall({ seq: 4, role: "coder", step: "" })).toBe("the coder (call 4, in a step the recording does not name)");
    expect(describeDivergence({ seq: 4, role: "coder", step: "s2", tool: "write_file", toolCallId: "c1", diff: "- a\n+ b" })).toBe(
      "Divergence in step s2 (coder, call 4): the write_file result for c1 differs from the recording:\n- a\n+ b",
    );
  });
});
