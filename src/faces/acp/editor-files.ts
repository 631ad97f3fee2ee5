import type { AgentContext } from "@agentclientprotocol/sdk";
import type { EditorFiles } from "../../services/workspace-files/editor-files.js";

/** What the editor said it can do in `initialize` (clientCapabilities). */
export interface ClientAbilities {
  readTextFile: boolean;
  writeTextFile: boolean;
  terminal: boolean;
}

export const NO_ABILITIES: ClientAbilities = { readTextFile: false, writeTextFile: false, terminal: false };

/**
 * The session's files as the editor has them, over `fs/read_text_file` and `fs/write_text_file`, for the methods the
 * editor offers (none: undefined, the tools use the disk). Each text read from or written to the editor is noted in
 * `seen`, so the tool call's diff shows the editor's text rather than the disk's. A request ends when the turn is
 * cancelled or the tool call is stopped.
 */
export function acpEditorFiles(o: {
  client: AgentContext;
  sessionId: string;
  abilities: ClientAbilities;
  cancel: AbortSignal;
  seen: Map<string, string>;
}): EditorFiles | undefined {
  const { client, sessionId, abilities, seen } = o;
  if (!abilities.readTextFile && !abilities.writeTextFile) return undefined;
  const options = (signal?: AbortSignal) => ({
    cancellationSignal: signal ? AbortSignal.any([o.cancel, signal]) : o.cancel,
    stopWaitingOnCancel: true,
  });
  return {
    ...(abilities.readTextFile
      ? {
          async read(abs: string, signal?: AbortSignal) {
            const { content } = await client.request("fs/read_text_file", { sessionId, path: abs }, options(signal));
            seen.set(abs, content);
            return content;
          },
        }
      : {}),
    ...(abilities.writeTextFile
      ? {
          async write(abs: string, text: string, signal?: AbortSignal) {
            await client.request("fs/write_text_file", { sessionId, path: abs, content: text }, options(signal));
            seen.set(abs, text);
          },
        }
      : {}),
  };
}
