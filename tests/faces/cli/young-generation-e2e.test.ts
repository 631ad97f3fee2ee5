import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-process.js";
import { useCliSession } from "./cli-session.js";
import { greetScript } from "./task-script.js";

/**
 * The built CLI keeps V8's young generation at the size it had before the app loaded (src/platform/young-generation.ts).
 * A preloaded probe (tests/platform/fixtures) runs, as the process exits, a workload that makes V8 grow the young
 * generation, and reports how large the new space got: it did not grow after a whole session, and did for commands
 * that never load the app and when the user sized the young generation in NODE_OPTIONS.
 */

const PROBE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../platform/fixtures/young-generation-probe.mjs");
const MB = 1024 * 1024;
const session = useCliSession(greetScript);

/** The probe is loaded by the CLI's own command line: in NODE_OPTIONS it would reach the Node processes the CLI starts. */
async function probed(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; atExit: number; max: number }> {
  const file = path.join(session.root, `.probe-${Math.random().toString(36).slice(2)}.json`);
  const result = await runCli(args, { cwd: session.root, env: { ...session.env, ...env, YOUNG_GENERATION_PROBE_FILE: file }, nodeArgs: ["--import", PROBE] });
  const probe = JSON.parse(await fs.readFile(file, "utf8")) as { atExit: number; max: number };
  return { code: result.code, stderr: result.stderr, ...probe };
}

describe("the CLI's young generation", () => {
  it("stays at its size through a whole session, and grows where the CLI leaves V8 its default", async () => {
    const run = await probed(["run", "Add greet with a test"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.max).toBe(run.atExit);
    expect(run.atExit).toBeLessThanOrEqual(4 * MB);

    // --version never loads the app, so nothing is set: the same workload grows the new space.
    const version = await probed(["--version"]);
    expect(version.code).toBe(0);
    expect(version.max).toBeGreaterThan(8 * MB);

    // The user's own choice of size, in NODE_OPTIONS, is left alone.
    const chosen = await probed(["sessions", "delete", "none-such"], { NODE_OPTIONS: "--max-semi-space-size=16" });
    expect(chosen.code).not.toBe(0);
    expect(chosen.max).toBeGreaterThan(8 * MB);
  });
});
