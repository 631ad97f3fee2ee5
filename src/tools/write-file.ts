import { promises as fs } from "node:fs";
import path from "node:path";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { LandingRefusedError } from "../services/workspace-files/atomic-write.js";
import { openConfinedDir, openForReading, PathChangedError, type ConfinedDir } from "../services/workspace-files/confined-fs.js";
import { countLines } from "./lines.js";
import { failure, success, type ToolResult } from "./tool-result.js";
import { errorCode, errorMessage } from "../platform/error-info.js";
import type { ToolNeeds } from "./types.js";
import { resolveWorkspacePath } from "../services/workspace-files/workspace-path.js";
import { landingCheck } from "./write-grant.js";
import { scopeOf } from "./tool-scope.js";
import { EditorRequestError } from "../services/workspace-files/editor-files.js";
import { EditorWriteFailed, editorFailure, editorTextOf, editorWriter, landWrite, unsavedNote } from "./editor-io.js";

const schema = z.object({
  path: z.string().describe('File to write, relative to the workspace root (e.g. "src/util/math.ts"). Missing parent folders are created.'),
  content: z.string().describe("The complete new content of the file. It replaces everything in the file."),
});

/** A file bigger than this is not read back for the diagnostics' baseline (its problems count as new the first time). */
const MAX_BEFORE_BYTES = 2_000_000;

export function createWriteFileTool(base: ToolNeeds<"diagnostics" | "editor">) {
  return tool(
    async ({ path: inputPath, content }, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      const resolved = await resolveWorkspacePath(deps.root, inputPath);
      if (!resolved.ok) return failure(resolved.error);
      const { abs, rel } = resolved;
      // Judged again where the write really lands, when it lands: the path may have changed since it was approved.
      const check = landingCheck(deps.root, config, inputPath);
      const early = check(abs);
      if (early !== undefined) return failure(early);
      const writeError = (error: unknown): ToolResult => {
        if (error instanceof LandingRefusedError) return failure(error.message);
        if (error instanceof EditorRequestError) return failure(editorFailure(rel, "read", error));
        if (error instanceof EditorWriteFailed) return failure(editorFailure(rel, "write", error.cause));
        const code = errorCode(error);
        if (code === "ENOTDIR" || code === "EEXIST") {
          return failure(`cannot create "${rel}": a parent of it is a file, not a folder. Choose another path (call list_directory to check).`);
        }
        if (error instanceof PathChangedError) {
          return failure(
            `"${rel}" changed while it was being written (a folder on its path was replaced, e.g. by a symlink); nothing was written. Call write_file again once the path is stable.`,
          );
        }
        return failure(`could not write "${rel}" (${code ?? errorMessage(error)}); check the path and permissions, or write elsewhere.`);
      };
      // Everything below goes through the parent folder held open, never through the path string again.
      let dir: ConfinedDir;
      try {
        dir = await openConfinedDir(deps.root, path.dirname(abs), true);
      } catch (error) {
        return writeError(error);
      }
      let closed = false;
      try {
        const name = path.basename(abs);
        const existing = await fs.lstat(dir.entry(name)).catch(() => undefined);
        if (existing?.isDirectory()) {
          return failure(`"${rel}" is a directory; pass a file path inside it (e.g. "${rel === "." ? "" : `${rel}/`}name.ext").`);
        }
        if (existing?.isSymbolicLink()) return writeError(new PathChangedError(abs));
        if (existing && !existing.isFile()) return failure(`"${rel}" is not a regular file; write to another path.`);
        const lines = countLines(content);
        const editor = editorWriter(deps.editor);
        // The text before, for the diagnostics' "new problems" (and for the no-change check below): the editor's
        // buffer when it has one, since that is what the write replaces.
        const wanted = existing && (deps.diagnostics !== undefined ? existing.size <= MAX_BEFORE_BYTES : existing.size === Buffer.byteLength(content));
        const inEditor = existing ? await editorTextOf(deps.editor, path.join(dir.abs, name), config?.signal) : undefined;
        const current =
          inEditor ??
          (wanted
            ? await openForReading(dir.entry(name))
                .then((handle) => handle.readFile("utf8").finally(() => handle.close()))
                .catch(() => undefined)
            : undefined);
        if (existing && current === content) {
          return success(`"${rel}" already has exactly this content (${Buffer.byteLength(content)} bytes, ${lines} lines); nothing was changed.`, {
            filesChanged: [],
          });
        }
        const result = await landWrite(dir, name, content, check, editor, config?.signal);
        const through = editor ? " through the editor" : "";
        const summary =
          (result.created
            ? `Created "${rel}"${through} (${result.bytes} bytes, ${lines} lines).`
            : `Overwrote "${rel}"${through} (was ${result.previousBytes} bytes; now ${result.bytes} bytes, ${lines} lines).`) +
          (result.onDisk ? "" : `\n${unsavedNote(rel)}`);
        await dir.close();
        closed = true;
        const problems = await deps.diagnostics?.afterEdit(deps.root, { file: rel, before: existing ? current : null }, config?.signal);
        return success(problems ? `${summary}\n\n${problems}` : summary, { filesChanged: [rel] });
      } catch (error) {
        return writeError(error);
      } finally {
        if (!closed) await dir.close();
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
