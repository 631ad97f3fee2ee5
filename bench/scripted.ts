import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import type { ModelProvider } from "../src/models/chat-model.js";
import { isBuiltinAgentName, type BuiltinAgentName as AgentName } from "../src/core/index.js";

/**
 * Instant scripted models for the benchmarks. `forRole` hands out a fresh fake model on every call (the
 * graph asks for a model once per planner turn and once per sub-agent model call), so a session can run for as
 * many steps as wanted without a queue that runs dry or a call history that keeps growing.
 */

export interface ScriptOptions {
  /** Sub-agent runs the planner asks for before it finishes. */
  runs: number;
  /** Which sub-agent does run `i` (0-based). */
  agentFor: (i: number) => AgentName;
  /**
   * Realistic reports: summaries of a few hundred characters, several findings, and coder/reviewer runs that
   * execute one (fast, harmless) shell command first. Off: each sub-agent finishes at once with a short report.
   */
  realistic: boolean;
}

function textOf(message: BaseMessage | undefined): string {
  return typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
}

let callIds = 0;
function toolCall(name: string, args: Record<string, unknown>): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: [{ name, args, id: `bench_${++callIds}`, type: "tool_call" }],
    usage_metadata: { input_tokens: 1200, output_tokens: 150, total_tokens: 1350 },
  });
}

const MODULES = ["parser", "lexer", "resolver", "printer", "cache", "config", "cli", "server", "router", "store"];
function moduleFor(i: number): string {
  return MODULES[i % MODULES.length] ?? "core";
}

/** Deterministic prose of about `length` characters that mentions the step, so no two reports are equal. */
function prose(i: number, topic: string, length: number): string {
  const mod = moduleFor(i);
  const sentences = [
    `Step ${i + 1} looked at ${topic} in src/${mod}/index.ts and its tests under tests/${mod}/.`,
    `The ${mod} module exports a factory that takes the workspace options and returns a handle with run() and close().`,
    `Errors are wrapped in a ${mod[0]?.toUpperCase() ?? ""}${mod.slice(1)}Error with a code and the offending path, and callers match on the code.`,
    `npm test runs vitest over tests/**/*.test.ts; the ${mod} suite has ${12 + (i % 9)} tests and all of them pass on a clean checkout.`,
    `Nothing else imports the private helpers, so they can change without touching other modules.`,
  ];
  let text = "";
  for (let k = 0; text.length < length; k++) text += `${sentences[k % sentences.length] ?? ""} `;
  return text.slice(0, length).trimEnd();
}

function planStep(i: number, agent: AgentName, realistic: boolean) {
  const mod = moduleFor(i);
  if (!realistic) return { agent, goal: `Step ${i + 1}: look at the ${mod} module.`, acceptanceCriteria: [] };
  const goals: Record<AgentName, string> = {
    researcher: `Find how the ${mod} module is structured, which functions the task touches, how its errors are reported and which command runs its tests; report each fact with file and line numbers.`,
    coder: `Change src/${mod}/index.ts so that the new option is read from the workspace config and passed through to run(); add a test in tests/${mod}/options.test.ts and run it.`,
    reviewer: `Review the change to src/${mod}/ against the task: check the new option is documented, validated and covered by a test, and run the ${mod} test suite.`,
  };
  return {
    agent,
    goal: goals[agent],
    acceptanceCriteria: [`npm test -- tests/${mod} exits 0`, `the ${mod} module still exports the same public functions`],
  };
}

function subAgentReplies(role: AgentName, i: number, realistic: boolean): AIMessage[] {
  const mod = moduleFor(i);
  const command = `test -f package.json && echo "vitest run tests/${mod}: ${12 + (i % 9)} passed"`;
  switch (role) {
    case "researcher":
      return [
        toolCall("submit_findings", {
          summary: realistic ? prose(i, `the ${mod} module`, 320) : `Step ${i + 1} done.`,
          findings: realistic
            ? [
                { source: `src/${mod}/index.ts:12-48`, note: prose(i + 1, "the factory", 140) },
                { source: `src/${mod}/errors.ts:3-20`, note: prose(i + 2, "error handling", 120) },
                { source: `package.json:7`, note: `"test": "vitest run" runs the suite; tests/${mod}/ holds ${12 + (i % 9)} tests.` },
              ]
            : [],
        }),
      ];
    case "coder":
      return [
        ...(realistic ? [toolCall("execute_command", { command })] : []),
        toolCall("submit_work", { status: "done", summary: realistic ? prose(i, `the change to ${mod}`, 300) : `Step ${i + 1} done.` }),
      ];
    case "reviewer":
      return [
        ...(realistic ? [toolCall("execute_command", { command })] : []),
        toolCall("submit_review", { decision: "approve", summary: realistic ? prose(i, `the review of ${mod}`, 260) : "Approved.", problems: [] }),
      ];
  }
}

export function benchModels(options: ScriptOptions): ModelProvider & { plannerTurns(): number } {
  let plannerTurns = 0;
  let runIndex = 0;
  const runs = new Map<string, number>();
  return {
    plannerTurns: () => plannerTurns,
    forRole(role) {
      let model = fakeModel();
      if (role === "planner") {
        // One answer per turn; a couple of spares in case the graph ever retries.
        for (let k = 0; k < 3; k++) {
          model = model.respond(() => {
            const turn = plannerTurns++;
            if (turn >= options.runs) {
              return toolCall("update_plan", {
                remainingSteps: [],
                finished: true,
                outcome: "done",
                summary: `Finished after ${options.runs} sub-agent runs.`,
              });
            }
            return toolCall("update_plan", { remainingSteps: [planStep(turn, options.agentFor(turn), options.realistic)], finished: false });
          });
        }
        return model;
      }
      // The agent asks for its model at every call: answer from the prompt, by the run (its brief) and the number
      // of replies it already holds.
      return model.respond((messages: BaseMessage[]) => {
        const brief = textOf(messages.find((m) => m.getType() === "human"));
        let run = runs.get(brief);
        if (run === undefined) {
          run = runIndex++;
          runs.set(brief, run);
        }
        const replied = messages.filter((m) => m.getType() === "ai").length;
        if (!isBuiltinAgentName(role)) throw new Error(`no script for ${role}`);
        const replies = subAgentReplies(role, run, options.realistic);
        return replies[Math.min(replied, replies.length - 1)] ?? toolCall("submit_work", { status: "done", summary: "done" });
      });
    },
    describe: (role) => `bench-${role}`,
  };
}
