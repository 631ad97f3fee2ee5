import { createLinePrompter } from "./approval-prompt.js";
import type { ApprovalPrompter } from "../../host/prompter.js";
import type { CliIo } from "./io.js";
import { createTerminalPrompter } from "./terminal-prompter.js";

/**
 * Answers come from stdin. A person at a terminal answers each question with keys pressed after it is shown
 * (on stderr with --json, which keeps stdout to events); a pipe answers with its queued lines, in order.
 */
export function makePrompter(io: CliIo, json: boolean): ApprovalPrompter {
  if (io.stdin.isTTY) return createTerminalPrompter(io.stdin, json ? io.stderr : io.stdout, { forms: !json });
  return createLinePrompter(io.stdin, io.stdout, false);
}
