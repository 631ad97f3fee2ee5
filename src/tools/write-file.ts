import { promises as fs } from "node:fs";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { atomicWriteFile } from "./atomic-write.js";
import { countLines } from "./lines.js";
import { errorCode, errorMessage, failure, success, type ToolResult } from "./tool-result.js";
import type { ToolDeps } from "./types.js";
import { resolveWorkspacePath } from "./workspace-path.js";

const schema = z.object({
  path: z.string().describe('File to write, relative to the workspace root (e.g. "src/util/math.ts"). Missing parent folders are created.'),
  content: z.string().describe("The complete new content of the file. It replaces everything in the file."),
});

export function createWriteFileTool(deps: ToolDeps) {
  return tool(
    async ({ path: inputPath, content }): Promise<ToolResult> => {
      const resolved = await resolveWorkspacePath(deps.root, inputPath);
      if (!resolved.ok) return failure(resolved.error);
      const { abs, rel } = resolved;
      const existing = await fs.stat(abs).catch(() => undefined);
      if (existing?.isDirectory()) {
        return failure(`"${rel}" is a directory; pass a file path inside it (e.g. "${rel === "." ? "" : `${rel}/`}name.ext").`);
      }
      if (existing && !existing.isFile()) return failure(`"${rel}" is not a regular file; write to another path.`);
      const lines = countLines(content);
      if (existing && existing.size === Buffer.byteLength(content)) {
        const current = await fs.readFile(abs, "utf8").catch(() => undefined);
        if (current === content) {
          return success(`"${rel}" already has exactly this content (${existing.size} bytes, ${lines} lines); nothing was changed.`, {
            filesChanged: [],
          });
        }
      }
      try {
        const result = await atomicWriteFile(abs, content);
        const summary = result.created
          ? `Created "${rel}" (${result.bytes} bytes, ${lines} lines).`
          : `Overwrote "${rel}" (was ${result.previousBytes} bytes; now ${result.bytes} bytes, ${lines} lines).`;
        return success(summary, { filesChanged: [rel] });
      } catch (error) {
        const code = errorCode(error);
        if (code === "ENOTDIR" || code === "EEXIST") {
          return failure(`cannot create "${rel}": a parent of it is a file, not a folder. Choose another path (call list_directory to check).`);
        }
        return failure(`could not write "${rel}" (${code ?? errorMessage(error)}); check the path and permissions, or write elsewhere.`);
      }
    },
    {
      name: "write_file",
      description:
        "Create a file or replace a file's whole content (parent folders are created; the write is atomic). " +
        "To change part of an existing file prefer edit_file, which does not require repeating the whole file. " +
        "The result says whether the file was created or overwritten.",
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
