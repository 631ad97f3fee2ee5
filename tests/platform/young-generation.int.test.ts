import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useTempWorkspace } from "../helpers/temp-workspace.js";

// A real Node process with the probe (young-generation.test.ts checks the decision alone).
const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROBE = path.join(HERE, "fixtures", "young-generation-probe.mjs");
const MODULE = path.resolve(HERE, "../../src/platform/young-generation.ts");
const MB = 1024 * 1024;

describe("keepYoungGenerationSmall", () => {
  const ws = useTempWorkspace();

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
