import { createLinePrompter, type ApprovalPrompter } from "./approval-prompt.js";
import type { CliIo } from "./io.js";

/** Answers come from stdin; a prompt is shown only to a person at a terminal in human mode. */
export function makePrompter(io: CliIo, json: boolean): ApprovalPrompter {
  return createLinePrompter(io.stdin, io.stdout, Boolean(io.stdin.isTTY) && !json);
}
