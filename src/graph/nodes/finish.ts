import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { logger } from "../../platform/logger.js";
import type { GraphDeps } from "../deps.js";
import { renderFinalReport } from "../report.js";
import type { WorkspaceStateUpdate, WorkspaceStateValue } from "../state.js";
import { errorMessage } from "../../platform/error-info.js";

/** Writes the final report and hands the outcome to long-term memory. */
export function createFinishNode(deps: GraphDeps) {
  return async (state: WorkspaceStateValue, config: LangGraphRunnableConfig): Promise<WorkspaceStateUpdate> => {
    const status = state.status === "running" ? "done" : state.status;
    const finalReport = renderFinalReport({ ...state, status }, deps.prices);
    const sessionId = typeof config.configurable?.thread_id === "string" ? config.configurable.thread_id : "";
    try {
      await deps.memory.remember({
        sessionId,
        workspace: state.workspace,
        task: state.task,
        status,
        summary: state.summary,
        stop: state.stop,
        plan: state.plan.map(({ id, agent, goal, status: stepStatus, result, fixesReview }) => ({
          id,
          agent,
          goal,
          status: stepStatus,
          result,
          ...(fixesReview ? { fixesReview } : {}),
        })),
        findings: state.findings.map(({ source, note }) => ({ source, note })),
        reviews: state.reviews,
        commands: state.commands,
        filesChanged: state.filesChanged,
      });
    } catch (error) {
      // Memory is a bonus: never lose a finished session over it.
      logger.warn(`could not store the session in memory: ${errorMessage(error)}`);
    }
    return { status, finalReport, route: null, currentStepId: null };
  };
}
