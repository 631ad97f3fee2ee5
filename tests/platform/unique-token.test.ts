import { describe, expect, it } from "vitest";
import { uniqueToken } from "../../src/platform/unique-token.js";

describe("uniqueToken", () => {
  it("never repeats within a process and is safe in a file name", () => {
    const tokens = Array.from({ length: 10_000 }, () => uniqueToken());
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const t of tokens.slice(0, 100)) expect(t).toMatch(/^[0-9a-z]+-[0-9a-z]+-[0-9a-z]+$/);
  });
});
