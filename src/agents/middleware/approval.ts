import os from "node:os";
import path from "node:path";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { isExtensionToolName } from "../../mcp/types.js";
import { allowingPatterns, commandPatternFor, evaluateCommand, matchesText } from "../../safety/command-rules.js";
import { approvalAnswerSchema, runsLaterReason, type ApprovalRequest, type SafetyPolicy } from "../../core/index.js";
import { withRunSettings, type AgentRunUpdate, type AgentRunValue, type Decision } from "../run-state.js";
import type { ToolArtifact } from "../../tools/types.js";
import type { AgentDeps } from "./deps.js";
import { landingRelative } from "./landing-path.js";

const FILE_TOOLS = new Set(["write_file", "edit_file"]);
/** Tools that run a shell command: the same rules and approvals (start_process starts one in the background). */
const COMMAND_TOOLS = new Set(["execute_command", "start_process"]);

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** One grant per file however it is spelled: `./src/a.ts`, `src/a.ts` and `/ws/src/a.ts` are the same file. */
export function filePattern(file: string, workspace: string): string {
  const rel = path.isAbsolute(file) && workspace ? path.relative(workspace, file) : file;
  return `file:${path.posix.normalize(rel.split(path.sep).join("/")).replace(/^(\.\/)+/, "")}`;
}

function filePreview(tool: string, args: Record<string, unknown>): string {
  const clipLines = (text: string, prefix: string) => {
    const lines = text.split("\n");
    const shown = lines.slice(0, 40).map((l) => `${prefix}${l}`);
    return lines.length > 40 ? [...shown, `${prefix}… (${lines.length - 40} more lines)`].join("\n") : shown.join("\n");
  };
  if (tool === "write_file") return `write ${str(args.path)}:\n${clipLines(str(args.content), "+ ")}`;
  return `edit ${str(args.path)}${args.replaceAll === true ? " (every occurrence)" : ""}:\n${clipLines(str(args.oldText), "- ")}\n${clipLines(str(args.newText), "+ ")}`;
}

/** Pauses for a person's answer; an answer that does not parse counts as a rejection saying so. */
function ask(allowPatterns: string[], request: ApprovalRequest, workspace: string): Decision {
  const raw: unknown = interrupt(request);
  const answer = approvalAnswerSchema.safeParse(raw);
  if (!answer.success) return { decision: "reject", reason: "the approval answer was not understood" };
  if (answer.data.decision === "always") {
    const { pattern } = answer.data;
    allowPatterns.push(pattern.startsWith("file:") ? filePattern(pattern.slice(5), workspace) : pattern);
    return { decision: "approve", reason: "" };
  }
  if (answer.data.decision === "reject") return { decision: "reject", reason: answer.data.reason };
  return { decision: "approve", reason: "" };
}

type ApprovalDeps = Pick<AgentDeps, "spec" | "emit" | "forceAsk" | "extensions">;

/**
 * The approval gate between the model and the tools (run by middleware/reply-gate.ts for every reply with tool
 * calls). Hand-written rather than LangChain's humanInTheLoopMiddleware, which asks about all calls of a reply in one
 * request, drops the approved calls when one is rejected, and has no rule denials with a reason or "always" grants
 * that cover the rest of the session.
 *
 * It has no side effects, so when the run resumes after an answer it runs again safely: earlier `interrupt()` calls
 * return their recorded answers. Rules decide first (deny beats allow); in "ask" mode everything else pauses the
 * session for a person. The tools then refuse what was denied or rejected (refuseUnapproved).
 */
export function approvalDecisions(
  runState: AgentRunValue,
  deps: ApprovalDeps,
  configurable?: Readonly<Record<string, unknown>>,
): Pick<AgentRunUpdate, "decisions" | "allowPatterns"> | undefined {
  // The policy of the run's configurable wins: a pending approval is judged again under a policy changed on resume.
  const state = withRunSettings(runState, configurable);
  const last = state.messages.at(-1);
  if (!last || !AIMessage.isInstance(last) || (last.tool_calls ?? []).length === 0) return undefined;
  const invalid = new Set((last.invalid_tool_calls ?? []).map((c) => c.id));
  const decisions: Record<string, Decision> = {};
  const allowPatterns = [...state.allowPatterns];
  let recorded = false;
  for (const call of last.tool_calls ?? []) {
    const id = call.id ?? "";
    if (invalid.has(id)) continue;
    const verdict = judge(call.name, call.args, state, allowPatterns, deps);
    if (verdict === "approve") continue;
    decisions[id] = "ask" in verdict ? ask(allowPatterns, { type: "approval", agent: deps.spec.name, stepId: state.stepId, ...verdict.ask }, state.workspace) : verdict;
    recorded = true;
  }
  // Nothing but approvals by rule or mode: no update. Every update of a hook rewrites the whole run state (LangChain
  // merges it into the state), and the tools judge these calls again the same way (refuseUnapproved).
  return recorded ? { decisions, allowPatterns } : undefined;
}

type Verdict = "approve" | Decision | { ask: Omit<ApprovalRequest, "type" | "agent" | "stepId"> };

