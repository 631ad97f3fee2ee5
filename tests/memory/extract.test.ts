import { describe, expect, it } from "vitest";
import { extractMemories } from "../../src/memory/extract.js";
import type { SessionOutcome } from "../../src/memory/types.js";

const outcome: SessionOutcome = {
  sessionId: "s-1",
  workspace: "/w",
  task: "Add a sum module with tests",
  status: "done",
  summary: "sum() and its tests are in place.",
  stop: null,
  plan: [
    { id: "s1", agent: "researcher", goal: "Find the test runner", status: "done", result: "vitest via npm test" },
    { id: "s2", agent: "coder", goal: "Write src/sum.ts and a test", status: "done", result: "wrote sum.ts; npm test passes" },
    { id: "s3", agent: "reviewer", goal: "Review", status: "done", result: "changes requested" },
    {
      id: "s4",
      agent: "coder",
      goal: "Fix the problems the reviewer found in s3: negative numbers",
      status: "done",
      result: "handled negatives",
      fixesReview: "s3",
    },
  ],
  findings: [{ source: "package.json:5", note: "tests run with vitest (npm test)" }],
  reviews: [
    { stepId: "s3", decision: "changes_requested", summary: "negatives break", problems: [{ file: "src/sum.ts", problem: "negative numbers are dropped" }] },
  ],
  commands: [
    { stepId: "s2", agent: "coder", command: "npm test", cwd: ".", exitCode: 1, timedOut: false },
    { stepId: "s4", agent: "coder", command: "npm test", cwd: ".", exitCode: 0, timedOut: false },
  ],
  filesChanged: ["src/sum.ts", "src/sum.test.ts"],
};

describe("extractMemories", () => {
  it("finds a review's fix by fixesReview, not by a step id inside a goal (s1 is not s12)", () => {
    const plan = [
      { id: "s1", agent: "reviewer", goal: "Review", status: "done", result: "changes requested" },
      { id: "s2", agent: "coder", goal: "Refactor what s12 left behind", status: "done", result: "unrelated work" },
      { id: "s3", agent: "coder", goal: "Fix the review", status: "done", result: "the real fix", fixesReview: "s1" },
    ];
    const reviews = [{ stepId: "s1", decision: "changes_requested" as const, summary: "bad", problems: [{ problem: "it breaks" }] }];
    const lesson = extractMemories({ ...outcome, plan, reviews, commands: [] }).find((d) => d.kind === "lesson");
    expect(lesson?.text).toBe('Review of "Add a sum module with tests" found: it breaks. Fixed by: the real fix');
  });

  it("keeps the outcome, decisions, lessons, files, commands and findings of a session", () => {
    const drafts = extractMemories(outcome);
    const byKind = (k: string) => drafts.filter((d) => d.kind === k).map((d) => d.text);
    expect(byKind("summary")[0]).toMatch(/Task "Add a sum module with tests" ended done: sum\(\) and its tests are in place/);
    expect(byKind("decision")).toHaveLength(2);
    expect(byKind("lesson")).toEqual([
      'Review of "Add a sum module with tests" found in src/sum.ts: negative numbers are dropped. Fixed by: handled negatives',
      '`npm test` failed (exit 1) during "Add a sum module with tests" and passed after the fixes of step s4.',
    ]);
    expect(byKind("file")[0]).toContain("src/sum.ts, src/sum.test.ts");
    expect(byKind("command")[0]).toContain("`npm test`");
    expect(drafts.find((d) => d.kind === "finding")).toEqual({ kind: "finding", text: "tests run with vitest (npm test)", source: "package.json:5" });
  });

  it("makes each memory one clean line, drops empty ones and keeps a repeated fact once", () => {
    const drafts = extractMemories({
      ...outcome,
      task: "Add a sum\nmodule  with tests",
      summary: "sum() is in place.\n\nIts tests pass.",
      findings: [
        { source: "package.json:5\n", note: "tests run with\n  vitest (npm test)" },
        { source: "package.json:5", note: "tests run with vitest (npm test)" },
        { source: "README.md", note: " \n " },
      ],
    });
    for (const d of drafts) expect(d.text).toBe(d.text.replace(/\s+/g, " ").trim());
    expect(drafts.find((d) => d.kind === "summary")?.text).toMatch(/^Task "Add a sum module with tests" ended done: sum\(\) is in place\. Its tests pass\./);
    expect(drafts.filter((d) => d.kind === "finding")).toEqual([{ kind: "finding", text: "tests run with vitest (npm test)", source: "package.json:5" }]);
  });

  it("turns a stopped session and failed steps into lessons", () => {
    const drafts = extractMemories({
      ...outcome,
      status: "limit_reached",
      summary: "",
      stop: { kind: "review_rounds", detail: "3 rounds of fixes were used" },
      plan: [{ id: "s1", agent: "coder", goal: "Migrate the DB", status: "failed", result: "psql is not installed" }],
      reviews: [],
      commands: [],
      findings: [],
      filesChanged: [],
    });
    const lessons = drafts.filter((d) => d.kind === "lesson").map((d) => d.text);
    expect(lessons).toContain('Step failed during "Add a sum module with tests": Migrate the DB — psql is not installed');
    expect(lessons.some((l) => l.includes("stopped (limit_reached): review rounds"))).toBe(true);
    expect(drafts.some((d) => d.kind === "file" || d.kind === "command")).toBe(false);
  });
});
