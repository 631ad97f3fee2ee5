import type { EnvironmentParts } from "../../models/replay-compare.js";

/**
 * The notes the environment adds to tool results, as whole lines: they depend on the machine or on the process (the
 * diagnostics say "no TypeScript" once per process, so a session resumed in a second process has it twice; a checker
 * that timed out; the sandbox), not on the work, so a replay does not count them as divergences. Everything else in
 * a result (a file's content, a command's status and output, the problems a checker found) is still compared.
 * The texts are those of src/services/diagnostics/diagnostics-hub.ts and src/safety/sandbox/sandbox-notes.ts
 * (tests/faces/cli/replay-environment.test.ts checks them against the real notes).
 */
const NOTES: readonly RegExp[] = [
  // Diagnostics: which checkers are available, and checkers that timed out or failed.
  /^Note: no TypeScript diagnostics: .*\.$/,
  /^Note: no diagnostics after edits: the project's checkers run only in the sandbox, and there is none .*\.$/,
  /^Note: the TypeScript check (took longer than [\d.]+ s and was skipped for this change .*|failed \(.*\))\.$/,
  /^Note: (ESLint|".*") (took longer than [\d.]+ s and was (skipped for this change|stopped)|failed \(.*\))\.$/,
  /^Note: first (ESLint|".*") run on this file: its problems from before this change are included\.$/,
  // The sandbox: what a command's output shows it ran into.
  /^Note: in the sandbox a command killed by a signal reports exit code 128 \+ its number; .*\.$/,
  /^Note: the sandbox \(bubblewrap\) reported an error; .*\.$/,
  /^Note: your commands see the workspace read-only: .*\.$/,
  /^Note: the sandbox lets commands write only inside the workspace and \/tmp .*\.$/,
  /^Note: commands have no network access in this sandbox .*\.$/,
];

export const REPLAY_ENVIRONMENT: EnvironmentParts = {
  isNote: (line) => line.startsWith("Note: ") && NOTES.some((note) => note.test(line)),
  // A replay runs without long-term memory (its tool is not even offered), so what memory_search said cannot recur.
  tools: new Set(["memory_search"]),
};
