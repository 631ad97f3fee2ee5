import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";

/** Bad command lines for every command: each must be exit 2 and exactly this one line on stderr, never Node's text. */
const CASES: [string[], string][] = [
  [["run", "fix it", "--max-step", "3"], "unknown option --max-step for mini-cursor run; did you mean --max-steps?"],
  [["run", "fix it", "--max-steps", "-1"], '--max-steps must be a positive whole number, got "-1"'],
  [["run", "fix it", "--max-steps", "--json"], "--max-steps needs a value, got the option --json (to pass it as the value, write --max-steps=--json)"],
  [["run", "fix it", "--model"], "--model needs a value"],
  [["run", "fix it", "--allow-network=yes"], "--allow-network takes no value, got --allow-network=yes"],
  [
    ["run", "fix it", "--no-approve-file-changes", "--approve-file-changes"],
    "--approve-file-changes and --no-approve-file-changes contradict each other; give one",
  ],
  [["run", "fix it", "-x"], "unknown option -x for mini-cursor run; see mini-cursor run --help"],
  [["run", "fix it", "--approve"], "unknown option --approve for mini-cursor run; did you mean --approval?"],
  [["resume", "--budget-token", "5"], "unknown option --budget-token for mini-cursor resume; did you mean --budget-tokens?"],
  [["sessions", "--jsno"], "unknown option --jsno for mini-cursor sessions; did you mean --json?"],
  [["diff", "--workspce", "x"], "unknown option --workspce for mini-cursor diff; did you mean --workspace?"],
  [["undo", "--frobnicate"], "unknown option --frobnicate for mini-cursor undo; see mini-cursor undo --help"],
  [["doctor", "--json=1"], "--json takes no value, got --json=1"],
  [["doctor", "--verbose"], "unknown option --verbose for mini-cursor doctor; see mini-cursor doctor --help"],
  [["memory", "list", "--knd", "lesson"], "unknown option --knd for mini-cursor memory list; did you mean --kind?"],
  [["memory", "list", "--limit", "-3"], '--limit must be a positive whole number, got "-3"'],
  [["memory", "lst"], 'unknown memory command "lst"; did you mean list?'],
  [["memory", "--json", "list"], "the memory command comes first: mini-cursor memory <search|list|add|forget|stats|reindex|stop> [options], got --json"],
  [["rn", "fix it"], 'unknown command "rn"; did you mean run?'],
  [
    ["launch"],
    'unknown command "launch"; commands: chat, run, resume, init, sessions, fork, memory, index, diff, undo, replay, doctor, agents, mcp, acp, serve (see mini-cursor --help)',
  ],
  [["frok"], 'unknown command "frok"; did you mean fork?'],
  [["--verbose"], "unknown option --verbose; see mini-cursor --help"],
  [["--versoin"], "unknown option --versoin; did you mean --version?"],
];

describe("bad command lines (built CLI)", () => {
  let ws: TempWorkspace;
  beforeAll(async () => {
    ws = await makeTempWorkspace({ "README.md": "hello\n" });
  });
  afterAll(async () => {
    await ws.cleanup();
  });

  it.each(CASES)("%j → one line, exit 2", async (args, line) => {
    const { code, stdout, stderr } = await runCli(args, { cwd: ws.root, env: {} });
    expect(stderr).toBe(`mini-cursor: ${line}\n`);
    expect(stdout).toBe("");
    expect(code).toBe(2);
    // A command line that cannot be read touches nothing.
    expect(fs.existsSync(path.join(ws.root, ".mini-cursor"))).toBe(false);
  });
});
