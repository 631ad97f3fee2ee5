import fs from "node:fs";
import path from "node:path";
import { PROJECT_CONFIG_PATHS, STATE_DIR_NAME, TOOL_CONFIG_PATHS } from "../../core/index.js";
import { sandboxCredentialMounts } from "../credential-sandbox.js";
import type { WorkspaceAccess } from "./types.js";
import { isBelow } from "../../platform/path-inside.js";
import { realPath } from "../../platform/real-path.js";

/**
 * The bubblewrap argument set for one command. Mount operations apply in order, so later ones win: the host is
 * read-only, scratch folders are private, the workspace is writable (or read-only), and then the agent's state,
 * extra read-only paths and credential locations are laid over it (also where they lie inside the workspace).
 */
export interface BwrapOptions {
  /** The workspace; bound at its real path. */
  workspace: string;
  /** Default "read-write". "read-only": see readOnlyWorkspace. */
  workspaceAccess?: WorkspaceAccess;
  /** Share the host network; otherwise a new network namespace with only loopback. */
  allowNetwork: boolean;
  /** Home folder whose credential locations are hidden. */
  home: string;
  /** Extra paths to hide (existing folders become empty, files read as empty). */
  protectedPaths: string[];
  /** Extra paths kept read-only. */
  readOnlyPaths: string[];
  /** Folder the command starts in; default the workspace. Must be a real path inside it. */
  cwd?: string;
  /**
   * With "read-only": bind the workspace read-only as a whole, without scratch. For a long-lived process (the
   * TypeScript language service of src/services/diagnostics): it must see files created and replaced after it started,
   * which entries bound one by one into a tmpfs would hide (a top-level file replaced by rename stays the old one).
   */
  liveWorkspace?: boolean;
}

/** "nobody": the command runs unprivileged inside its own user namespace. */
export const SANDBOX_UID = 65534;
export { STATE_DIR_NAME };
/**
 * Host folders replaced by empty private ones. /run also holds daemon sockets (docker, D-Bus, user runtime
 * dirs): a read-only mount does not stop connect(), and the command runs with the caller's uid outside.
 */
const PRIVATE_DIRS: readonly string[] = ["/tmp", "/var/tmp", "/run", "/var/run"];
/**
 * Cache and report folders, relative to the workspace, that test runners clear or rewrite. In a read-only
 * workspace they start empty, in throwaway scratch (see readOnlyWorkspace).
 */
export const SCRATCH_DIRS: readonly string[] = [
  "coverage",
  ".nyc_output",
  ".pytest_cache",
  ".jest-cache",
  "node_modules/.cache",
  "node_modules/.vite",
  "node_modules/.vitest",
];

function readLink(p: string): string | undefined {
  try {
    return fs.readlinkSync(p);
  } catch {
    return undefined;
  }
}

