import path from "node:path";
import { expandBraces, resolvePath, type PathContext } from "./command-paths.js";
import { globMatcher, hasGlob } from "../platform/glob.js";

/**
 * Which folders must never be deleted, moved away or locked: `/` and system folders, the home folder and what
 * contains it, the workspace, what contains it, and its `.git`. A glob that ends in `*` stands for the folder's
 * whole contents (`rm -rf ./*` empties the workspace).
 */

export type DangerKind = "root" | "system" | "home" | "home-parent" | "workspace" | "workspace-parent" | "git";

export interface Danger {
  kind: DangerKind;
  /** e.g. "the whole workspace", "everything in your home folder". */
  label: string;
  /** Unknown variables assumed empty to reach this path, e.g. ["$DIR"]. */
  emptied: string[];
}

const SYSTEM_DIRS = [
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/lib",
  "/lib32",
  "/lib64",
  "/opt",
  "/proc",
  "/root",
  "/sbin",
  "/srv",
  "/sys",
  "/usr",
  "/var",
  "/home",
  "/Users",
  "/System",
  "/Library",
  "/Applications",
  "/private",
  "/mnt",
  "/media",
  "/snap",
  "/nix",
];

function dangerMap(pc: PathContext): Map<string, { kind: DangerKind; label: string }> {
  const map = new Map<string, { kind: DangerKind; label: string }>();
  for (const dir of SYSTEM_DIRS) map.set(dir, { kind: "system", label: `the system folder ${dir}` });
  for (let dir = path.posix.dirname(pc.home); dir !== "/"; dir = path.posix.dirname(dir)) {
    map.set(dir, { kind: "home-parent", label: `${dir}, which contains your home folder` });
  }
  map.set(pc.home, { kind: "home", label: "your home folder" });
  for (let dir = path.posix.dirname(pc.workspace); dir !== "/"; dir = path.posix.dirname(dir)) {
    if (!map.has(dir) || map.get(dir)?.kind === "system") map.set(dir, { kind: "workspace-parent", label: `${dir}, which contains the workspace` });
  }
  map.set(pc.workspace, { kind: "workspace", label: "the whole workspace" });
  map.set(path.posix.join(pc.workspace, ".git"), { kind: "git", label: "the repository's history (.git)" });
  map.set("/", { kind: "root", label: "the root folder /" });
  return map;
}

/** A path segment that only globs, like `*`, `.*`, `*.*` or `**`. */
function isWildcardSegment(segment: string): boolean {
  return /^[*?.[\]!]+$/.test(segment) && /[*?]/.test(segment);
}

export function classifyPath(resolved: string, pc: PathContext): Omit<Danger, "emptied"> | undefined {
  const map = dangerMap(pc);
  const exact = map.get(resolved);
  if (exact) return exact;
  let base = resolved;
  while (base !== "/" && isWildcardSegment(path.posix.basename(base))) base = path.posix.dirname(base);
  const container = base !== resolved ? map.get(base) : undefined;
  if (container) return { kind: container.kind, label: `everything in ${container.label}` };
  if (hasGlob(resolved)) {
    const matches = globMatcher(resolved, "path");
    for (const [dir, danger] of map) if (matches(dir)) return danger;
  }
  return undefined;
}

/** The danger in deleting (or moving away) what `word` names, if any. */
export function dangerOf(word: string, pc: PathContext): Danger | undefined {
  for (const variant of expandBraces(word)) {
    const resolved = resolvePath(variant, pc, "empty");
    if (!resolved) continue;
    const danger = classifyPath(resolved.path, pc);
    if (danger) return { ...danger, emptied: resolved.emptied };
  }
  return undefined;
}

/** "the whole workspace" or, when unset variables were assumed empty, "…if $DIR is empty or unset". */
export function dangerPhrase(danger: Danger): string {
  if (danger.emptied.length === 0) return danger.label;
  return `${danger.label} if ${danger.emptied.join(" and ")} ${danger.emptied.length > 1 ? "are" : "is"} empty or unset`;
}

/** Advice that fits the danger, ending the reason sentence. */
export function dangerAdvice(danger: Danger, example: string): string {
  if (danger.emptied.length > 0) return `use \${VAR:?} or a literal path so an empty value stops the command`;
  if (danger.kind === "git") return "the history cannot be recovered, so leave .git alone";
  return `name the specific files or folders instead (e.g. \`${example}\`)`;
}
