import { describe, expect, it } from "vitest";
import { closest, editDistance } from "../../../src/faces/cli/did-you-mean.js";

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["run", "run", 0],
    ["rn", "run", 1],
    ["jsno", "json", 1],
    ["kitten", "sitting", 3],
    ["", "abc", 3],
  ])("%j → %j is %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("closest", () => {
  const commands = ["run", "resume", "sessions", "memory", "diff", "undo", "doctor"];

  it("suggests the one close candidate", () => {
    expect(closest("rn", commands)).toBe("run");
    expect(closest("docter", commands)).toBe("doctor");
    expect(closest("--max-step", ["--max-steps", "--max-revisions"])).toBe("--max-steps");
  });

  it("suggests the only candidate a typed start extends", () => {
    expect(closest("sess", commands)).toBe("sessions");
    expect(closest("--approve-file", ["--approval", "--approve-file-changes"])).toBe("--approve-file-changes");
  });

  it("suggests nothing when nothing is close or two are equally close", () => {
    expect(closest("deploy", commands)).toBeUndefined();
    expect(closest("--frobnicate", ["--json", "--workspace"])).toBeUndefined();
    expect(closest("--max", ["--max-steps", "--max-revisions"])).toBeUndefined();
    expect(closest("ab", ["ax", "ay"])).toBeUndefined();
    expect(closest("-x", ["-h", "--json"])).toBeUndefined();
  });
});
