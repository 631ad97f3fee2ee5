import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { ASK_USER_TOOL_NAME, askUserArgsSchema } from "../core/index.js";

/**
 * The ask_user tool as the model sees it. It never runs as a function: the session pauses for the person's answer
 * (a LangGraph interrupt) and the answer comes back as its result (src/agents/middleware/ask-user.ts, and the
 * planner node for the planner).
 */
export const askUserTool: StructuredToolInterface = tool(() => Promise.reject(new Error("ask_user is answered by the person")), {
  name: ASK_USER_TOOL_NAME,
  description:
    "Ask the person a clarifying question and wait for the answer. Only when the task is ambiguous in a way that changes the result and the workspace cannot tell you (two plausible designs, a missing required value); never for what you can find out by reading files, or for choices with an obvious default. Questions per turn are limited.",
  schema: askUserArgsSchema,
});
