import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GROWTH_FLAG, keepYoungGenerationSmall, type YoungGenerationContext } from "../../src/platform/young-generation.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROBE = path.join(HERE, "fixtures", "young-generation-probe.mjs");
const MODULE = path.resolve(HERE, "../../src/platform/young-generation.ts");
const MB = 1024 * 1024;

function context(overrides: Partial<YoungGenerationContext>): YoungGenerationContext & { set: string[] } {
  const set: string[] = [];
  return { execArgv: [], nodeOptions: undefined, nodeVersion: "20.20.2", setFlags: (flags) => set.push(flags), set, ...overrides };
}

describe("keepYoungGenerationSmall", () => {
  const ws = useTempWorkspace();

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

  it("keeps a real process's new space at the size it had, where V8 otherwise grows it", () => {
    const run = (call: boolean): { atExit: number; max: number } => {
      const file = path.join(ws.root, `probe-${call}`);
      const code = call ? `const m = await import(${JSON.stringify(MODULE)}); if (!m.keepYoungGenerationSmall()) process.exit(3);` : "";
      execFileSync(process.execPath, ["--import", "tsx", "--import", PROBE, "--input-type=module", "-e", code], {
        env: { ...process.env, YOUNG_GENERATION_PROBE_FILE: file },
      });
      return JSON.parse(fs.readFileSync(file, "utf8")) as { atExit: number; max: number };
    };
    // The same workload: V8's default grows the new space past 8 MB; once capped it does not grow at all.
    expect(run(false).max).toBeGreaterThan(8 * MB);
    const capped = run(true);
    expect(capped.max).toBe(capped.atExit);
    expect(capped.max).toBeLessThanOrEqual(4 * MB);
  });
});
