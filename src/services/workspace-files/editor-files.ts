/**
 * The files as an editor has them (an ACP client's `fs/read_text_file` and `fs/write_text_file`): reads come from its
 * buffers, unsaved changes included, and writes go to it, so it shows them in its own review. A face gives what its
 * editor offers; without it, the tools use the disk. Paths are real, absolute and already checked by the tools.
 */
export interface EditorFiles {
  /** The text the editor has for the file (its buffer when open, else the disk); throws when it cannot. */
  read?(abs: string, signal?: AbortSignal): Promise<string>;
  /** Hands the file's whole new text to the editor, which applies and saves it; throws when it refuses. */
  write?(abs: string, text: string, signal?: AbortSignal): Promise<void>;
}

/** A read the editor could not answer: the tools say so rather than guess. */
export class EditorRequestError extends Error {}
