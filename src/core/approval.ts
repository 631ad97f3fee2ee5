import { z } from "zod";

/** How commands (and, when asked for, file changes) are approved. */
export const APPROVAL_MODES = ["ask", "auto", "read-only"] as const;
export const approvalModeSchema = z.enum(APPROVAL_MODES);
export type ApprovalMode = z.infer<typeof approvalModeSchema>;

/** The safety settings of one session; stored in its state so a resumed session keeps them. */
export const safetyPolicySchema = z.object({
  approval: approvalModeSchema.default("ask"),
  /** Ask before write_file / edit_file too (ask mode only), showing the change. */
  approveFileChanges: z.boolean().default(false),
  /** Command patterns from config that run without asking (deny rules still win). */
  allow: z.array(z.string()).default(() => []),
  /** Command patterns from config that never run. */
  deny: z.array(z.string()).default(() => []),
  /** Sandboxed commands may use the network. */
  allowNetwork: z.boolean().default(false),
});
export type SafetyPolicy = z.infer<typeof safetyPolicySchema>;
export const DEFAULT_SAFETY: SafetyPolicy = safetyPolicySchema.parse({});

/** What the graph pauses with (LangGraph `interrupt`) before a command, a file change or an MCP tool call runs. */
export interface ApprovalRequest {
  type: "approval";
  /** `tool`: a call of an MCP server's tool that is not annotated read-only (it runs outside the sandbox). */
  kind: "command" | "file_change" | "tool";
  agent: string;
  stepId: string;
  tool: string;
  /** The command, the file path for a file change, or the tool's name. */
  subject: string;
  cwd: string;
  /** What will happen, for the person deciding (the command, or a preview of the change). */
  preview: string;
  /** The pattern an "always" answer would allow for the rest of the session. */
  suggestedPattern: string;
  /** An MCP tool call's arguments (kind `tool`), for a face that shows them apart from the preview. */
  args?: Record<string, unknown>;
  /**
   * Only the approval mode asks (ask mode for a command, --approve-file-changes for a file change): a face whose
   * mode has changed since may answer it from the mode (modeAsks). False: asked in every mode.
   */
  modeOnly?: boolean;
}

/** Whether the approval mode asks a person before this kind of call (src/agents/middleware/approval.ts judges the rest). */
export function modeAsks(safety: SafetyPolicy, kind: ApprovalRequest["kind"], forceAsk = false): boolean {
  const approval = forceAsk && safety.approval === "auto" ? "ask" : safety.approval;
  if (kind === "command") return approval === "ask";
  if (kind === "file_change") return approval === "ask" && safety.approveFileChanges;
  return true;
}

/** The answer that resumes the graph (LangGraph `Command({ resume })`). */
export const approvalAnswerSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("approve") }),
  z.object({ decision: z.literal("reject"), reason: z.string().default("") }),
  z.object({ decision: z.literal("always"), pattern: z.string().min(1) }),
]);
export type ApprovalAnswer = z.infer<typeof approvalAnswerSchema>;

export function isApprovalRequest(value: unknown): value is ApprovalRequest {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "approval";
}

/**
 * The safety policy a run's configurable settings (`safety`) set, over `fallback` (the state's): the CLI passes the
 * session's current policy with every run, so `resume --approval …` applies mid-step too (the stopped sub-agent run
 * gets it in its runtime context); Studio and API runs may set some fields. Malformed: the fallback.
 */
export function safetyOf(configurable: Readonly<Record<string, unknown>> | undefined, fallback: SafetyPolicy): SafetyPolicy {
  const raw = configurable?.safety;
  if (typeof raw !== "object" || raw === null) return fallback;
  return parsedSafety(raw, fallback);
}

function parsedSafety(raw: object, fallback: SafetyPolicy): SafetyPolicy {
  const parsed = safetyPolicySchema.safeParse({ ...fallback, ...raw });
  return parsed.success ? parsed.data : fallback;
}
