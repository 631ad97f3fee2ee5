import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { isExtensionToolName } from "../../services/mcp/types.js";
import { allowingPatterns, commandPatternFor, evaluateCommand, matchesText } from "../../safety/command-rules.js";
import { approvalAnswerSchema, type ApprovalRequest, runsLaterReason, type SafetyPolicy, type WriteGrant } from "../../core/index.js";
import type { AgentRunUpdate, Decision } from "../run.js";
import type { AgentRun } from "../run.js";
import type { ToolArtifact } from "../../tools/types.js";
import type { ModelCallDeps } from "./deps.js";
import { unifiedDiff } from "../../platform/line-diff.js";
import { followSymlinksSync, realPath, type FollowedPath } from "../../platform/real-path.js";
import { COMMAND_TOOLS, FILE_CHANGE_TOOLS } from "../../tools/index.js";

/** The calls that get a recorded decision: they change files, run commands or run outside the sandbox. */
export function needsDecision(name: string): boolean {
  return FILE_CHANGE_TOOLS.has(name) || COMMAND_TOOLS.has(name) || isExtensionToolName(name);
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** One grant per file however it is spelled: `./src/a.ts`, `src/a.ts` and `/ws/src/a.ts` are the same file. */
export function filePattern(file: string, workspace: string): string {
  const rel = path.isAbsolute(file) && workspace ? path.relative(workspace, file) : file;
  return `file:${path.posix.normalize(rel.split(path.sep).join("/")).replace(/^(\.\/)+/, "")}`;
}

/** Lines of a file change shown before it is clipped: a file the person accepts (init's AGENTS.md) is seen whole. */
const PREVIEW_LINES = 100;

function clipLines(lines: readonly string[], prefix: string): string {
  const shown = lines.slice(0, PREVIEW_LINES).map((l) => `${prefix}${l}`);
  return lines.length > PREVIEW_LINES ? [...shown, `${prefix}… (${lines.length - PREVIEW_LINES} more lines)`].join("\n") : shown.join("\n");
}

/** A write over an existing file is shown as a unified diff against it; a new file as its lines, added. */
function filePreview(tool: string, args: Record<string, unknown>, existing: string | undefined): string {
  const file = str(args.path);
  if (tool === "write_file" && existing !== undefined) {
    const hunks = unifiedDiff(existing, str(args.content));
    return hunks.length === 0 ? `write ${file}: the content it already has` : `write ${file} (changes the existing file):\n${clipLines(hunks, "")}`;
  }
  if (tool === "write_file") return `write ${file}:\n${clipLines(str(args.content).split("\n"), "+ ")}`;
  const edit = `${clipLines(str(args.oldText).split("\n"), "- ")}\n${clipLines(str(args.newText).split("\n"), "+ ")}`;
  return `edit ${file}${args.replaceAll === true ? " (every occurrence)" : ""}:\n${edit}`;
}

/** Above this a file is not read to show a diff (its new content is shown instead). */
const MAX_DIFFED_BYTES = 1_000_000;

/**
 * The text a write would replace: the regular file where the write lands, inside the workspace; undefined for a new
 * file, or one that is not text or too big to diff. Read only to show the person the change.
 */
function existingText(workspace: string, landing: string | undefined): string | undefined {
  if (landing === undefined || landing === "" || path.isAbsolute(landing) || landing.split(path.sep)[0] === "..") return undefined;
  try {
    const file = path.join(realPath(workspace) ?? workspace, landing);
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > MAX_DIFFED_BYTES) return undefined;
    const bytes = fs.readFileSync(file);
    return bytes.includes(0) ? undefined : bytes.toString("utf8");
  } catch {
    return undefined;
  }
}

export type ApprovalDeps = Pick<ModelCallDeps, "spec" | "emit" | "forceAsk" | "extensions" | "commandRules">;
type Call = { id?: string; name: string; args: Record<string, unknown> };

