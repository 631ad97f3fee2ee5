import path from "node:path";

/**
 * Whether `child` is `parent` itself or below it, both absolute and normalized: decided on path components, so a
 * sibling that merely starts with dots (`..cache`, `...`) is inside and `../x` is not. The one place for the question
 * (the file tools' confinement, undo's restore, the sandbox's mounts, the credential catalogue).
 */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Whether `child` is strictly below `parent` (not `parent` itself). */
export function isBelow(parent: string, child: string): boolean {
  return path.relative(parent, child) !== "" && isInside(parent, child);
}
