import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMMON_OPTIONS, MODEL_OPTIONS, parse, positiveInt, resolveWorkspace } from "../../../src/faces/cli/args.js";
import { UnknownOptionError, UsageError } from "../../../src/faces/cli/exit-codes.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error("expected a UsageError");
}

describe("positiveInt", () => {
  it("passes undefined through and parses whole numbers", () => {
    expect(positiveInt(undefined, "--max-steps")).toBeUndefined();
    expect(positiveInt("1", "--max-steps")).toBe(1);
    expect(positiveInt("250", "--max-steps")).toBe(250);
  });

  it.each(["0", "-1", "abc", "1.5", "", " 3", "1e3", "0x10"])("rejects %j naming the flag", (value) => {
    const err = usageError(() => positiveInt(value, "--max-steps"));
    expect(err.message).toContain("--max-steps");
    expect(err.message).toContain(`"${value}"`);
  });
});

describe("resolveWorkspace", () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeTempWorkspace({ "project/src/a.ts": "", "file.txt": "x" });
  });
  afterEach(async () => {
    await ws.cleanup();
  });

  it("resolves a relative folder against cwd, and defaults to cwd", () => {
    expect(resolveWorkspace("project", ws.root)).toBe(path.join(ws.root, "project"));
    expect(resolveWorkspace(undefined, path.join(ws.root, "project"))).toBe(path.join(ws.root, "project"));
    expect(resolveWorkspace(path.join(ws.root, "project", "src"), "/")).toBe(path.join(ws.root, "project", "src"));
  });

  it("rejects a missing folder", () => {
    const err = usageError(() => resolveWorkspace("missing", ws.root));
    expect(err.message).toContain(path.join(ws.root, "missing"));
    expect(err.message).toContain("does not exist");
  });

  it("rejects a file", () => {
    const err = usageError(() => resolveWorkspace("file.txt", ws.root));
    expect(err.message).toContain(path.join(ws.root, "file.txt"));
    expect(err.message).toContain("not a folder");
  });

  it("returns the real path of a symlinked folder", () => {
    fs.symlinkSync(path.join(ws.root, "project"), path.join(ws.root, "link"), "dir");
    expect(resolveWorkspace("link", ws.root)).toBe(path.join(ws.root, "project"));
  });

  it("rejects a dangling symlink as missing", () => {
    fs.symlinkSync(path.join(ws.root, "gone"), path.join(ws.root, "dangling"));
    expect(usageError(() => resolveWorkspace("dangling", ws.root)).message).toContain("does not exist");
  });
});

describe("parse", () => {
  const options = { ...COMMON_OPTIONS, ...MODEL_OPTIONS, "max-steps": { type: "string" }, "approve-file-changes": { type: "boolean" } } as const;

  it("parses known flags and positionals", () => {
    const { values, positionals } = parse(["--json", "--model", "m", "--workspace=/w", "do it", "-h"], options);
    expect(values).toEqual({ json: true, model: "m", workspace: "/w", help: true });
    expect(positionals).toEqual(["do it"]);
  });

  it("keeps everything after -- as positionals, dashes included", () => {
    expect(parse(["--", "--json", "-x"], options).positionals).toEqual(["--json", "-x"]);
  });

  it("names an unknown flag and the command, and suggests the close one", () => {
    const err = usageError(() => parse(["task", "--max-step", "3"], options, "run"));
    expect(err).toBeInstanceOf(UnknownOptionError);
    expect(err.message).toBe("unknown option --max-step for mini-cursor run; did you mean --max-steps?");
    expect(usageError(() => parse(["--jsno"], options, "run")).message).toBe("unknown option --jsno for mini-cursor run; did you mean --json?");
    expect(usageError(() => parse(["--max-step=3"], options, "run")).message).toContain("did you mean --max-steps?");
    expect(usageError(() => parse(["--approve-file"], options, "run")).message).toContain("did you mean --approve-file-changes?");
  });

  it("points to --help when no flag is close, and leaves the command to main.ts when not told", () => {
    expect(usageError(() => parse(["--frobnicate"], options, "run")).message).toBe(
      "unknown option --frobnicate for mini-cursor run; see mini-cursor run --help",
    );
    expect(usageError(() => parse(["-x"], options, "memory list")).message).toBe(
      "unknown option -x for mini-cursor memory list; see mini-cursor memory --help",
    );
    const err = usageError(() => parse(["--jsno"], options));
    expect(err).toBeInstanceOf(UnknownOptionError);
    expect((err as UnknownOptionError).forCommand("diff")).toBe("unknown option --jsno for mini-cursor diff; did you mean --json?");
    expect(err.message).not.toContain("\n");
  });

  it("reports a flag without its value", () => {
    expect(usageError(() => parse(["--model"], options)).message).toBe("--model needs a value");
  });

  it("refuses a flag where a value belongs, and says how to pass it as a value", () => {
    expect(usageError(() => parse(["--model", "--json"], options)).message).toBe(
      "--model needs a value, got the option --json (to pass it as the value, write --model=--json)",
    );
  });

  it("hands a negative number to the flag's own check instead of calling it ambiguous", () => {
    const { values, positionals } = parse(["--max-steps", "-1", "task", "--model", "-0.5"], options);
    expect(values).toMatchObject({ "max-steps": "-1", model: "-0.5" });
    expect(positionals).toEqual(["task"]);
    expect(usageError(() => positiveInt(values["max-steps"], "--max-steps")).message).toBe('--max-steps must be a positive whole number, got "-1"');
  });

  it("rejects a value given to a boolean flag", () => {
    expect(usageError(() => parse(["--json=yes"], options)).message).toBe("--json takes no value, got --json=yes");
  });

  it("reports the first problem on the line", () => {
    expect(usageError(() => parse(["--nope", "--model"], options, "run")).message).toContain("--nope");
  });
});
