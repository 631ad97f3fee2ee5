import fs from "node:fs";
import path from "node:path";

/** A word as a POSIX shell reads it back unchanged: bare when it is safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/**
 * The `resume` command a person can paste where they are (`cwd`): it names the workspace unless that is the
 * folder they are in (a relative path when the workspace is below it, else the absolute one).
 */
export function resumeCommandFor(sessionId: string, workspace: string, cwd: string): string {
  const here = realDir(cwd);
  const there = realDir(workspace);
  const base = `mini-cursor resume ${shellQuote(sessionId)}`;
  if (here === there) return base;
  const relative = path.relative(here, there);
  const below = relative && !relative.startsWith("..") && !path.isAbsolute(relative);
  // A value starting with "-" would be read as a flag.
  const shown = below ? (relative.startsWith("-") ? `./${relative}` : relative) : there;
  return `${base} --workspace ${shellQuote(shown)}`;
}
