import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMMON_OPTIONS, MODEL_OPTIONS, parse, positiveInt, resolveWorkspace } from "../../src/cli/args.js";
import { UsageError } from "../../src/cli/exit-codes.js";
import { makeTempWorkspace, type TempWorkspace } from "../helpers/temp-workspace.js";

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
  const options = { ...COMMON_OPTIONS, ...MODEL_OPTIONS };

  it("parses known flags and positionals", () => {
    const { values, positionals } = parse(["--json", "--model", "m", "--workspace=/w", "do it", "-h"], options);
    expect(values).toEqual({ json: true, model: "m", workspace: "/w", help: true });
    expect(positionals).toEqual(["do it"]);
  });

  it("turns an unknown flag into a one-line UsageError naming it", () => {
    const err = usageError(() => parse(["--frobnicate"], options));
    expect(err.message).toContain("--frobnicate");
    expect(err.message).not.toContain("\n");
  });

  it("turns a missing flag value into a UsageError", () => {
    const err = usageError(() => parse(["--model"], options));
    expect(err.message).toContain("--model");
  });

  it("rejects a value given to a boolean flag", () => {
    usageError(() => parse(["--json=yes"], options));
  });
});
