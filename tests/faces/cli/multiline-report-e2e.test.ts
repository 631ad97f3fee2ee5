import { describe, expect, it } from "vitest";
import { useCliSession } from "./cli-session.js";
import { multilineScript } from "./multiline-script.js";

const cli = useCliSession(multilineScript);

async function reportOf(args: string[]): Promise<string> {
  const run = await cli.cli(["run", "--json", ...args]);
  const finished = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; report?: string })
    .find((e) => e.type === "session_finished");
  expect(finished?.report, run.stdout + run.stderr).toBeDefined();
  return finished?.report ?? "";
}

/** The report's lines from its first section on that start at column 0 without being a section's heading. */
function strayLines(report: string): string[] {
  const sections = report.slice(report.indexOf("\nDone:") + 1).split("\n");
  const heading = /^(Done:|Not done:|Files changed \(\d+\):|Commands:|Review: |Tokens: |Cost: )/;
  return sections.filter((l) => l !== "" && !l.startsWith(" ") && !heading.test(l));
}

describe("the final report with model text over several lines", () => {
  it("starts continuation lines under their item's text, never at column 0, and keeps each section together", async () => {
    const report = await reportOf(["Make the banner say goodbye until approved"]);
    expect(report).toContain("Done: Make the banner say goodbye until approved\nThe banner says hello and goodbye.\nIts test still misses a line.\n");
    expect(report).toContain("  ✓ s1 [researcher] Find the banner\n      and its tests — Found it.\n");
    expect(report).toContain("  ✓ s2 [coder] Change the banner:\n    - say hello\n    - say goodbye — Changed the banner.\n    Both lines print.\n");
    expect(report).toContain("  [coder s2] echo hello\n    echo goodbye → exit 0\n");
    expect(report).toMatch(/\nReview: approve \(s\d+\) — The banner prints both lines\.\n {2}It has no test\.\n/);
    expect(strayLines(report)).toEqual([]);
  });

  it("indents a review's problems the same way", async () => {
    const report = await reportOf(["--max-review-rounds", "1", "Make the banner say goodbye"]);
    expect(report).toMatch(/\nReview: changes_requested \(s\d+\) — The banner prints both lines\.\n {2}It has no test\.\n/);
    expect(report).toContain("\n  - test/banner.test.js: The test does not check\n      the second line\n");
    expect(strayLines(report)).toEqual([]);
  });
});
