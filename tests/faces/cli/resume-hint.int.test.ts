import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resumeCommandFor, shellQuote } from "../../../src/host/resume-hint.js";
import { useTempWorkspace } from "../../helpers/temp-workspace.js";

const echoed = (word: string) => execFileSync("sh", ["-c", `printf %s ${shellQuote(word)}`], { encoding: "utf8" });

describe("shellQuote", () => {
  it.each(["plain/path-1.2", "with space", "it's", '$HOME `x` "q" \\ *?', "~user", ""])("%j reads back unchanged in sh", (word) => {
    expect(echoed(word)).toBe(word);
  });
  it("leaves safe words bare", () => {
    expect(shellQuote("/tmp/ws")).toBe("/tmp/ws");
  });
});

describe("resumeCommandFor", () => {
  const ws = useTempWorkspace({ "proj/x.txt": "", "other/x.txt": "" });

  it("is bare in the workspace itself", () => {
    const root = path.join(ws.root, "proj");
    expect(resumeCommandFor("s1", root, root)).toBe("mini-cursor resume s1");
  });

  it("names any other workspace by its absolute path, below the current folder too", () => {
    const root = ws.root;
    expect(resumeCommandFor("s1", path.join(root, "proj"), root)).toBe(`mini-cursor resume s1 --workspace ${path.join(root, "proj")}`);
    expect(resumeCommandFor("s1", path.join(root, "proj"), path.join(root, "other"))).toBe(`mini-cursor resume s1 --workspace ${path.join(root, "proj")}`);
  });

  it("sees through a symlinked current folder", () => {
    const root = ws.root;
    fs.symlinkSync(path.join(root, "proj"), path.join(root, "link"));
    expect(resumeCommandFor("s1", path.join(root, "proj"), path.join(root, "link"))).toBe("mini-cursor resume s1");
  });
});