/**
 * Approvals as one decision per tool call, made once and bound to the call (issue 37):
 * 1. `judgeReply` judges every call of a model reply when the reply arrives (middleware/model-call.ts records the
 *    verdicts with the reply, in the same step): allowed by rule or mode, denied by a rule, or "ask" a person. The
 *    rules and the file system are consulted here and nowhere else.
 * 2. `askRecorded` asks a person about each recorded "ask", in order, before any tool of the reply runs
 *    (middleware/reply-gate.ts). Which calls it asks about is read from the record, never judged again, so the
 *    sequence of LangGraph interrupts is the same on every re-run of the step and each answer reaches its call.
 * 3. `refuseUnapproved` and `writeGrantOf` make execution obey the record; a file tool checks what it actually
 *    opens against the grant when it writes (src/tools/write-grant.ts), so a path changed meanwhile is refused.
 * Hand-written rather than LangChain's humanInTheLoopMiddleware, which judges again on every re-run, asks about all
 * calls of a reply in one request and has no rule denials with a reason or "always" grants for the session.
 */
export function judgeReply(reply: AIMessage, state: AgentRun, deps: ApprovalDeps): Record<string, Decision> | undefined {
  const calls = (reply.tool_calls ?? []).filter((c) => needsDecision(c.name));
  if (calls.length === 0) return undefined;
  const invalid = new Set((reply.invalid_tool_calls ?? []).map((c) => c.id));
  const ids = (reply.tool_calls ?? []).map((c) => c.id ?? "");
  const decisions: Record<string, Decision> = {};
  for (const call of calls) {
    const id = call.id ?? "";
    if (invalid.has(id)) continue;
    // Decisions are bound to call ids: two calls sharing one could run on each other's decision.
    if (ids.indexOf(id) !== ids.lastIndexOf(id)) {
      decisions[id] = { decision: "deny", reason: `two tool calls of one reply share the id "${id}"; call them again one at a time.` };
      continue;
    }
    decisions[id] = judge(call.name, call.args, state, deps);
  }
  return Object.keys(decisions).length > 0 ? decisions : undefined;
}

/** What the rules and the approval mode say about one call, without asking anyone. */
function judge(name: string, args: Record<string, unknown>, state: AgentRun, deps: ApprovalDeps): Decision {
  const approve: Decision = { decision: "approve", reason: "" };
  // Without a real sandbox nothing runs unasked.
  const safety: SafetyPolicy = deps.forceAsk && state.safety.approval === "auto" ? { ...state.safety, approval: "ask" } : state.safety;
  if (isExtensionToolName(name)) return judgeExtension(name, state, safety, deps);
  if (COMMAND_TOOLS.has(name)) {
    const command = str(args.command);
    const cwd = str(args.cwd) || ".";
    // Patterns approved "always" are allow rules of this session: they must cover every command of the line.
    const rules = (deps.commandRules ?? evaluateCommand)(command, {
      workspace: state.workspace,
      home: os.homedir(),
      cwd,
      rules: { allow: [...safety.allow, ...state.allowPatterns], deny: safety.deny },
    });
    if (rules.decision === "deny") return { decision: "deny", reason: rules.reason };
    if (safety.approval !== "ask" || rules.decision === "allow") return approve;
    // The reviewer's commands see the workspace read-only in the sandbox, with no network: nothing they do outlives
    // them (its test run need not be asked about). Without the sandbox, or with the network on, they ask.
    if (deps.spec.commandAccess === "read-only" && !deps.forceAsk && !safety.allowNetwork) return approve;
    return { decision: "ask", reason: "", modeOnly: true };
  }
  if (!FILE_CHANGE_TOOLS.has(name) || safety.approval === "read-only") return approve;
  // Hooks and config in .git, and the project's settings files (.mcp.json, mini-cursor.json, agent and skill files),
  // take effect later outside the sandbox: a person decides, in ask and auto mode alike (read-only mode offers no
  // write tools at all). Judged (and granted) where the write lands, symlinks followed as the tools follow them; the
  // tool checks again where it really lands when it writes.
  const landing = landingRelative(state.workspace, str(args.path));
  const runsLater = runsLaterReason(landing);
  const askedByMode = safety.approval === "ask" && safety.approveFileChanges;
  if (runsLater === undefined && !askedByMode) return approve;
  if (state.allowPatterns.includes(filePattern(landing, state.workspace))) return { decision: "approve", reason: "", landing };
  return { decision: "ask", reason: runsLater ?? "", landing, modeOnly: runsLater === undefined };
}

