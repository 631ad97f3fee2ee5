import path from "node:path";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { LandingRefusedError, type LandingCheck } from "../services/workspace-files/atomic-write.js";
import type { EditorFiles } from "../services/workspace-files/editor-files.js";
import { EditorRequestError } from "../services/workspace-files/editor-files.js";
import { EditorWriteFailed, editorFailure, editorTextOf, editorWriter, landWrite, unsavedNote } from "./editor-io.js";
import { openConfinedDir, PathChangedError, type ConfinedDir } from "../services/workspace-files/confined-fs.js";
import { findClosestRegion } from "./closest-region.js";
import { LineIndex, numberLines, splitLines } from "./lines.js";
import { readTextFile } from "../services/workspace-files/text-file.js";
import { failure, success, type ToolResult } from "./tool-result.js";
import { errorCode, errorMessage } from "../platform/error-info.js";
import type { ToolNeeds } from "./types.js";
import { resolveWorkspacePath } from "../services/workspace-files/workspace-path.js";
import { landingCheck } from "./write-grant.js";
import { scopeOf } from "./tool-scope.js";

/** Regions shown back to the model are cut to this many lines. */
const MAX_SNIPPET_LINES = 40;
/** Below this similarity the "closest" region is noise and is not shown. */
const MIN_CLOSEST_SCORE = 0.3;
const CONTEXT_LINES = 2;

const schema = z.object({
  path: z.string().describe('File to edit, relative to the workspace root (e.g. "src/index.ts").'),
  oldText: z
    .string()
    .describe(
      "Exact text to replace, copied from the file including indentation and line breaks (without read_file's line-number prefixes). Include enough surrounding lines to make it unique.",
    ),
  newText: z.string().describe("Text to put in its place (may be empty to delete oldText)."),
  replaceAll: z.boolean().default(false).describe("Replace every occurrence of oldText instead of requiring exactly one. Default false."),
});