function isDirectory(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** A real folder, not a symlink to one (/var/run usually links to /run, which is handled by itself). */
function isPlainDirectory(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The folders strictly between `parent` and `child` (`.claude` for `.claude/agents`), outermost first. */
function foldersBetween(parent: string, child: string): string[] {
  const folders: string[] = [];
  for (let dir = path.dirname(child); isBelow(parent, dir); dir = path.dirname(dir)) folders.unshift(dir);
  return folders;
}

/** Hides an existing path: an empty tmpfs over a folder, /dev/null over anything else. */
function mask(p: string): string[] {
  return isDirectory(p) ? ["--tmpfs", p] : ["--ro-bind", "/dev/null", p];
}

/**
 * Binding each top-level entry costs about 1 ms, growing with their number (bwrap rereads the mount table per
 * mount): 200 entries add about 0.25 s per command, 1000 about 2.4 s. Beyond this the workspace is bound
 * read-only as a whole, without scratch at the top level.
 */
const MAX_BOUND_ENTRIES = 200;

/**
 * Why this shape: bubblewrap 0.8 has no overlay, and bwrap creates a missing mount point (say `coverage`) in the
 * real workspace. So the workspace folder becomes an empty tmpfs with each existing entry bound read-only into
 * it: what exists cannot be changed (writes fail with EROFS, removing a top-level entry with EBUSY), while new
 * top-level output and mount points land in the tmpfs and vanish with the sandbox. Top-level SCRATCH_DIRS are
 * left out (a runner may delete and recreate them); nested ones that exist get an empty tmpfs.
 * `canCreate`: whether bwrap may create missing mount points in the workspace (only in the tmpfs).
 */
function readOnlyWorkspace(workspace: string, live: boolean): { args: string[]; canCreate: boolean } {
  if (live) return { args: ["--ro-bind", workspace, workspace], canCreate: false };
  const entries = fs.readdirSync(workspace, { withFileTypes: true });
  const whole = entries.length > MAX_BOUND_ENTRIES;
  const args = whole ? ["--ro-bind", workspace, workspace] : ["--tmpfs", workspace];
  for (const entry of whole ? [] : entries) {
    if (SCRATCH_DIRS.includes(entry.name)) continue;
    const p = path.join(workspace, entry.name);
    // Symlinks are recreated, not followed. An entry deleted meanwhile is left out instead of failing the command.
    if (!entry.isSymbolicLink()) args.push("--ro-bind-try", p, p);
    else {
      const target = readLink(p);
      if (target !== undefined) args.push("--symlink", target, p);
    }
  }
  for (const rel of SCRATCH_DIRS.filter((dir) => whole || dir.includes("/"))) {
    const real = realPath(path.join(workspace, rel));
    if (real && isBelow(workspace, real) && isDirectory(real)) args.push("--tmpfs", real);
  }
  return { args, canCreate: !whole };
}

export function buildBwrapArgs(opts: BwrapOptions): string[] {
  const workspace = realPath(opts.workspace) ?? path.resolve(opts.workspace);
  const cwd = opts.cwd === undefined ? workspace : (realPath(opts.cwd) ?? path.resolve(opts.cwd));
  const args: string[] = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  // The caller's uid is kept outside the sandbox; as root that owns every /proc/sys file (core_pattern runs
  // programs as root), and bwrap only covers /proc/sys when it looks writable by mode. Read-only it is.
  args.push("--remount-ro", "/proc");

  const privateDirs = PRIVATE_DIRS.filter((dir) => dir === "/tmp" || isPlainDirectory(dir));
  for (const dir of privateDirs) args.push("--tmpfs", dir);
  // DNS must keep working when the network is allowed and resolv.conf points into /run (systemd-resolved).
  const resolv = realPath("/etc/resolv.conf");
  if (resolv && privateDirs.some((dir) => isBelow(dir, resolv))) args.push("--ro-bind", resolv, resolv);

  let canCreate = true;
  if (opts.workspaceAccess === "read-only") {
    const readOnly = readOnlyWorkspace(workspace, opts.liveWorkspace === true);
    args.push(...readOnly.args);
    canCreate = readOnly.canCreate;
  } else args.push("--bind", workspace, workspace);
  const stateDir = path.join(workspace, STATE_DIR_NAME);
  const stateReal = realPath(stateDir);
  if (stateReal) args.push("--ro-bind", stateReal, stateReal);
  // Missing: an empty read-only folder, so a command cannot create the agent's state for it to find later.
  // (A workspace that is read-only as a whole needs none, and bwrap could not create it there.)
  else if (canCreate) args.push("--tmpfs", stateDir, "--remount-ro", stateDir);
  // The project's settings files, and other tools' files that run commands on the host, are the person's: a command
  // may read them but not plant servers, rules or hooks there.
  // Only existing ones can be bound (a missing one could still be created; the file tools ask before writing it).
  const settings = [...PROJECT_CONFIG_PATHS, ...TOOL_CONFIG_PATHS].flatMap((rel) => realPath(path.join(workspace, rel)) ?? []);
  // A folder on their way (.claude) is bound onto itself first: a mount point cannot be renamed or removed, so a
  // command cannot move the settings aside and put its own in their place. (A read-only workspace needs none.)
  if (opts.workspaceAccess !== "read-only") {
    for (const dir of new Set(settings.flatMap((real) => foldersBetween(workspace, real)))) args.push("--bind", dir, dir);
  }
  for (const real of settings) args.push("--ro-bind", real, real);
  // A `.git` file (a worktree's or submodule's pointer) names the repository whose config git outside the sandbox uses
  // (mini-cursor's worktree commits, the person's git): pointed at a folder of the command's, its filters would run.
  const gitPointer = path.join(workspace, ".git");
  if (fs.lstatSync(gitPointer, { throwIfNoEntry: false })?.isFile()) args.push("--ro-bind", gitPointer, gitPointer);
  for (const p of opts.readOnlyPaths) {
    const real = realPath(p);
    if (real) args.push("--ro-bind", real, real);
  }

  const credentials = sandboxCredentialMounts(opts.home, workspace);
  const hidden = new Set(credentials.hide);
  for (const p of opts.protectedPaths) {
    const real = realPath(p);
    if (real) hidden.add(real);
  }
  for (const p of hidden) args.push(...mask(p));
  // Public keys and known_hosts of a hidden .ssh folder; bwrap binds from the host, under the empty folder.
  for (const p of credentials.reveal) args.push("--ro-bind", p, p);

  // Own user namespace, unprivileged uid inside: the uid maps to the caller's outside, so workspace files the
  // caller owns stay writable, while no capability is held anywhere and nested namespaces are refused.
  args.push("--unshare-user", "--disable-userns", "--uid", String(SANDBOX_UID), "--gid", String(SANDBOX_UID));
  // Own pid namespace: when the command ends, the kernel kills everything left in it, setsid or not.
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!opts.allowNetwork) args.push("--unshare-net");
  // --new-session: no TIOCSTI injection into a terminal; --cap-drop: explicit, also for privileged bwrap.
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL", "--chdir", cwd);
  return args;
}
