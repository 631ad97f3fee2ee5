import { atomicWriteIn, LandingRefusedError, type LandingCheck } from "../services/workspace-files/atomic-write.js";
import { PathChangedError, type ConfinedDir } from "../services/workspace-files/confined-fs.js";
import { EditorRequestError, type EditorFiles } from "../services/workspace-files/editor-files.js";
import { writeThroughEditor, type EditorWriteResult } from "../services/workspace-files/editor-write.js";
import { MAX_TEXT_FILE_BYTES } from "../services/workspace-files/text-file.js";
import { errorMessage } from "../platform/error-info.js";

/**
 * The editor's text for a file the tools already opened and checked on disk, or undefined when there is no editor
 * that reads (the disk's text stands). A text bigger than the tools read, or an editor that fails, is an
 * EditorRequestError: the tool says so rather than work on text the person does not see.
 */
export async function editorTextOf(editor: EditorFiles | undefined, abs: string, signal?: AbortSignal): Promise<string | undefined> {
  if (!editor?.read) return undefined;
  let text: string;
  try {
    text = await editor.read(abs, signal);
  } catch (error) {
    throw new EditorRequestError(errorMessage(error));
  }
  if (Buffer.byteLength(text) > MAX_TEXT_FILE_BYTES) throw new EditorRequestError(`its text in the editor is larger than ${MAX_TEXT_FILE_BYTES} bytes`);
  return text;
}

/** Why a file tool stopped on the editor, as a sentence for the model. */
export function editorFailure(rel: string, what: "read" | "write", error: unknown): string {
  const why = errorMessage(error);
  return what === "read"
    ? `the editor could not give the text of "${rel}" (${why}); nothing was changed. Try again, or ask the person to check the file in their editor.`
    : `the editor did not take the change to "${rel}" (${why}); the file is as it was in the editor. Try again, or ask the person.`;
}

/** What a result adds after a write through the editor that the editor has not saved yet. */
export function unsavedNote(rel: string): string {
  return `The editor holds the new text of "${rel}" in its buffer but has not saved it yet: commands, searches and diagnostics see the file as it is on disk until the person saves it.`;
}

/** A file tool's own deps: the editor only when it writes. */
export function editorWriter(editor: EditorFiles | undefined): Required<Pick<EditorFiles, "write">> | undefined {
  const write = editor?.write?.bind(editor);
  return write ? { write } : undefined;
}

/** The editor refused or failed a write (its error is the cause). */
export class EditorWriteFailed extends Error {
  constructor(override readonly cause: unknown) {
    super("the editor did not take the write");
  }
}

/**
 * Lands a file tool's write in the confined folder: through the editor when it writes (its failures become
 * EditorWriteFailed), else atomically on disk. Refusals of the landing and path swaps are thrown as they are.
 */
export async function landWrite(
  dir: ConfinedDir,
  name: string,
  content: string,
  check: LandingCheck,
  editor: Required<Pick<EditorFiles, "write">> | undefined,
  signal?: AbortSignal,
): Promise<EditorWriteResult> {
  if (!editor) return { ...(await atomicWriteIn(dir, name, content, check)), onDisk: true };
  try {
    return await writeThroughEditor(dir, name, content, editor, check, signal);
  } catch (error) {
    if (error instanceof LandingRefusedError || error instanceof PathChangedError) throw error;
    throw new EditorWriteFailed(error);
  }
}
