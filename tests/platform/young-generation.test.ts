import { describe, expect, it } from "vitest";
import { GROWTH_FLAG, keepYoungGenerationSmall, type YoungGenerationContext } from "../../src/platform/young-generation.js";

function context(overrides: Partial<YoungGenerationContext>): YoungGenerationContext & { set: string[] } {
  const set: string[] = [];
  return { execArgv: [], nodeOptions: undefined, nodeVersion: "20.20.2", setFlags: (flags) => set.push(flags), set, ...overrides };
}

describe("keepYoungGenerationSmall", () => {
  it("sets V8's growth factor of the young generation to 1 on Node 20", () => {
    const c = context({});
    expect(keepYoungGenerationSmall(c)).toBe(true);
    expect(c.set).toEqual([GROWTH_FLAG]);
  });

  it.each([
    ["--max-semi-space-size=32 on the command line", { execArgv: ["--max-semi-space-size=32"] }],
    ["V8's underscore spelling", { execArgv: ["--max_semi_space_size=8"] }],
    ["--min-semi-space-size in NODE_OPTIONS", { nodeOptions: "--enable-source-maps --min-semi-space-size=4" }],
    ["its own growth factor in NODE_OPTIONS", { nodeOptions: "--semi-space-growth-factor=4" }],
    ["a Node whose V8 it was not verified on", { nodeVersion: "22.11.0" }],
  ])("leaves the young generation alone given %s", (_label, overrides) => {
    const c = context(overrides);
    expect(keepYoungGenerationSmall(c)).toBe(false);
    expect(c.set).toEqual([]);
  });
});
