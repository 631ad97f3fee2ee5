import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../../src/core/index.js";
import { parseAnswer } from "../../../src/faces/cli/approval-prompt.js";
import { applyKeys } from "../../../src/faces/cli/terminal-prompter.js";

const request = { suggestedPattern: "npm test *" } as ApprovalRequest;

describe("parseAnswer", () => {
  it.each([
    ["y", { decision: "approve" }],
    ["  YES ", { decision: "approve" }],
    ["n use the script", { decision: "reject", reason: "use the script" }],
    ["no", { decision: "reject", reason: "" }],
    ["a", { decision: "always", pattern: "npm test *" }],
    ["always: npm run *", { decision: "always", pattern: "npm run *" }],
  ])("%j", (line, answer) => {
    expect(parseAnswer(line, request)).toEqual(answer);
  });
  it.each(["", "yy", "maybe", "ok"])("%j is not an answer", (line) => {
    expect(parseAnswer(line, request)).toBeUndefined();
  });
});

describe("applyKeys (the prompt's raw-mode line editor)", () => {
  it("collects printable keys and ends on Enter, ignoring what follows", () => {
    expect(applyKeys("", "n why\ry\r")).toEqual({ line: "n why", echo: "n why", end: "enter" });
    expect(applyKeys("n", " x\n")).toEqual({ line: "n x", echo: " x", end: "enter" });
  });
  it("keeps a line without Enter open", () => {
    expect(applyKeys("", "y")).toEqual({ line: "y", echo: "y" });
  });
  it("edits with Backspace and Ctrl-U", () => {
    expect(applyKeys("", "nx\u007f\u007fy")).toEqual({ line: "y", echo: "nx\b \b\b \by" });
    expect(applyKeys("abc", "\u0015")).toEqual({ line: "", echo: "\b \b\b \b\b \b" });
    expect(applyKeys("", "\u007f")).toEqual({ line: "", echo: "" });
  });
  it("ignores arrow keys and other escape sequences", () => {
    expect(applyKeys("", "\u001b[Ay\u001b[1;5C\u001bOP\r")).toEqual({ line: "y", echo: "y", end: "enter" });
  });
  it("Ctrl-C interrupts; Ctrl-D ends input only on an empty line", () => {
    expect(applyKeys("y", "\u0003\r")).toMatchObject({ end: "interrupt" });
    expect(applyKeys("", "\u0004")).toMatchObject({ end: "eof" });
    expect(applyKeys("y", "\u0004")).toEqual({ line: "y", echo: "" });
  });
});
