import type { ScriptedReply, ScriptedRequest } from "../../helpers/scripted-openai-server.js";
import { toolResults, userText } from "../../helpers/scripted-openai-server.js";
import { roleOf } from "./task-script.js";

/** A real TypeScript project's files (link this repository's typescript into it: tests/helpers/repo-packages.ts). */
export const TS_PROJECT: Record<string, string> = {
  "package.json": '{ "name": "demo", "type": "module" }\n',
  "tsconfig.json": JSON.stringify({
    compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", noEmit: true },
    include: ["src"],
  }),
  "src/index.ts": "export const name = 'demo';\n",
};

/**
 * A coder that writes a type error into src/count.ts and then fixes it, and a reviewer that asks for the project's
 * diagnostics, planned as two steps: what diagnostics after edits are checked with, through any face.
 */
export function diagnosticsScript(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    if (userText(req).includes("There is no plan yet")) {
      return {
        toolCalls: [
          {
            name: "update_plan",
            args: {
              remainingSteps: [
                { agent: "coder", goal: "Add src/count.ts exporting a number" },
                { agent: "reviewer", goal: "Check the project type-checks" },
              ],
              finished: false,
            },
          },
        ],
      };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Added src/count.ts." } }] };
  }
  if (role === "coder") {
    const steps = [
      { name: "write_file", args: { path: "src/count.ts", content: 'export const count: number = "three";\n' } },
      { name: "edit_file", args: { path: "src/count.ts", oldText: '"three"', newText: "3" } },
      { name: "submit_work", args: { status: "done", summary: "Added src/count.ts; the type error the diagnostics showed is fixed." } },
    ];
    return { toolCalls: [steps[Math.min(toolResults(req).length, steps.length - 1)]!] };
  }
  if (role === "reviewer") {
    const steps = [
      { name: "project_diagnostics", args: {} },
      { name: "submit_review", args: { decision: "approve", summary: "The project type-checks.", problems: [] } },
    ];
    return { toolCalls: [steps[Math.min(toolResults(req).length, steps.length - 1)]!] };
  }
  return { content: "Nothing to do." };
}