/** What the rules and the approval mode say about one call, without asking anyone. */
function judge(name: string, args: Record<string, unknown>, state: AgentRunValue, allowPatterns: readonly string[], deps: ApprovalDeps): Verdict {
  // Without a real sandbox nothing runs unasked.
  const safety: SafetyPolicy = deps.forceAsk && state.safety.approval === "auto" ? { ...state.safety, approval: "ask" } : state.safety;
  if (isExtensionToolName(name)) return judgeExtension(name, args, state, safety, allowPatterns, deps);
  if (COMMAND_TOOLS.has(name)) {
    const command = str(args.command);
    const cwd = str(args.cwd) || ".";
    const rules = evaluateCommand(command, { workspace: state.workspace, home: os.homedir(), cwd, rules: { allow: safety.allow, deny: safety.deny } });
    if (rules.decision === "deny") return { decision: "deny", reason: rules.reason };
    // Patterns approved "always" must cover every command of the line, not just its start.
    if (safety.approval !== "ask" || rules.decision === "allow" || allowingPatterns(command, [...allowPatterns]).length > 0) return "approve";
    return { ask: { kind: "command", tool: name, subject: command, cwd, preview: command, suggestedPattern: commandPatternFor(command) } };
  }
  // Hooks and config in .git, and the project's settings files (.mcp.json, mini-cursor.json, agent and skill files),
  // take effect later outside the sandbox: a person decides, in ask and auto mode alike (read-only mode offers no
  // write tools at all).
  // Judged (and granted) where the write lands, symlinks followed as the tools follow them.
  const landing = FILE_TOOLS.has(name) ? landingRelative(state.workspace, str(args.path)) : "";
  const runsLater = FILE_TOOLS.has(name) && safety.approval !== "read-only" ? runsLaterReason(landing) : undefined;
  if (FILE_TOOLS.has(name) && (runsLater !== undefined || (safety.approval === "ask" && safety.approveFileChanges))) {
    const pattern = filePattern(landing, state.workspace);
    if (allowPatterns.includes(pattern)) return "approve";
    const preview = runsLater === undefined ? filePreview(name, args) : `asked even in auto mode: ${runsLater}\n${filePreview(name, args)}`;
    return { ask: { kind: "file_change", tool: name, subject: str(args.path), cwd: ".", preview, suggestedPattern: pattern } };
  }
  return "approve";
}

/**
 * An MCP tool runs outside our sandbox: deny rules (`commands.deny`, e.g. `mcp__github__*`) refuse it; a tool annotated
 * read-only runs; any other asks, in auto mode too, unless an allow rule or an "always" answer names it. Read-only
 * mode does not offer it (the tools refuse it), and neither is a tool that does not exist now.
 */
function judgeExtension(name: string, args: Record<string, unknown>, state: AgentRunValue, safety: SafetyPolicy, allowPatterns: readonly string[], deps: ApprovalDeps): Verdict {
  const denied = safety.deny.find((p) => matchesText(name, p));
  if (denied !== undefined) return { decision: "deny", reason: `the tool ${name} matches the deny rule "${denied}" in the safety settings.` };
  const found = deps.extensions?.find(state.workspace, name);
  if (!found || found.readOnly || safety.approval === "read-only") return "approve";
  if ([...safety.allow, ...allowPatterns].some((p) => matchesText(name, p))) return "approve";
  const json = JSON.stringify(args, null, 2);
  const preview = `${name} (MCP server ${found.server}, not read-only)\n${json.length > 2000 ? `${json.slice(0, 2000)}…` : json}`;
  return { ask: { kind: "tool", tool: name, subject: name, cwd: ".", preview, suggestedPattern: name } };
}

/** A call that was denied by a rule or rejected by the person does not run: the model gets the reason instead. */
export function refuseUnapproved(
  runState: AgentRunValue,
  call: { id?: string; name: string; args: Record<string, unknown> },
  deps: ApprovalDeps,
  configurable?: Readonly<Record<string, unknown>>,
): ToolMessage | null {
  const state = withRunSettings(runState, configurable);
  const callId = call.id ?? "";
  const name = call.name;
  const judged = judge(name, call.args, state, state.allowPatterns, deps);
  // A call the gate did not record was approved by rule or mode; judged again, anything else is a refusal.
  const verdict: Decision = state.decisions[callId] ?? (judged === "approve" ? { decision: "approve", reason: "" } : "ask" in judged ? { decision: "reject", reason: "it was not approved" } : judged);
  if (verdict.decision === "approve") return null;
  const text =
    verdict.decision === "deny"
      ? `this is not allowed: ${verdict.reason} Do not retry it in another spelling; find another way, or finish and report that you are blocked.`
      : `the user rejected this ${COMMAND_TOOLS.has(name) ? "command" : isExtensionToolName(name) ? "tool call" : "change"}${verdict.reason ? `: ${verdict.reason}` : ""}. Do not repeat it; adjust your approach to the user's reason.`;
  deps.emit({ type: "tool_result", agent: deps.spec.name, stepId: state.stepId, tool: name, ok: false, detail: verdict.decision === "deny" ? "denied by rule" : "rejected by the user" });
  // A refused command is still one the session tried: the final report lists it (src/agents/transcript.ts).
  const refused = verdict.decision === "deny" ? ("denied" as const) : ("rejected" as const);
  const artifact: ToolArtifact | undefined =
    COMMAND_TOOLS.has(name) ? { ok: false, command: { command: str(call.args.command), cwd: str(call.args.cwd) || ".", exitCode: null, timedOut: false, durationMs: 0, refused } } : undefined;
  return new ToolMessage({ tool_call_id: callId, name, content: `Error: ${text}`, status: "error", artifact });
}
