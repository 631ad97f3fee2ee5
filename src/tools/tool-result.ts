import type { ToolArtifact } from "./types.js";

/** What every workspace tool returns with `responseFormat: "content_and_artifact"`. */
export type ToolResult = [content: string, artifact: ToolArtifact];

export function success(content: string, extra: Omit<ToolArtifact, "ok"> = {}): ToolResult {
  return [content, { ok: true, ...extra }];
}

/**
 * A recoverable failure, returned rather than thrown so the model sees it and can retry.
 * `message` should say what went wrong and what to do next; the `Error: ` prefix is added here.
 */
export function failure(message: string, extra: Omit<ToolArtifact, "ok"> = {}): ToolResult {
  const content = message.startsWith("Error: ") ? message : `Error: ${message}`;
  return [content, { ok: false, ...extra }];
}
