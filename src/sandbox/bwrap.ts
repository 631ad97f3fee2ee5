import fs from "node:fs";
import path from "node:path";
import { existingCredentialLocations } from "../tools/credential-paths.js";

/**
 * The bubblewrap argument set for one command. Mount operations apply in order, so later ones win: the host is
 * read-only, scratch folders are private, the workspace is writable, and then the agent's state, extra
 * read-only paths and credential locations are laid over it (also where they lie inside the workspace).
 */
export interface BwrapOptions {
  /** The workspace; bound read-write at its real path. */
  workspace: string;
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
}

/** "nobody": the command runs unprivileged inside its own user namespace. */
export const SANDBOX_UID = 65534;
/** The agent's own state in the workspace (sessions, checkpoints, locks). */
export const STATE_DIR_NAME = ".mini-cursor";
/**
 * Host folders replaced by empty private ones. /run also holds daemon sockets (docker, D-Bus, user runtime
 * dirs): a read-only mount does not stop connect(), and the command runs with the caller's uid outside.
 */
const PRIVATE_DIRS: readonly string[] = ["/tmp", "/var/tmp", "/run", "/var/run"];

function realPath(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
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

function isBelow(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** Hides an existing path: an empty tmpfs over a folder, /dev/null over anything else. */
function mask(p: string): string[] {
  return isDirectory(p) ? ["--tmpfs", p] : ["--ro-bind", "/dev/null", p];
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

  args.push("--bind", workspace, workspace);
  const stateDir = path.join(workspace, STATE_DIR_NAME);
  const stateReal = realPath(stateDir);
  if (stateReal) args.push("--ro-bind", stateReal, stateReal);
  // Missing: an empty read-only folder, so a command cannot create the agent's state for it to find later.
  else args.push("--tmpfs", stateDir, "--remount-ro", stateDir);
  for (const p of opts.readOnlyPaths) {
    const real = realPath(p);
    if (real) args.push("--ro-bind", real, real);
  }

  const credentials = existingCredentialLocations(opts.home);
  const hidden = new Set([...credentials.dirs, ...credentials.files]);
  for (const p of opts.protectedPaths) {
    const real = realPath(p);
    if (real) hidden.add(real);
  }
  for (const p of hidden) args.push(...mask(p));

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
