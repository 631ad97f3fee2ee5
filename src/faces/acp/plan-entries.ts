import type { PlanEntry } from "@agentclientprotocol/sdk";
import type { PlanStepView } from "../../core/index.js";

/** ACP plan entries have three states; a failed or skipped step is finished too, and says so in its text. */
export function planEntries(steps: readonly PlanStepView[]): PlanEntry[] {
  return steps.map((step) => {
    const finished = step.status === "done" || step.status === "failed" || step.status === "skipped";
    const note = step.status === "failed" ? " (failed)" : step.status === "skipped" ? " (skipped)" : "";
    return {
      content: `${step.id} ${step.agent}: ${step.goal}${note}`,
      priority: "medium",
      status: finished ? "completed" : step.status === "in_progress" ? "in_progress" : "pending",
    };
  });
}
