import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Annotation, END, MessagesAnnotation, START, StateGraph, type BaseCheckpointSaver, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import type { z } from "zod";
import { finishTools, planTool, workspaceTools } from "./tools.js";

/**
 * The bare baseline: a planner node with one plan tool routing to three ReAct subgraphs (researcher, coder,
 * reviewer), each compiled once and mounted as a subgraph, checkpointed by the saver given. Written like a
 * LangGraph example on purpose: no safety layers, budgets, memory, undo, loop guard or context trimming.
 */

type Role = keyof typeof finishTools;
type Step = z.infer<typeof planTool.schema>["remainingSteps"][number];
type FinishTool = (typeof finishTools)[Role];

const Session = Annotation.Root({
  task: Annotation<string>(),
  workspace: Annotation<string>(),
  plan: Annotation<Step[]>({ reducer: (_, next) => next, default: () => [] }),
  agentRuns: Annotation<number>({ reducer: (_, next) => next, default: () => 0 }),
  lastReport: Annotation<string>({ reducer: (_, next) => next, default: () => "" }),
  status: Annotation<string>({ reducer: (_, next) => next, default: () => "running" }),
});
type SessionState = typeof Session.State;

/** A ReAct loop: call the model, run the tools it asks for, repeat until it calls the finish tool or only talks. */
function reactAgent(model: BaseChatModel, tools: StructuredToolInterface[], finish: FinishTool) {
  if (!model.bindTools) throw new Error("the model cannot call tools");
  const bound = model.bindTools([...tools, finish]);
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await bound.invoke(state.messages)] }))
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "agent")
    .addConditionalEdges(
      "agent",
      (state) => {
        const calls = (state.messages.at(-1) as AIMessage).tool_calls ?? [];
        return calls.length === 0 || calls.some((c) => c.name === finish.name) ? END : "tools";
      },
      ["tools", END],
    )
    .addEdge("tools", "agent")
    .compile();
}

const PLANNER_PROMPT = `You are the planner of a coding agent. Split the task into steps for a researcher, a coder and a reviewer.
Always answer by calling update_plan: remainingSteps are the steps still to do, in order. Set finished when the task is done.`;

const agentPrompt = (role: Role, workspace: string, tools: string[]) =>
  `You are the ${role} of a coding agent. Workspace root: ${workspace}. Your tools: ${tools.join(", ")}. Call ${finishTools[role].name} when the step is done.`;

export function buildBareGraph(model: BaseChatModel, workspace: string, checkpointer: BaseCheckpointSaver) {
  const t = workspaceTools(workspace);
  const toolsOf: Record<Role, StructuredToolInterface[]> = {
    researcher: [t.readFile, t.listDirectory, t.searchCode],
    coder: [t.readFile, t.listDirectory, t.searchCode, t.writeFile, t.editFile, t.executeCommand],
    reviewer: [t.readFile, t.listDirectory, t.searchCode, t.executeCommand],
  };
  const roles: Role[] = ["researcher", "coder", "reviewer"];
  const agents = Object.fromEntries(roles.map((r) => [r, reactAgent(model, toolsOf[r], finishTools[r])])) as Record<Role, ReturnType<typeof reactAgent>>;
  if (!model.bindTools) throw new Error("the model cannot call tools");
  const planner = model.bindTools([planTool], { tool_choice: planTool.name });

  const plannerNode = async (state: SessionState) => {
    const context = [
      `Task: ${state.task}`,
      `Workspace: ${state.workspace}`,
      state.lastReport ? `Latest report: ${state.lastReport}` : "There is no plan yet. Make the first plan.",
      `Budget used: sub-agent runs ${state.agentRuns}/20.`,
      "Call update_plan now.",
    ].join("\n");
    const answer = await planner.invoke([new SystemMessage(PLANNER_PROMPT), new HumanMessage(context)]);
    const call = answer.tool_calls?.find((c) => c.name === planTool.name);
    if (!call) return { status: "failed" };
    const args = planTool.schema.parse(call.args);
    if (args.finished) return { status: args.outcome ?? "done", plan: [] };
    return { plan: args.remainingSteps };
  };

  const subAgentNode = (role: Role) => async (state: SessionState, config: LangGraphRunnableConfig) => {
    const step = state.plan[0];
    const brief = `Task: ${state.task}\nYour step: ${step?.goal ?? ""}\nAcceptance criteria: ${(step?.acceptanceCriteria ?? []).join("; ")}`;
    const tools = [...toolsOf[role].map((x) => x.name), finishTools[role].name];
    const result = await agents[role].invoke({ messages: [new SystemMessage(agentPrompt(role, workspace, tools)), new HumanMessage(brief)] }, config);
    const last = result.messages.at(-1) as AIMessage;
    const finish = last.tool_calls?.find((c) => c.name === finishTools[role].name);
    const report = finish ? JSON.stringify(finish.args) : String(last.content);
    return { agentRuns: state.agentRuns + 1, plan: state.plan.slice(1), lastReport: `(${role}) ${report}` };
  };

  const graph = new StateGraph(Session)
    .addNode("planner", plannerNode)
    .addNode("researcher", subAgentNode("researcher"), { subgraphs: [agents.researcher] })
    .addNode("coder", subAgentNode("coder"), { subgraphs: [agents.coder] })
    .addNode("reviewer", subAgentNode("reviewer"), { subgraphs: [agents.reviewer] })
    .addEdge(START, "planner")
    .addConditionalEdges("planner", (state) => (state.status !== "running" || state.plan.length === 0 ? END : (state.plan[0]?.agent ?? END)), [...roles, END])
    .addEdge("researcher", "planner")
    .addEdge("coder", "planner")
    .addEdge("reviewer", "planner");
  return graph.compile({ checkpointer });
}
