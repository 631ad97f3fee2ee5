import { describe, expect, it } from "vitest";
import { globMatcher, hasGlob, matchesGlob } from "../../src/platform/glob.js";

describe("path globs", () => {
  it.each([
    ["/etc/ssh/ssh_host_*_key", "/etc/ssh/ssh_host_rsa_key", true],
    ["/home/*/x", "/home/u/x", true],
    // `*` and `?` stay within one folder; `**` alone in a segment crosses folders.
    ["/home/*", "/home/u/.ssh", false],
    ["/home/?", "/home/u/x", false],
    ["/home/**", "/home/u/.ssh/id_rsa", true],
    ["/home/**/id_rsa", "/home/u/.ssh/id_rsa", true],
    ["/home/**/id_rsa", "/home/id_rsa", true],
    // Dot files match: the callers that need bash's rule apply it themselves.
    ["*git", ".git", true],
    ["/w/*", "/w/.env", true],
    [".*", ".ssh", true],
    // Classes, bash's `[!…]` included.
    ["id_[dr]sa", "id_rsa", true],
    ["id_[!r]sa", "id_rsa", false],
    ["id_[!r]sa", "id_dsa", true],
    ["id_[^r]sa", "id_dsa", true],
    // Braces are expanded before (expandBraces), so here they are text.
    ["a{b,c}", "ab", false],
    ["a{b,c}", "a{b,c}", true],
    // No negation of a whole pattern, no extglobs.
    ["!x", "y", false],
    ["!x", "!x", true],
    ["+(a)", "a", false],
    // A plain path names itself only.
    ["/w/a.b", "/w/axb", false],
    ["/w/a+b(c)", "/w/a+b(c)", true],
  ])("%s against %s: %s", (pattern, subject, expected) => {
    expect(matchesGlob(pattern, subject, "path")).toBe(expected);
  });

  it("is case-sensitive unless asked", () => {
    expect(matchesGlob("/W/*", "/w/x", "path")).toBe(false);
    expect(matchesGlob("/W/*", "/w/x", "path", true)).toBe(true);
  });
});

describe("name globs", () => {
  it.each([
    // MCP tool names, as custom agents and safety rules list them.
    ["mcp__github__*", "mcp__github__create_issue", true],
    ["mcp__github__*", "mcp__gitlab__create_issue", false],
    ["mcp__a.b__x", "mcp__a_b__x", false],
    ["mcp__*__search", "mcp__docs__search", true],
    ["mcp__{github,gitlab}__*", "mcp__gitlab__merge", true],
    ["mcp__{github,gitlab}__*", "mcp__gitea__merge", false],
    // Model names: `*` is anything, `/` and dots included.
    ["*coder*", "qwen/qwen2.5-coder:7b", true],
    ["*", "library/llama3.1:8b", true],
    ["gpt-4o-20*", "gpt-4o-2024-08-06", true],
    ["deepseek-*", "my-deepseek-chat", false],
    ["*", ".hidden", true],
  ])("%s against %s: %s", (pattern, subject, expected) => {
    expect(matchesGlob(pattern, subject, "name")).toBe(expected);
  });

  it("matches in any case when asked (model names)", () => {
    expect(matchesGlob("deepseek-*", "DeepSeek-Reasoner", "name")).toBe(false);
    expect(matchesGlob("deepseek-*", "DeepSeek-Reasoner", "name", true)).toBe(true);
  });
});

describe("globMatcher", () => {
  it("compiles a pattern once per kind and case", () => {
    expect(globMatcher("a*", "path")).toBe(globMatcher("a*", "path"));
    expect(globMatcher("a*", "path")).not.toBe(globMatcher("a*", "name"));
    expect(globMatcher("a*", "name", true)).not.toBe(globMatcher("a*", "name"));
  });

  it("still matches after more patterns than it keeps", () => {
    for (let i = 0; i < 1200; i++) expect(matchesGlob(`/p${i}/*`, `/p${i}/x`, "path")).toBe(true);
  });
});

describe("hasGlob", () => {
  it("sees *, ? and [", () => {
    expect(["*.ts", "a?", "[ab]", "~/.ssh", "a{b,c}"].map(hasGlob)).toEqual([true, true, true, false, false]);
  });
});
