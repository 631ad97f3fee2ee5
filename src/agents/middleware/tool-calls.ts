import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, ToolInputParsingException } from "@langchain/core/tools";
import { createMiddleware, ToolInvocationError } from "langchain";
import { z } from "zod";
import { TOOL_FACTORIES, type ToolName } from "../../tools/index.js";
import { isExtensionToolName } from "../../services/mcp/types.js";
import { offeredExtensionTools, offeredTools, toolAvailability } from "../agent-tools.js";
import { runOf } from "../run.js";
import { resultCharsFor } from "../../tools/tool-scope.js";
import { AgentRunState } from "../run.js";
import { isArtifact } from "../run.js";
import { callAskingThroughInterrupts } from "./elicit-interrupt.js";
import type { ExtensionProgress } from "../../services/mcp/index.js";
import { parseSearchArgs, rankTools, SEARCH_MCP_TOOLS, searchResultText } from "../../services/mcp/tool-search.js";
import { ASK_USER_TOOL_NAME, stoppedText } from "../../core/index.js";
import { refuseUnapproved } from "./approval.js";
import { answerCall } from "./reply-gate.js";
import type { AgentDeps } from "./deps.js";
import { errorMessage } from "../../platform/error-info.js";

/** The argument a person watching wants to see for each call. */
export function describeCall(args: unknown): string {
  if (typeof args !== "object" || args === null) return "";
  const record = args as Record<string, unknown>;
  for (const key of ["command", "path", "pattern", "query", "url", "name", "process"]) {
    const value = record[key];
    if (typeof value === "string") return value.length > 120 ? `${value.slice(0, 117)}...` : value;
  }
  return "";
}

