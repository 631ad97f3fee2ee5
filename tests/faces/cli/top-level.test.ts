import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/platform/config-file.js";
import { UnknownOptionError, UsageError } from "../../../src/faces/cli/exit-codes.js";
import { CHAT_HELP, MAIN_HELP, SESSIONS_HELP } from "../../../src/faces/cli/help.js";
import type { CliIo } from "../../../src/faces/cli/io.js";
import { answerTopLevel, withCommand, COMMAND_NAMES, reportFailure, version } from "../../../src/faces/cli/top-level.js";

function io(): CliIo & { out: string; err: string } {
  const state = { out: "", err: "" };
  return Object.assign(state, {
    stdin: process.stdin,
    stdout: { write: (s: string) => ((state.out += s), true) },
    stderr: { write: (s: string) => ((state.err += s), true) },
    env: {},
    cwd: "/",
  }) as unknown as CliIo & { out: string; err: string };
}

describe("answerTopLevel: what needs no command module", () => {
  it("prints help (exit 0); without a command, or with a conversation's flag first, the conversation runs (chat)", () => {
    for (const argv of [["--help"], ["-h"], ["help"]]) {
      const o = io();
      expect(answerTopLevel(argv, o)).toBe(0);
      expect(o.out).toBe(`${MAIN_HELP}\n`);
    }
    const bare = io();
    expect(answerTopLevel([], bare)).toBeUndefined();
    expect(bare.out).toBe("");
    expect(withCommand([])).toEqual(["chat"]);
    expect(withCommand(["-c"])).toEqual(["chat", "-c"]);
    expect(withCommand(["--workspace=ws", "-r"])).toEqual(["chat", "--workspace=ws", "-r"]);
    expect(withCommand(["run", "-c"])).toEqual(["run", "-c"]);
    const help = io();
    expect(answerTopLevel(["-c", "--help"], help)).toBe(0);
    expect(help.out).toBe(`${CHAT_HELP}\n`);
  });

  it("prints the package's version", () => {
    const o = io();
    expect(answerTopLevel(["--version"], o)).toBe(0);
    expect(o.out).toBe(`${version()}\n`);
    expect(version()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answers a command's --help without running it, and leaves every other command line to the command", () => {
    const o = io();
    expect(answerTopLevel(["sessions", "--workspace", "x", "--help"], o)).toBe(0);
    expect(o.out).toBe(`${SESSIONS_HELP}\n`);
    for (const command of COMMAND_NAMES) expect(answerTopLevel([command, "--json"], io())).toBeUndefined();
  });

  it("names the close command or flag for an unknown one, exit 2", () => {
    const typo = io();
    expect(answerTopLevel(["resme"], typo)).toBe(2);
    expect(typo.err).toBe('mini-cursor: unknown command "resme"; did you mean resume?\n');
    const flag = io();
    expect(answerTopLevel(["--verison"], flag)).toBe(2);
    expect(flag.err).toBe("mini-cursor: unknown option --verison; did you mean --version?\n");
  });
});

describe("reportFailure: one line per error", () => {
  it("is exit 2 for usage and configuration errors, naming the command for an unknown option", () => {
    const usage = io();
    expect(reportFailure(new UsageError("--limit must be a positive number"), "memory", usage)).toBe(2);
    expect(usage.err).toBe("mini-cursor: --limit must be a positive number\n");
    const option = io();
    expect(reportFailure(new UnknownOptionError("--al", "--all", undefined), "sessions", option)).toBe(2);
    expect(option.err).toBe("mini-cursor: unknown option --al for mini-cursor sessions; did you mean --all?\n");
    const config = io();
    expect(reportFailure(new ConfigError("MINI_CURSOR_MEMORY must be on or off"), "run", config)).toBe(2);
    expect(config.err).toBe("mini-cursor: MINI_CURSOR_MEMORY must be on or off\n");
  });

  it("is exit 1 for anything else, as one line without a stack", () => {
    const o = io();
    expect(reportFailure(new Error("disk full"), "run", o)).toBe(1);
    expect(o.err).toBe("mini-cursor: disk full\n");
  });
});
