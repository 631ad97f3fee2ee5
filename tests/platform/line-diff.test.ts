import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/platform/line-diff.js";

describe("unifiedDiff", () => {
  it("gives no lines for the same text", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n")).toEqual([]);
  });

  it("shows a change with three lines of context, as diff -u does", () => {
    expect(unifiedDiff("# A\n\nold\nx\n", "# A\n\nnew\nx\nmore\n")).toEqual(["@@ -1,4 +1,5 @@", " # A", " ", "-old", "+new", " x", "+more"]);
  });

  it("shows a new text as added from line 0, and a lost last newline", () => {
    expect(unifiedDiff("", "a\nb\n")).toEqual(["@@ -0,0 +1,2 @@", "+a", "+b"]);
    expect(unifiedDiff("a\n", "a")).toEqual(["@@ -1 +1 @@", "-a", "+a", "\\ No newline at end of file"]);
  });

  it("keeps changes far apart in hunks of their own", () => {
    const before = Array.from({ length: 20 }, (_, i) => `${i + 1}`);
    const after = before.map((l) => (l === "2" || l === "19" ? `${l}!` : l));
    const hunks = unifiedDiff(`${before.join("\n")}\n`, `${after.join("\n")}\n`).filter((l) => l.startsWith("@@"));
    expect(hunks).toEqual(["@@ -1,5 +1,5 @@", "@@ -16,5 +16,5 @@"]);
  });
});
