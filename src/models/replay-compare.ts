import type { RecordedMessage } from "./recording-codec.js";

/**
 * Tool results compared between a recording and its replay, after removing what differs from run to run without
 * meaning anything: the workspace's path (the replay runs in another folder), temporary paths, and timings
 * ("12.3ms", "0.4 s", node --test's duration_ms).
 */
export function normalizer(workspaces: readonly string[]): (text: string) => string {
  const roots = [...new Set(workspaces.filter((w) => w.length > 1))].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const root of roots) out = out.split(root).join("<workspace>");
    return out
      .replace(/\/tmp\/[^\s'"`:)]+/g, "<tmp>")
      .replace(/duration_ms[:=]?\s*[\d.]+/g, "duration_ms <time>")
      .replace(/\b\d+(\.\d+)?\s?(ms|s|sec|seconds?)\b/g, "<time>");
  };
}

export interface ToolResultDifference {
  tool: string;
  toolCallId: string;
  /** A few differing lines: "- " from the recording, "+ " from the replay. */
  diff: string;
  /** Only what the environment adds differs (a note, a memory tool's result): not a divergence. */
  environment: boolean;
}

/**
 * What the environment adds to tool results rather than the work: notes that depend on the machine or on the process
 * (diagnostics said once per process, the sandbox), and tools whose whole result is the environment's. A replay runs
 * in one process without memory, so these differ from a recording made across a resume without meaning anything.
 */
export interface EnvironmentParts {
  /** A whole line of a tool result that is such a note. */
  isNote(line: string): boolean;
  /** Tools whose results are the environment's (memory_search: a replay runs without long-term memory). */
  tools: ReadonlySet<string>;
}

const NO_ENVIRONMENT: EnvironmentParts = { isNote: () => false, tools: new Set() };

/** The text without the environment's note lines (and the blank lines they leave at its end). */
function withoutNotes(text: string, environment: EnvironmentParts): string {
  return text
    .split("\n")
    .filter((line) => !environment.isNote(line))
    .join("\n")
    .replace(/\n+$/, "");
}

function clip(line: string, max = 160): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Lines only in one of the two texts (at most three of each), as a short diff. */
export function shortDiff(recorded: string, replayed: string): string {
  const a = recorded.split("\n");
  const b = replayed.split("\n");
  const inB = new Set(b);
  const inA = new Set(a);
  const removed = a
    .filter((l) => !inB.has(l))
    .slice(0, 3)
    .map((l) => `- ${clip(l)}`);
  const added = b
    .filter((l) => !inA.has(l))
    .slice(0, 3)
    .map((l) => `+ ${clip(l)}`);
  const lines = [...removed, ...added];
  return lines.length > 0 ? lines.join("\n") : "(the same lines in another order or count)";
}

/** The tool results of the replay's request that differ from the recorded request's, matched by position. */
export function compareToolResults(
  recorded: readonly RecordedMessage[],
  replayed: readonly RecordedMessage[],
  normalize: (text: string) => string,
  environment: EnvironmentParts = NO_ENVIRONMENT,
): ToolResultDifference[] {
  const a = recorded.filter((m) => m.role === "tool");
  const b = replayed.filter((m) => m.role === "tool");
  const differences: ToolResultDifference[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const was = a[i];
    const now = b[i];
    const tool = now?.name ?? was?.name ?? "?";
    const toolCallId = now?.toolCallId ?? was?.toolCallId ?? "";
    if (!was || !now) {
      differences.push({
        tool,
        toolCallId,
        diff: was ? "- (recorded result)\n+ (no result in the replay)" : "- (no recorded result)\n+ (a result in the replay)",
        environment: false,
      });
      continue;
    }
    const x = normalize(was.content);
    const y = normalize(now.content);
    if (x === y && (was.status ?? "") === (now.status ?? "")) continue;
    if (environment.tools.has(tool) && environment.tools.has(was.name ?? tool)) {
      differences.push({ tool, toolCallId, diff: shortDiff(x, y), environment: true });
      continue;
    }
    // The result's own content and status must match; only note lines the environment adds may differ.
    const bareX = withoutNotes(x, environment);
    const bareY = withoutNotes(y, environment);
    const same = bareX === bareY && (was.status ?? "") === (now.status ?? "");
    differences.push({ tool, toolCallId, diff: same ? shortDiff(x, y) : shortDiff(bareX, bareY), environment: same });
  }
  return differences;
}