function indexesOf(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** Lines `from`..`to` (1-based, inclusive, clamped) with numbers, cut to MAX_SNIPPET_LINES. */
function snippet(lines: readonly string[], from: number, to: number): string {
  const start = Math.max(1, from);
  const end = Math.min(lines.length, to, start + MAX_SNIPPET_LINES - 1);
  if (end < start) return "(no lines)";
  const body = numberLines(lines.slice(start - 1, end), start, 300);
  return end < Math.min(lines.length, to) ? `${body}\n  … (${Math.min(lines.length, to) - end} more lines)` : body;
}

function notFound(rel: string, text: string, oldText: string): ToolResult {
  const fileLines = splitLines(text);
  const region = findClosestRegion(fileLines, splitLines(oldText));
  const base = `oldText was not found in "${rel}" (it must match exactly, including whitespace and indentation).`;
  if (!region || region.score < MIN_CLOSEST_SCORE) {
    return failure(
      `${base} No similar region was found either. Call read_file on "${rel}" to see its current content, then retry edit_file with text copied from it.`,
    );
  }
  const why = region.whitespaceOnly ? " It differs from oldText only in whitespace or indentation." : "";
  return failure(
    `${base} The most similar region is lines ${region.startLine}-${region.endLine} (${Math.round(region.score * 100)}% similar).${why}\n` +
      `${snippet(fileLines, region.startLine - CONTEXT_LINES, region.endLine + CONTEXT_LINES)}\n` +
      "Retry edit_file with oldText copied exactly from the file (without the line-number prefixes), or call read_file to see more.",
  );
}

interface Edit {
  text: string;
  /** The editor took the edit (it was not written to disk by the tool); false when it has not saved it yet. */
  editor?: { saved: boolean };
  found: number[];
  find: string;
  replacement: string;
  result: string;
}

/** Reads `name` in the open folder, applies the replacement and writes it back atomically in the same folder. */
async function editIn(
  dir: ConfinedDir,
  name: string,
  rel: string,
  request: { oldText: string; newText: string; replaceAll: boolean },
  changed: string,
  check: LandingCheck,
  io: { editor?: EditorFiles; signal?: AbortSignal },
): Promise<Edit | ToolResult> {
  const { oldText, newText, replaceAll } = request;
  const file = await readTextFile(dir.entry(name));
  if (!file.ok) {
    if (file.reason === "missing") {
      return failure(`file "${rel}" does not exist. To create it call write_file; to find the file you meant call list_directory or search_code.`);
    }
    if (file.reason === "directory") return failure(`"${rel}" is a directory; pass the path of a file inside it.`);
    if (file.reason === "changed") return failure(changed);
    return failure(`"${rel}" ${file.detail}; edit_file only edits text files.`);
  }
  // The edit applies to what the person sees: the editor's buffer, unsaved changes included.
  let text: string;
  try {
    text = (await editorTextOf(io.editor, path.join(dir.abs, name), io.signal)) ?? file.text;
  } catch (error) {
    if (error instanceof EditorRequestError) return failure(editorFailure(rel, "read", error));
    throw error;
  }
  let find = oldText;
  let replacement = newText;
  let found = indexesOf(text, find);
  // Models write "\n"; files with Windows line endings would otherwise never match.
  if (found.length === 0 && text.includes("\r\n") && !oldText.includes("\r\n")) {
    find = oldText.replace(/\n/g, "\r\n");
    replacement = newText.replace(/\r?\n/g, "\r\n");
    found = indexesOf(text, find);
  }
  if (found.length === 0) return notFound(rel, text, oldText);
  if (found.length > 1 && !replaceAll) {
    const before = new LineIndex(text);
    const at = found
      .slice(0, 10)
      .map((i) => before.lineAt(i))
      .join(", ");
    return failure(
      `oldText occurs ${found.length} times in "${rel}" (at lines ${at}${found.length > 10 ? ", …" : ""}). ` +
        "Add surrounding lines to oldText so it matches exactly one place, or set replaceAll=true to replace every occurrence.",
    );
  }

  const pieces: string[] = [];
  let last = 0;
  for (const index of found) {
    pieces.push(text.slice(last, index), replacement);
    last = index + find.length;
  }
  pieces.push(text.slice(last));
  const result = pieces.join("");
  const editor = editorWriter(io.editor);
  let landed;
  try {
    landed = await landWrite(dir, name, result, check, editor, io.signal);
  } catch (error) {
    if (error instanceof PathChangedError) return failure(changed);
    if (error instanceof LandingRefusedError) return failure(error.message);
    if (error instanceof EditorWriteFailed) return failure(editorFailure(rel, "write", error.cause));
    return failure(`could not write "${rel}" (${errorCode(error) ?? errorMessage(error)}); the file is unchanged. Check permissions.`);
  }
  return { text, found, find, replacement, result, ...(editor ? { editor: { saved: landed.onDisk } } : {}) };
}

export function createEditFileTool(base: ToolNeeds<"diagnostics" | "editor">) {
  return tool(
    async ({ path: inputPath, oldText, newText, replaceAll }, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      if (oldText === "") {
        return failure("oldText is empty. To create a file or replace its whole content use write_file; otherwise pass the exact text to replace.");
      }
      if (oldText === newText) return failure("oldText and newText are identical, so there is nothing to change. Pass the new text in newText.");
      const resolved = await resolveWorkspacePath(deps.root, inputPath);
      if (!resolved.ok) return failure(resolved.error);
      const { abs, rel } = resolved;
      // Judged again where the edit really lands, when it lands: the path may have changed since it was approved.
      const check = landingCheck(deps.root, config, inputPath);
      const early = check(abs);
      if (early !== undefined) return failure(early);
      const changed = `"${rel}" changed while it was being edited (a folder on its path was replaced, e.g. by a symlink); the file is unchanged. Call edit_file again once the path is stable.`;
      // Read and write through the parent folder held open, never through the path string again.
      let dir: ConfinedDir;
      try {
        dir = await openConfinedDir(deps.root, path.dirname(abs), false);
      } catch (error) {
        if (error instanceof PathChangedError) return failure(changed);
        const code = errorCode(error);
        if (code === "ENOENT" || code === "ENOTDIR") {
          return failure(`file "${rel}" does not exist. To create it call write_file; to find the file you meant call list_directory or search_code.`);
        }
        return failure(`could not open "${rel}" (${code ?? errorMessage(error)}); check the path and permissions.`);
      }
      let edited: Edit | ToolResult;
      try {
        edited = await editIn(dir, path.basename(abs), rel, { oldText, newText, replaceAll }, changed, check, {
          ...(deps.editor ? { editor: deps.editor } : {}),
          ...(config?.signal ? { signal: config.signal } : {}),
        });
      } finally {
        await dir.close();
      }
      if (Array.isArray(edited)) return edited;
      const { text, found, find, replacement, result, editor } = edited;
      const before = new LineIndex(text);
      const after = new LineIndex(result);
      const shift = replacement.length - find.length;
      const ranges = found.map((index, k) => {
        const newStart = index + k * shift;
        const oldFrom = before.lineAt(index);
        const oldTo = before.lineAt(index + find.length - 1);
        const newFrom = after.lineAt(newStart);
        const newTo = replacement.length > 0 ? after.lineAt(newStart + replacement.length - 1) : newFrom;
        return { oldFrom, oldTo, newFrom, newTo };
      });
      const span = (a: number, b: number): string => (a === b ? `line ${a}` : `lines ${a}-${b}`);
      const resultLines = splitLines(result);
      const parts = [
        `Edited "${rel}"${editor ? " through the editor" : ""}: replaced ${found.length} occurrence${found.length === 1 ? "" : "s"}.`,
        ...ranges
          .slice(0, 20)
          .map((r) =>
            replacement.length > 0 ? `- old ${span(r.oldFrom, r.oldTo)} → now ${span(r.newFrom, r.newTo)}` : `- deleted old ${span(r.oldFrom, r.oldTo)}`,
          ),
      ];
      if (ranges.length > 20) parts.push(`- … and ${ranges.length - 20} more`);
      const first = ranges[0];
      if (first && ranges.length <= 3) {
        parts.push(`The file now reads (around the first change):`, snippet(resultLines, first.newFrom - CONTEXT_LINES, first.newTo + CONTEXT_LINES));
      }
      if (editor && !editor.saved) parts.push(unsavedNote(rel));
      const problems = await deps.diagnostics?.afterEdit(deps.root, { file: rel, before: text }, config?.signal);
      if (problems) parts.push("", problems);
      return success(parts.join("\n"), { filesChanged: [rel] });
    },
    {
      name: "edit_file",
      description:
        "Edit a text file by replacing exact text: oldText must match the file exactly (whitespace included) and, unless replaceAll is true, exactly once. " +
        "Copy oldText from read_file output without the line-number prefixes and include a few surrounding lines to make it unique. " +
        "If oldText is not found, the result shows the most similar region so you can retry. Use write_file to create files.",
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
