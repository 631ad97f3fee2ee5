import path from "node:path";
import { credentialFilesAllowed, credentialLocationOf, credentialRefusal } from "../../safety/credential-files.js";
import { isAgentState, STATE_DIR_NAME } from "../../core/index.js";
import { errorCode } from "../../platform/error-info.js";
import { isSkillPath } from "../skills/skill-path.js";
import { isInside } from "../../platform/path-inside.js";
import { followSymlinks } from "../../platform/real-path.js";

/**
 * Confines model-supplied paths to the workspace. String checks are not enough: symlinks (also dangling ones,
 * and folders that a not-yet-existing file would be created under) can point anywhere, so every component is
 * resolved the way the kernel would before the result is compared with the root.
 */
export type WorkspacePath = { ok: true; abs: string; rel: string } | { ok: false; error: string };

/** A path for messages to the model: relative to the root ("." for the root), absolute if outside. */
export function toDisplayPath(root: string, abs: string): string {
  if (!isInside(root, abs)) return abs;
  const rel = path.relative(root, abs);
  return rel === "" ? "." : rel.split(path.sep).join("/");
}

/**
 * True when the tools may use the real path `real`: inside `root`, not mini-cursor's own state and (unless allowed)
 * not a credential file. Used again on what was actually opened, since a path can change after it was resolved.
 */
export function isUsableRealPath(root: string, real: string): boolean {
  if (!isInside(root, real)) return false;
  if (!credentialFilesAllowed() && credentialLocationOf(real) !== undefined) return false;
  return !isAgentState(toDisplayPath(root, real));
}

/**
 * Resolves `inputPath` (relative to `root`, or absolute) to its real location and checks it lies inside `root`
 * (which must already be a real path). On success `abs` is the real path to operate on and `rel` its display
 * form. On failure `error` is a sentence for the model (without the "Error: " prefix the tools add).
 */
export async function resolveWorkspacePath(root: string, inputPath: string): Promise<WorkspacePath> {
  const outside = (where: string): WorkspacePath => ({
    ok: false,
    error: `path "${inputPath}" ${where} outside the workspace ${root}; use a path inside it.`,
  });
  if (inputPath.trim() === "") {
    return { ok: false, error: 'path is empty; pass a path relative to the workspace root, e.g. "src/index.ts" or ".".' };
  }
  if (inputPath.includes("\0")) {
    return { ok: false, error: `path "${inputPath}" contains a NUL character; pass a plain file path.` };
  }
  // Skills are read-only: read_file reads their files itself; every other tool refuses them.
  if (isSkillPath(inputPath)) {
    return { ok: false, error: `"${inputPath}" is a skill's file: skills are read-only and only read_file reads them. Use a workspace path here.` };
  }
  const start = path.isAbsolute(inputPath) ? inputPath : `${root}${path.sep}${inputPath}`;
  // A plain ".." escape gets the simplest message; symlinks are checked below.
  if (!isInside(root, path.resolve(start))) return outside("is");
  let followed: Awaited<ReturnType<typeof followSymlinks>>;
  try {
    followed = await followSymlinks(start);
  } catch (error) {
    return { ok: false, error: `cannot resolve path "${inputPath}" (${errorCode(error) ?? String(error)}); check the path.` };
  }
  if (followed === null) {
    return { ok: false, error: `path "${inputPath}" has too many levels of symbolic links (a loop?); use another path.` };
  }
  if (!isInside(root, followed.real)) {
    return followed.viaSymlink ? outside(`resolves through a symlink to ${followed.real}, which is`) : outside("is");
  }
  // A workspace that is (or contains) a home folder, or a symlink inside it, must not hand out keys and tokens.
  const credential = credentialFilesAllowed() ? undefined : credentialLocationOf(followed.real);
  if (credential !== undefined) return { ok: false, error: credentialRefusal(inputPath, credential) };
  const rel = toDisplayPath(root, followed.real);
  if (isAgentState(rel)) {
    return {
      ok: false,
      error: `"${inputPath}" is inside ${STATE_DIR_NAME}/, mini-cursor's own state (sessions, checkpoints, the undo store, locks); the tools never read or change it. Work on the project's files instead.`,
    };
  }
  return { ok: true, abs: followed.real, rel };
}
