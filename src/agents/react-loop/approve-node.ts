import os from "node:os";
import { AIMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import { allowingPatterns, commandPatternFor, evaluateCommand } from "../../safety/command-rules.js";
import { approvalAnswerSchema, type ApprovalRequest, type SafetyPolicy } from "../../safety/policy.js";
import type { AgentName } from "../../runtime/events.js";
import type { LoopStateUpdate, LoopStateValue } from "./loop-state.js";

export interface ApproveNodeDeps {
  agent: AgentName;
  stepId: string;
  workspace: string;
  safety: SafetyPolicy;
}

export type Decision = { decision: "approve" | "reject" | "deny"; reason: string };

const FILE_TOOLS = new Set(["write_file", "edit_file"]);

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
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

/**
 * The approval gate between the model and the tools. It has no side effects, so when the graph resumes
 * after an answer LangGraph may re-run it safely: earlier `interrupt()` calls return their recorded answers.
 * Rules decide first (deny beats allow); in "ask" mode everything else pauses the graph for a person.
 */
export function createApproveNode(deps: ApproveNodeDeps) {
  const home = os.homedir();
  return (state: LoopStateValue): LoopStateUpdate => {
    const last = state.messages.at(-1);
    if (!last || !AIMessage.isInstance(last)) return {};
    const invalid = new Set((last.invalid_tool_calls ?? []).map((c) => c.id));
    const decisions: Record<string, Decision> = {};
    const allowPatterns = [...state.allowPatterns];
    const { safety } = deps;

    for (const call of last.tool_calls ?? []) {
      const id = call.id ?? "";
      if (invalid.has(id)) continue;
      const args = call.args;
      if (call.name === "execute_command") {
        const command = str(args.command);
        const cwd = str(args.cwd) || ".";
        const rules = evaluateCommand(command, { workspace: deps.workspace, home, cwd, rules: { allow: safety.allow, deny: safety.deny } });
        if (rules.decision === "deny") {
          decisions[id] = { decision: "deny", reason: rules.reason };
          continue;
        }
        // Patterns approved "always" must cover every command of the line, not just its start.
        if (safety.approval !== "ask" || rules.decision === "allow" || allowingPatterns(command, allowPatterns).length > 0) {
          decisions[id] = { decision: "approve", reason: "" };
          continue;
        }
        decisions[id] = ask(allowPatterns, {
          type: "approval",
          kind: "command",
          agent: deps.agent,
          stepId: deps.stepId,
          tool: call.name,
          subject: command,
          cwd,
          preview: command,
          suggestedPattern: commandPatternFor(command),
        });
      } else if (FILE_TOOLS.has(call.name) && safety.approval === "ask" && safety.approveFileChanges) {
        const path = str(args.path);
        if (allowPatterns.includes(`file:${path}`)) {
          decisions[id] = { decision: "approve", reason: "" };
          continue;
        }
        decisions[id] = ask(allowPatterns, {
          type: "approval",
          kind: "file_change",
          agent: deps.agent,
          stepId: deps.stepId,
          tool: call.name,
          subject: path,
          cwd: ".",
          preview: filePreview(call.name, args),
          suggestedPattern: `file:${path}`,
        });
      }
    }
    return { decisions, allowPatterns };
  };
}

/** Pauses for a person's answer; an answer that does not parse counts as a rejection saying so. */
function ask(allowPatterns: string[], request: ApprovalRequest): Decision {
  const raw: unknown = interrupt(request);
  const answer = approvalAnswerSchema.safeParse(raw);
  if (!answer.success) return { decision: "reject", reason: "the approval answer was not understood" };
  if (answer.data.decision === "always") {
    allowPatterns.push(answer.data.pattern);
    return { decision: "approve", reason: "" };
  }
  if (answer.data.decision === "reject") return { decision: "reject", reason: answer.data.reason };
  return { decision: "approve", reason: "" };
}
