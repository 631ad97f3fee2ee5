import { promises as fs } from "node:fs";
import path from "node:path";
import { LandingRefusedError, type LandingCheck } from "./atomic-write.js";
import { openForReading, PathChangedError, type ConfinedDir } from "./confined-fs.js";
import type { EditorFiles } from "./editor-files.js";
import { errorCode } from "../../platform/error-info.js";

export interface EditorWriteResult {
  created: boolean;
  previousBytes: number;
  bytes: number;
  /** The disk holds the new text once the editor answered (it saved); false: only its buffer has it so far. */
  onDisk: boolean;
}

function refuseIf(check: LandingCheck | undefined, abs: string): void {
  const refused = check?.(abs);
  if (refused !== undefined) throw new LandingRefusedError(refused);
}

/**
 * Writes `content` to `name` in the confined folder `dir` through the editor instead of the disk. The same checks
 * as a disk write come first, on the folder held open: the landing (inside the workspace, not mini-cursor's state,
 * what was approved) and no symlink in the file's place, then the landing again where the folder is just before the
 * request. The editor is handed that real path; it writes by path, so a folder swapped during its own write is the
 * one window left (docs/security.md).
 */
export async function writeThroughEditor(
  dir: ConfinedDir,
  name: string,
  content: string,
  editor: Required<Pick<EditorFiles, "write">>,
  check?: LandingCheck,
  signal?: AbortSignal,
): Promise<EditorWriteResult> {
  refuseIf(check, path.join(dir.abs, name));
  let previousBytes: number | undefined;
  try {
    const stat = await fs.lstat(dir.entry(name));
    if (stat.isSymbolicLink()) throw new PathChangedError(path.join(dir.abs, name));
    previousBytes = stat.size;
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  const target = path.join(await dir.current(), name);
  refuseIf(check, target);
  await editor.write(target, content, signal);
  const onDisk = await openForReading(dir.entry(name))
    .then((handle) => handle.readFile("utf8").finally(() => handle.close()))
    .then(
      (text) => text === content,
      () => false,
    );
  return { created: previousBytes === undefined, previousBytes: previousBytes ?? 0, bytes: Buffer.byteLength(content), onDisk };
}