function firstLine(content: unknown): string {
  const text = typeof content === "string" ? content : JSON.stringify(content);
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function formatZodIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

function errorReply(callId: string, name: string, text: string): ToolMessage {
  return new ToolMessage({ tool_call_id: callId, name, content: `Error: ${text}`, status: "error" });
}

/** The named tools' definitions (their prompt cost is measured from these); an agent's own are agent-tools.ts'. */
export function declaredTools(names: readonly ToolName[]): StructuredToolInterface[] {
  return names.map((name) => TOOL_FACTORIES[name]({ root: "/" }));
}

/** The error a tool threw, as LangChain's tool node passes it on (schema errors arrive wrapped). */
function toolError(error: unknown): unknown {
  return ToolInvocationError.isInstance(error) ? error.toolError : error;
}

/**
 * Runs each tool call on its recorded approval decision, through LangChain's tool node (the handler), where the
 * agent's tools are built once and read the run's workspace, sandbox and limits from the runtime context
 * (agent-tools.ts). Nothing the model sends can crash the run: a tool the agent is not offered, arguments that are
 * not JSON or fail the schema, and tool exceptions all come back as tool errors the model can correct. MCP tools are
 * not in the tool node: they run in their servers (src/services/mcp).
 */
export function toolCallsMiddleware(deps: Pick<AgentDeps, "spec" | "emit" | "memory" | "tools" | "extensions" | "forceAsk" | "commandRules" | "elicit">) {
  const { spec } = deps;

  return createMiddleware({
    name: "ToolCalls",
    stateSchema: AgentRunState,
    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const state = runOf(request.state, request.runtime.context);
      const id = toolCall.id ?? "";
      const name = toolCall.name;
      const emitResult = (ok: boolean, detail: string, exitCode?: number | null) =>
        deps.emit({ type: "tool_result", agent: spec.name, stepId: state.stepId, tool: name, ok, detail, ...(exitCode !== undefined ? { exitCode } : {}) });
      const last = state.messages.findLast((m) => AIMessage.isInstance(m));
      const bad = last && AIMessage.isInstance(last) ? (last.invalid_tool_calls ?? []).find((c) => c.id === id) : undefined;
      if (bad) {
        emitResult(false, "invalid JSON arguments");
        return errorReply(
          id,
          name,
          `the arguments for ${name} were not valid JSON (${bad.error ?? "parse error"}). Call ${name} again with a valid JSON object.`,
        );
      }
      // Denied by a rule, rejected by the person, or never decided: the model gets the reason (approval.ts).
      const refused = refuseUnapproved(state, toolCall, deps);
      if (refused) return refused;
      // Answered by the person in the reply gate (reply-gate.ts); never run as a function.
      if (name === ASK_USER_TOOL_NAME) return answerCall(state, toolCall);
      if (name === spec.finishTool.name) {
        const parsed = spec.finishTool.schema.safeParse(toolCall.args);
        if (!parsed.success) return errorReply(id, name, `invalid arguments: ${formatZodIssues(parsed.error)}. Fix them and call ${name} again.`);
        return new ToolMessage({ tool_call_id: id, name, content: "Recorded. Your run is complete." });
      }
      const offered = offeredTools(spec, state.safety, toolAvailability(deps.tools, deps.memory.enabled, state.workspace)) as ToolName[];
      const extensions = offeredExtensionTools(spec, state.safety, deps.extensions, state.workspace);
      if (name === SEARCH_MCP_TOOLS && extensions.length > 0) {
        // Answered here, from the MCP tools this agent has (src/services/mcp/tool-search.ts).
        const args = parseSearchArgs(toolCall.args);
        if (!args) {
          emitResult(false, "invalid arguments");
          return errorReply(id, name, `invalid arguments for ${name}: pass { "query": "what the tool should do" }.`);
        }
        deps.emit({ type: "tool_call", agent: spec.name, stepId: state.stepId, tool: name, detail: args.query });
        const found = rankTools(extensions, args.query, args.limit);
        emitResult(true, `${found.length} of ${extensions.length} MCP tools found`);
        return new ToolMessage({ tool_call_id: id, name, content: searchResultText(found, args.query, extensions.length) });
      }
      if (isExtensionToolName(name) && deps.extensions && extensions.some((t) => t.name === name)) {
        // An MCP tool: it runs in its server (outside our sandbox); failures and timeouts come back as tool errors.
        deps.emit({ type: "tool_call", agent: spec.name, stepId: state.stepId, tool: name, detail: describeCall(toolCall.args) || firstLine(toolCall.args) });
        const extensionTools = deps.extensions;
        const options = {
          outputLimitChars: resultCharsFor(deps.tools?.outputLimitChars, state.maxPromptTokens),
          onProgress: (p: ExtensionProgress) => deps.emit({ type: "tool_progress", tool: name, ...p }),
        };
        const result =
          deps.elicit === "interrupt"
            ? await callAskingThroughInterrupts(
                (elicit, signal) => extensionTools.call(state.workspace, name, toolCall.args, { ...options, elicit, signal }),
                request.runtime.signal,
              )
            : await extensionTools.call(state.workspace, name, toolCall.args, {
                ...options,
                ...(request.runtime.signal ? { signal: request.runtime.signal } : {}),
                ...(deps.elicit ? { elicit: deps.elicit } : {}),
              });
        // A call the run's abort cut short says who stopped it, as the tool node's calls do (below).
        const signal = request.runtime.signal;
        const text = !result.ok && signal?.aborted ? `${name} was ${stoppedText(signal.reason)}` : result.text;
        emitResult(result.ok, firstLine(text));
        return new ToolMessage({ tool_call_id: id, name, content: result.ok ? text : `Error: ${text}`, status: result.ok ? "success" : "error" });
      }
      if (!offered.includes(name as ToolName) || !(name in TOOL_FACTORIES)) {
        emitResult(false, "not available");
        const available = [...offered, ...extensions.map((t) => t.name), spec.finishTool.name];
        return errorReply(id, name, `tool "${name}" is not available to the ${spec.name}. Available tools: ${available.join(", ")}.`);
      }
      deps.emit({ type: "tool_call", agent: spec.name, stepId: state.stepId, tool: name, detail: describeCall(toolCall.args) });
      try {
        const result = await handler(request);
        if (!ToolMessage.isInstance(result)) return result;
        const artifact: unknown = result.artifact;
        const ok = isArtifact(artifact) ? artifact.ok : result.status !== "error";
        // The artifact stays with the result: the run's report is read from it (src/agents/run.ts).
        const out = new ToolMessage({ tool_call_id: id, name, content: result.content, artifact, status: ok ? "success" : "error" });
        emitResult(ok, firstLine(result.content), isArtifact(artifact) ? artifact.command?.exitCode : undefined);
        return out;
      } catch (thrown) {
        const error = toolError(thrown);
        // Cut short by the run's abort (Ctrl-C, an editor's cancel): who stopped it, not "This operation was aborted".
        const signal = request.runtime.signal;
        const text =
          error instanceof ToolInputParsingException
            ? `invalid arguments for ${name}: ${error.message.replace(/\s+/g, " ")}. Check the tool's schema and call it again.`
            : signal?.aborted
              ? `${name} was ${stoppedText(signal.reason)}`
              : `${name} failed unexpectedly: ${errorMessage(error)}`;
        emitResult(false, firstLine(text));
        return errorReply(id, name, text);
      }
    },
  });
}
