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
 * The `resume` command a person can paste: it names the workspace unless that is the folder they are in, always by
 * its absolute path, so that it works from any folder (a relative one, as typed, works only where it was typed).
 */
export function resumeCommandFor(sessionId: string, workspace: string, cwd: string): string {
  const base = `mini-cursor resume ${shellQuote(sessionId)}`;
  const there = realDir(workspace);
  return realDir(cwd) === there ? base : `${base} --workspace ${shellQuote(there)}`;
}
