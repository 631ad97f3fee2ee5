import path from "node:path";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { lineNumberWidth, numberedLine, splitLines } from "./lines.js";
import { readTextFile, MAX_TEXT_FILE_BYTES, type TextFile, type TextFileFailure } from "../services/workspace-files/text-file.js";
import { failure, success, type ToolResult } from "./tool-result.js";
import type { ToolNeeds } from "./types.js";
import { CAN_VERIFY_OPENED } from "../services/workspace-files/confined-fs.js";
import { isUsableRealPath, resolveWorkspacePath, toDisplayPath } from "../services/workspace-files/workspace-path.js";
import { openSkillFile } from "../services/skills/skill-file.js";
import { isSkillPath } from "../services/skills/skill-path.js";
import { scopeOf } from "./tool-scope.js";
import { editorFailure, editorTextOf } from "./editor-io.js";

export const DEFAULT_OUTPUT_LIMIT_CHARS = 20_000;

const schema = z.object({
  path: z.string().describe('File path, relative to the workspace root (e.g. "src/index.ts") or absolute inside it.'),
  startLine: z.number().int().min(1).optional().describe("First line to show, 1-based. Omit to start at the top."),
  endLine: z.number().int().min(1).optional().describe("Last line to show, 1-based and inclusive. Omit to read to the end (or until the size cap)."),
});

function unreadable(rel: string, file: Extract<TextFile, { ok: false }>): ToolResult {
  switch (file.reason) {
    case "missing":
      return failure(`file "${rel}" does not exist. Call list_directory to see which files exist, or search_code to find the file you mean.`);
    case "directory":
      return failure(`"${rel}" is a directory, not a file. Call list_directory with path "${rel}" to see what it contains.`);
    case "binary":
      return failure(
        `"${rel}" ${file.detail}; read_file only shows text files. Do not try to read it as text; if you must inspect it, use execute_command (e.g. \`file ${rel}\`).`,
      );
    case "too_large":
      return failure(
        `"${rel}" ${file.detail}; read_file reads files up to ${MAX_TEXT_FILE_BYTES} bytes. Use search_code to find the lines you need, or execute_command with \`sed -n 'A,Bp' ${rel}\`.`,
      );
    case "changed":
      return failure(`"${rel}" ${file.detail}; nothing was read. Call read_file again once the path is stable.`);
    default:
      return failure(`"${rel}" ${file.detail}. Check the path with list_directory.`);
  }
}

const CHECKED_OUTCOMES: ReadonlySet<TextFileFailure> = new Set(["directory", "not_a_file", "too_large", "binary"]);

/**
 * Reads the file the model named, checking what was actually opened. A plain path (no symlinks: the common case)
 * needs no separate walk: if the opened file's real path is the path as written, that path is real and only its
 * name needs checking. Anything else (a symlink on the way, a missing file, a swap) takes the full resolution,
 * which explains refusals, and is then checked again once opened, since the path may have changed meanwhile.
 */
async function openNamedFile(root: string, inputPath: string): Promise<{ rel: string; abs: string; file: TextFile } | { error: string }> {
  const allowed = (real: string): boolean => isUsableRealPath(root, real);
  if (CAN_VERIFY_OPENED && inputPath.trim() !== "" && !inputPath.includes("\0")) {
    const lexical = path.resolve(root, inputPath);
    if (allowed(lexical)) {
      const file = await readTextFile(lexical, (real) => real === lexical);
      // These outcomes come only after the opened file passed the check; any other one is explained by the walk.
      if (file.ok || CHECKED_OUTCOMES.has(file.reason)) return { rel: toDisplayPath(root, lexical), abs: lexical, file };
    }
  }
  const resolved = await resolveWorkspacePath(root, inputPath);
  if (!resolved.ok) return { error: resolved.error };
  return { rel: resolved.rel, abs: resolved.abs, file: await readTextFile(resolved.abs, allowed) };
}

export function createReadFileTool(base: ToolNeeds<"outputLimitChars" | "skills" | "editor">) {
  return tool(
    async ({ path: inputPath, startLine, endLine }, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      const limit = deps.outputLimitChars ?? DEFAULT_OUTPUT_LIMIT_CHARS;
      // A skill's files (the paths load_skill lists) are read from the skill's own folder, confined to it.
      const opened = isSkillPath(inputPath)
        ? { ...(await openSkillFile(deps.skills, deps.root, inputPath)), abs: undefined }
        : await openNamedFile(deps.root, inputPath);
      if ("error" in opened) return failure(opened.error);
      const { rel, file, abs } = opened;
      if (!file.ok) return unreadable(rel, file);
      // Checked and opened on disk first; then the text the person sees, unsaved changes included, when an editor gives it.
      let text = file.text;
      if (abs !== undefined) {
        try {
          text = (await editorTextOf(deps.editor, abs, config?.signal)) ?? text;
        } catch (error) {
          return failure(editorFailure(rel, "read", error));
        }
      }

      const lines = splitLines(text);
      const total = lines.length;
      if (total === 0) return success(`File "${rel}" is empty (0 lines).`);
      const start = startLine ?? 1;
      if (start > total) {
        return failure(`startLine ${start} is past the end of "${rel}", which has ${total} lines; call read_file with startLine between 1 and ${total}.`);
      }
      if (endLine !== undefined && endLine < start) {
        return failure(`endLine ${endLine} is before startLine ${start}; call read_file with endLine >= startLine.`);
      }
      const end = Math.min(endLine ?? total, total);

      // Fill the character budget line by line; always show at least one line so progress is possible.
      const width = lineNumberWidth(end);
      const shown: string[] = [];
      let used = 0;
      for (let n = start; n <= end; n += 1) {
        const formatted = numberedLine(n, lines[n - 1] ?? "", width);
        if (shown.length > 0 && used + formatted.length + 1 > limit) break;
        shown.push(formatted);
        used += formatted.length + 1;
      }
      const shownEnd = start + shown.length - 1;
      let note = "";
      if (shownEnd < end) {
        // The output cap, not the file, ended the listing.
        note = `\n[showing lines ${start}-${shownEnd} of ${total}; call read_file with startLine=${shownEnd + 1} to read more]`;
      } else if (start > 1 || end < total) {
        note = `\n[showing lines ${start}-${shownEnd} of ${total}]`;
      }
      return success(shown.join("\n") + note);
    },
    {
      name: "read_file",
      description:
        "Read a text file from the workspace. Returns its lines prefixed with 1-based line numbers (`  12| text`; the prefix is not part of the file). " +
        "Use startLine/endLine to read part of a large file; output is capped and a note says which startLine to use to continue. " +
        "Binary files are refused. Use list_directory to find files and search_code to find where something is defined.",
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
