import fs from "node:fs";
import path from "node:path";
import { parseFrontmatter } from "../../../platform/frontmatter.js";
import { isInside } from "../../../platform/path-inside.js";
import { isUsableRealPath } from "../../../services/workspace-files/workspace-path.js";
import { readTextFile } from "../../../services/workspace-files/text-file.js";

/** A slash command of the project's own: a Markdown file whose body is the message it sends. */
export interface CustomCommand {
  name: string;
  description: string;
  /** What the command takes, for /help (frontmatter `argument-hint`). */
  argumentHint?: string;
  /** The message; `$ARGUMENTS` is replaced by what follows the command. */
  prompt: string;
  /** The file, relative to the workspace. */
  source: string;
}

/** Where the commands live, the first found of a name winning: ours, then Claude Code's (the same format). */
const OUR_FOLDER = ".mini-cursor/commands";
const FOLDERS = [OUR_FOLDER, ".claude/commands"];
const NAME = /^[a-z0-9][a-z0-9_-]*$/i;
const MAX_COMMANDS = 100;

/**
 * The workspace's custom commands (`.mini-cursor/commands/NAME.md`, `.claude/commands/NAME.md`): the file name is the
 * command, an optional frontmatter gives `description` and `argument-hint`, the body is the message. Read confined to
 * the workspace as read_file reads (a symlink out of it is passed over). Names of built-in commands are kept for them.
 */
export async function loadCustomCommands(workspace: string, builtIn: readonly string[]): Promise<{ commands: CustomCommand[]; problems: string[] }> {
  const commands: CustomCommand[] = [];
  const problems: string[] = [];
  const taken = new Set(builtIn);
  let root: string;
  try {
    root = await fs.promises.realpath(workspace);
  } catch {
    return { commands, problems };
  }
  // As read_file reads (inside the workspace, no credential file), except that our own commands live under
  // .mini-cursor/, which read_file never reads.
  const ours = path.join(root, OUR_FOLDER);
  const readable = (real: string): boolean => isUsableRealPath(root, real) || (isInside(ours, real) && real !== ours);
  for (const folder of FOLDERS) {
    let names: string[];
    try {
      names = (await fs.promises.readdir(path.join(root, folder))).filter((n) => n.endsWith(".md")).sort();
    } catch {
      continue;
    }
    for (const file of names) {
      const name = file.slice(0, -3);
      const source = `${folder}/${file}`;
      if (!NAME.test(name) || taken.has(name) || commands.length >= MAX_COMMANDS) {
        if (builtIn.includes(name)) problems.push(`${source}: /${name} is a built-in command; rename the file to use it`);
        continue;
      }
      const real = await fs.promises.realpath(path.join(root, source)).catch(() => null);
      if (real === null || !readable(real)) continue;
      const read = await readTextFile(real, readable);
      if (!read.ok) continue;
      const parsed = parseFrontmatter(read.text);
      const data = parsed.ok ? parsed.data : {};
      const body = (parsed.ok ? parsed.body : read.text).trim();
      if (!body) {
        problems.push(`${source}: no message in the file`);
        continue;
      }
      const description = typeof data["description"] === "string" ? data["description"] : (body.split("\n", 1)[0] ?? "").slice(0, 60);
      const hint = data["argument-hint"];
      commands.push({ name, description, ...(typeof hint === "string" ? { argumentHint: hint } : {}), prompt: body, source });
      taken.add(name);
    }
  }
  return { commands, problems };
}