/**
 * An MCP tool runs outside our sandbox: deny rules (`commands.deny`, e.g. `mcp__github__*`) refuse it; a tool annotated
 * read-only runs; any other asks, in auto mode too, unless an allow rule or an "always" answer names it. Read-only
 * mode does not offer it (the tools refuse it), and neither is a tool that does not exist now.
 */
function judgeExtension(name: string, state: AgentRun, safety: SafetyPolicy, deps: ApprovalDeps): Decision {
  const denied = safety.deny.find((p) => matchesText(name, p));
  if (denied !== undefined) return { decision: "deny", reason: `the tool ${name} matches the deny rule "${denied}" in the safety settings.` };
  const found = deps.extensions?.find(state.workspace, name);
  if (!found || found.readOnly || safety.approval === "read-only") return { decision: "approve", reason: "" };
  if ([...safety.allow, ...state.allowPatterns].some((p) => matchesText(name, p))) return { decision: "approve", reason: "" };
  return { decision: "ask", reason: found.server, modeOnly: false };
}

/** The request a person sees for a recorded "ask", rebuilt from the call and its record. */
function requestFor(call: Call, asked: Decision, state: AgentRun, deps: ApprovalDeps): ApprovalRequest {
  const base = { type: "approval" as const, agent: deps.spec.name, stepId: state.stepId, tool: call.name, modeOnly: asked.modeOnly === true };
  if (COMMAND_TOOLS.has(call.name)) {
    const command = str(call.args.command);
    return { ...base, kind: "command", subject: command, cwd: str(call.args.cwd) || ".", preview: command, suggestedPattern: commandPatternFor(command) };
  }
  if (FILE_CHANGE_TOOLS.has(call.name)) {
    const change = filePreview(call.name, call.args, call.name === "write_file" ? existingText(state.workspace, asked.landing) : undefined);
    const preview = asked.reason ? `asked even in auto mode: ${asked.reason}\n${change}` : change;
    return {
      ...base,
      kind: "file_change",
      subject: str(call.args.path),
      cwd: ".",
      preview,
      suggestedPattern: filePattern(asked.landing ?? str(call.args.path), state.workspace),
    };
  }
  const json = JSON.stringify(call.args, null, 2);
  const preview = `${call.name} (MCP server ${asked.reason}, not read-only)\n${json.length > 2000 ? `${json.slice(0, 2000)}…` : json}`;
  return { ...base, kind: "tool", subject: call.name, cwd: ".", preview, suggestedPattern: call.name, args: call.args };
}

/** Whether a pattern granted "always" covers this call (granted by an earlier answer about the same reply). */
function coveredBy(patterns: readonly string[], call: Call, asked: Decision, workspace: string): boolean {
  if (COMMAND_TOOLS.has(call.name)) return allowingPatterns(str(call.args.command), patterns).length > 0;
  if (FILE_CHANGE_TOOLS.has(call.name)) return asked.landing !== undefined && patterns.includes(filePattern(asked.landing, workspace));
  return patterns.some((p) => matchesText(call.name, p));
}

/**
 * Asks the person about each call of the newest reply recorded as "ask", in reply order; an "always" answer covers
 * the later calls it names. Side-effect free, so the tools step runs it again on every resume: earlier `interrupt()`
 * calls return their recorded answers. Nothing to ask: no update.
 */
