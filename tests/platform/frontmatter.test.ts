import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/platform/frontmatter.js";

describe("parseFrontmatter", () => {
  it("splits the YAML block from the body", () => {
    expect(parseFrontmatter("---\nname: docs\ntools: [read_file, search_code]\n---\nWrite docs.\n")).toEqual({
      ok: true,
      data: { name: "docs", tools: ["read_file", "search_code"] },
      body: "Write docs.\n",
    });
  });

  it("reads files written on Windows (byte-order mark, CRLF) and YAML's `...` closing line", () => {
    expect(parseFrontmatter("\uFEFF---\r\nname: w\r\n---\r\nBody\r\n")).toEqual({ ok: true, data: { name: "w" }, body: "Body\r\n" });
    expect(parseFrontmatter("---\nname: y\n...\nBody")).toEqual({ ok: true, data: { name: "y" }, body: "Body" });
  });

  it("takes an empty block as no keys, and the first closing line as the end", () => {
    expect(parseFrontmatter("---\n---\nBody")).toEqual({ ok: true, data: {}, body: "Body" });
    expect(parseFrontmatter("---\na: 1\n---\nx\n---\ny")).toEqual({ ok: true, data: { a: 1 }, body: "x\n---\ny" });
  });

  it("says what is wrong instead of throwing", () => {
    expect(parseFrontmatter("# Title\n---\na: 1\n---\n")).toEqual({ ok: false, problem: "missing" });
    expect(parseFrontmatter("---\nname: x\ndescription: never closed\n")).toEqual({ ok: false, problem: "unclosed" });
    expect(parseFrontmatter("---\n- a\n- b\n---\n")).toEqual({ ok: false, problem: "not-a-map" });
    expect(parseFrontmatter("---\njust text\n---\n")).toEqual({ ok: false, problem: "not-a-map" });
    const bad = parseFrontmatter("---\nname: [oops\n---\n");
    expect(bad).toMatchObject({ ok: false, problem: "invalid-yaml" });
    // One line: the parser's code excerpt is left out.
    expect(bad.ok === false && bad.problem === "invalid-yaml" && bad.detail).toMatch(/^[^\n]+$/);
  });
});
