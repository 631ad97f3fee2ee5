import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { unwritableReason } from "../../../sessions/data-errors.js";
import { dataDir } from "../../../sessions/paths.js";

export interface WorkspaceReport {
  path: string;
  dataDir: string;
  exists: boolean;
  /** A session can create and change files here: the workspace itself and its data folder. */
  writable: boolean;
  error?: string;
}

/**
 * Creates and removes one small file in `dir`: what a session does, so it meets the same read-only mounts,
 * permissions and full disks (`fs.access` cannot see a full disk or a server that refuses at write time).
 * Leaves nothing behind.
 */
function tryWrite(dir: string): string | undefined {
  const probe = path.join(dir, `.mini-cursor-doctor-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
  try {
    fs.writeFileSync(probe, "", { flag: "wx" });
  } catch (error) {
    return unwritableReason(error);
  }
  fs.rmSync(probe, { force: true });
  return undefined;
}

/** A folder (or a link to one), missing, or something else in the way (a file, a broken link). */
function entryKind(file: string): "folder" | "missing" | "other" {
  try {
    return fs.statSync(file).isDirectory() ? "folder" : "other";
  } catch {
    return isLink(file) ? "other" : "missing";
  }
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Whether a session can work here: it writes the workspace's files, and keeps its sessions in `.mini-cursor/`
 * (created on first use). A read-only check: `.mini-cursor/` is not created when missing.
 */
export function checkWorkspace(workspace: string): WorkspaceReport {
  const data = dataDir(workspace);
  const base = { path: workspace, dataDir: data };
  const inWorkspace = tryWrite(workspace);
  const kind = entryKind(data);
  const exists = kind === "folder";
  if (inWorkspace) {
    return {
      ...base,
      exists,
      writable: false,
      error: `cannot write in ${workspace} (${inWorkspace}): a session changes files there and keeps its sessions in ${data}`,
    };
  }
  if (kind === "other") {
    return { ...base, exists: false, writable: false, error: `${data} is not a folder: sessions cannot be stored there (move it away)` };
  }
  const inData = exists ? tryWrite(data) : undefined;
  if (inData) return { ...base, exists, writable: false, error: `cannot write in ${data} (${inData}): sessions are stored there` };
  return { ...base, exists, writable: true };
}