export function askRecorded(state: AgentRun, deps: ApprovalDeps): Pick<AgentRunUpdate, "decisions" | "allowPatterns"> | undefined {
  const last = state.messages.at(-1);
  if (!last || !AIMessage.isInstance(last)) return undefined;
  const pending = (last.tool_calls ?? []).filter((c) => state.decisions[c.id ?? ""]?.decision === "ask");
  if (pending.length === 0) return undefined;
  const decisions = { ...state.decisions };
  const allowPatterns = [...state.allowPatterns];
  for (const call of pending) {
    const id = call.id ?? "";
    const asked = decisions[id];
    if (!asked) continue;
    const landing = asked.landing === undefined ? {} : { landing: asked.landing };
    if (coveredBy(allowPatterns, call, asked, state.workspace)) {
      decisions[id] = { decision: "approve", reason: "", ...landing };
      continue;
    }
    const answer = approvalAnswerSchema.safeParse(interrupt(requestFor(call, asked, state, deps)));
    if (!answer.success) decisions[id] = { decision: "reject", reason: "the approval answer was not understood" };
    else if (answer.data.decision === "reject") decisions[id] = { decision: "reject", reason: answer.data.reason };
    else {
      if (answer.data.decision === "always") {
        const { pattern } = answer.data;
        allowPatterns.push(pattern.startsWith("file:") ? filePattern(pattern.slice(5), state.workspace) : pattern);
      }
      decisions[id] = { decision: "approve", reason: "", ...landing };
    }
  }
  return { decisions, allowPatterns };
}

/** What a file tool call may write: exactly the place a person approved, or (approved by rule or mode) no protected place. */
export function writeGrantOf(state: AgentRun, callId: string): WriteGrant {
  const landing = state.decisions[callId]?.landing;
  return landing === undefined ? {} : { landing };
}

/**
 * A call runs only on its recorded decision: denied by a rule, rejected by the person, never asked about (a call
 * whose reply was recorded before this version) or still unanswered, it is refused and the model gets the reason.
 */
export function refuseUnapproved(state: AgentRun, call: Call, deps: ApprovalDeps): ToolMessage | null {
  const name = call.name;
  if (!needsDecision(name)) return null;
  const callId = call.id ?? "";
  const recorded = state.decisions[callId];
  const verdict: Decision = recorded && recorded.decision !== "ask" ? recorded : { decision: "reject", reason: "it was not approved" };
  if (verdict.decision === "approve") return null;
  const text = !recorded
    ? `${name} was not run: this call has no approval decision recorded (its reply predates it); call it again.`
    : verdict.decision === "deny"
      ? `this is not allowed: ${verdict.reason} Do not retry it in another spelling; find another way, or finish and report that you are blocked.`
      : `the user rejected this ${COMMAND_TOOLS.has(name) ? "command" : isExtensionToolName(name) ? "tool call" : "change"}${verdict.reason ? `: ${verdict.reason}` : ""}. Do not repeat it; adjust your approach to the user's reason.`;
  deps.emit({
    type: "tool_result",
    agent: deps.spec.name,
    stepId: state.stepId,
    tool: name,
    ok: false,
    detail: verdict.decision === "deny" ? "denied by rule" : "rejected by the user",
  });
  // A refused command is still one the session tried: the final report lists it (src/agents/run.ts).
  const refused = verdict.decision === "deny" ? ("denied" as const) : ("rejected" as const);
  const artifact: ToolArtifact | undefined = COMMAND_TOOLS.has(name)
    ? { ok: false, command: { command: str(call.args.command), cwd: str(call.args.cwd) || ".", exitCode: null, timedOut: false, durationMs: 0, refused } }
    : undefined;
  return new ToolMessage({ tool_call_id: callId, name, content: `Error: ${text}`, status: "error", artifact });
}

/**
 * Where a write to `file` lands, relative to the workspace, resolved as the kernel and the file tools resolve it
 * (followSymlinks: `q/link/../.mcp.json` is judged where it lands, not as `q/.mcp.json`; dangling symlinks are
 * followed too). Only classifies a path; the tools confine it themselves. A symlink loop gives the path as spelled.
 */
export function landingRelative(workspace: string, file: string): string {
  if (!workspace || !file) return file;
  const spelled = path.relative(workspace, path.resolve(workspace, file));
  let landing: FollowedPath | null = null;
  try {
    landing = followSymlinksSync(path.isAbsolute(file) ? file : `${workspace}${path.sep}${file}`);
  } catch {
    // A folder on the way that cannot be read: judged as spelled, like a loop.
  }
  return landing ? path.relative(realPath(workspace) ?? workspace, landing.real) : spelled;
}
