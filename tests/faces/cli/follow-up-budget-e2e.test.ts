import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useCliSession } from "./cli-session.js";
import { userText } from "../../helpers/scripted-openai-server.js";
import { FAREWELL_SOURCE, followUpScript } from "./follow-up-script.js";
import { roleOf } from "./task-script.js";

/**
 * Budgets count per turn. Every reply reports 1000 prompt + 100 completion tokens, so a token budget of 5000 stops
 * the first turn after its coder's run (5 calls, 5500 tokens, as in tests/models/cost/budget-e2e.test.ts). A follow-up turn
 * gets the same 5000 tokens again: counted over the whole session, its planner could not even be called.
 */
const session = useCliSession((req) => ({ ...followUpScript(req), usage: { promptTokens: 1000, completionTokens: 100 } }));
const cli = (args: string[]) => session.cli(args);

describe("a follow-up turn has its own budget", () => {
  it("a session stopped at its token budget runs again after --message, under the same budget; the hint counts the turn", async () => {
    const stopped = await cli(["run", "--budget-tokens", "5000", "Add greet with a test"]);
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain("Reason: token budget of 5000 reached (5500 used)");

    const start = session.server.requests.length;
    const followUp = await cli(["resume", "-m", "Add farewell(name) too"]);
    expect(followUp.stderr).toBe("");
    const after = session.server.requests.slice(start);
    expect(roleOf(after[0]!)).toBe("planner");
    expect(userText(after[0]!)).toContain("Follow-up instruction (turn 2): Add farewell(name) too");
    expect(after.some((r) => roleOf(r) === "coder")).toBe(true);
    expect(await fs.readFile(path.join(session.root, "src/farewell.js"), "utf8")).toBe(FAREWELL_SOURCE);
    // The turn used its 5000 tokens (and stopped in the final review): the reason and the hint name the session's
    // budget and the turn's usage, not sums with the turn before.
    const turnTokens = after.length * 1100;
    expect(followUp.code).toBe(1);
    expect(followUp.stdout).toContain(`Reason: token budget of 5000 reached (${turnTokens} used this turn)`);
    expect(followUp.stdout).toContain(`--budget-tokens <more than ${turnTokens}>`);
  });
});
