import type { WorkspaceStateValue } from "../../src/graph/state.js";

/** A whole session state for pure tests of graph helpers: a small plan-less session, with `over` on top. */
export function sessionState(over: Partial<WorkspaceStateValue> = {}): WorkspaceStateValue {
  return {
    task: "t",
    workspace: "/w",
    plan: [],
    foldedSteps: { done: 0, failed: 0, skipped: 0 },
    stepStart: null,
    currentStepId: null,
    route: null,
    lastReport: null,
    findings: [],
    filesChanged: [],
    commands: [],
    reviews: [],
    usage: {},
    memories: [],
    memoriesRecalled: false,
    limits: { maxPlanRevisions: 5, maxAgentRuns: 5, maxReviewRounds: 2, maxModelCallsPerRun: 5, maxPromptTokens: 32_000, maxQuestions: 3 },
    counters: { planRevisions: 0, agentRuns: 0, reviewRounds: 0, questions: 0 },
    reviewsWithoutVerdict: 0,
    safety: { approval: "auto", approveFileChanges: false, allow: [], deny: [], allowNetwork: false },
    approvedPatterns: [],
    status: "running",
    stop: null,
    continued: null,
    turn: null,
    plannerQuestion: null,
    answers: [],
    summary: "",
    finalReport: "",
    ...over,
  };
}
