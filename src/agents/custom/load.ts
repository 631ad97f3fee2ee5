import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { userConfigPath } from "../../platform/config/index.js";
import { AGENT_NAME_PATTERN, BUILTIN_AGENT_NAMES, RESERVED_AGENT_NAMES } from "../../core/index.js";
import type { AgentSource, CustomAgentDefinition } from "./definition.js";
import { AgentFileError, parseFrontmatter } from "./frontmatter.js";
import { listedTools, resolveTools } from "./tool-names.js";
import { isBelow } from "../../platform/path-inside.js";

/** An agent's prompt is instructions, not a document: a bigger file is most likely a mistake (and costs every call). */
const MAX_FILE_CHARS = 40_000;
const MAX_NAME_CHARS = 40;
/** Claude Code's model aliases (and "inherit") name no model of our endpoint: such agents use the session's model. */
const SESSION_MODEL = new Set(["inherit", "sonnet", "opus", "haiku", "default"]);

export interface AgentFolder {
  dir: string;
  source: AgentSource;
}

/** Where agent files live, most important first: the workspace's own, then Claude Code's, then the user's. */
export function agentFolders(workspace: string | undefined, env: NodeJS.ProcessEnv): AgentFolder[] {
  const home = env.HOME || os.homedir();
  const folders: AgentFolder[] = [];
  if (workspace) {
    folders.push({ dir: path.join(workspace, ".mini-cursor", "agents"), source: "workspace" });
    folders.push({ dir: path.join(workspace, ".claude", "agents"), source: "workspace-claude" });
  }
  folders.push({ dir: path.join(path.dirname(userConfigPath(env)), "agents"), source: "user" });
  folders.push({ dir: path.join(home, ".claude", "agents"), source: "user-claude" });
  return folders;
}

const frontmatterSchema = z.object({
  name: z.string({ error: "name is missing (or not text)" }).trim().min(1, "name is empty"),
  description: z.string({ error: "description is missing (or not text)" }).trim().min(1, "description is empty"),
  model: z.string({ error: "model must be a model name" }).trim().optional(),
});

function checkName(name: string): void {
  if (name.length > MAX_NAME_CHARS) throw new AgentFileError(`name "${name.slice(0, MAX_NAME_CHARS)}…" is longer than ${MAX_NAME_CHARS} characters`);
  if (!AGENT_NAME_PATTERN.test(name)) throw new AgentFileError(`name "${name}" must be lowercase words joined by - or _ (e.g. docs-writer)`);
  if ((BUILTIN_AGENT_NAMES as readonly string[]).includes(name)) throw new AgentFileError(`name "${name}" is a built-in agent's`);
  if ((RESERVED_AGENT_NAMES as readonly string[]).includes(name)) throw new AgentFileError(`name "${name}" is reserved`);
}

/** One agent file's text as a definition; throws AgentFileError saying what is wrong. */
export function parseAgentFile(text: string, file: string, displayPath: string, source: AgentSource): CustomAgentDefinition {
  if (text.length > MAX_FILE_CHARS) throw new AgentFileError(`it is longer than ${MAX_FILE_CHARS} characters`);
  const { data, body } = parseFrontmatter(text);
  const parsed = frontmatterSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AgentFileError(issue?.message ?? "its frontmatter is invalid");
  }
  const { name, description, model } = parsed.data;
  checkName(name);
  const { tools, extraTools } = resolveTools(listedTools(data.tools));
  const usable = model && !SESSION_MODEL.has(model.toLowerCase()) ? model : undefined;
  return {
    name,
    description: description.replace(/\s+/g, " "),
    tools,
    extraTools,
    ...(usable ? { model: usable } : {}),
    prompt: body.trim(),
    file,
    displayPath,
    source,
  };
}

export interface LoadedAgents {
  agents: CustomAgentDefinition[];
  /** One line per file that was skipped, naming it and the problem. */
  problems: string[];
}

function markdownFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.name.endsWith(".md") && (e.isFile() || e.isSymbolicLink()))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw new AgentFileError(`cannot be read (${code ?? "unknown error"})`);
  }
}

/**
 * Every agent file of the workspace and of the user, validated. A bad file is skipped with one line saying which
 * file and what is wrong; nothing here throws. A name defined in a more important folder hides the same name in a
 * later one (the workspace's agents win over the user's); twice in one folder is a problem.
 */
export function loadCustomAgents(workspace: string | undefined, env: NodeJS.ProcessEnv): LoadedAgents {
  const agents: CustomAgentDefinition[] = [];
  const problems: string[] = [];
  const taken = new Map<string, CustomAgentDefinition>();
  for (const folder of agentFolders(workspace, env)) {
    const display = (file: string) => (workspace && isBelow(workspace, file) ? path.relative(workspace, file) : file);
    let names: string[];
    try {
      names = markdownFiles(folder.dir);
    } catch (error) {
      problems.push(`Agent folder ${display(folder.dir)} skipped: it ${error instanceof Error ? error.message : "cannot be read"}.`);
      continue;
    }
    for (const entry of names) {
      const file = path.join(folder.dir, entry);
      try {
        const text = readText(file);
        const def = parseAgentFile(text, file, display(file), folder.source);
        const earlier = taken.get(def.name);
        if (earlier?.source === folder.source) throw new AgentFileError(`agent "${def.name}" is already defined in ${earlier.displayPath}`);
        if (earlier) continue;
        taken.set(def.name, def);
        agents.push(def);
      } catch (error) {
        const why = error instanceof AgentFileError ? error.message : "it cannot be read";
        problems.push(`Agent file ${display(file)} skipped: ${why}.`);
      }
    }
  }
  return { agents, problems };
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new AgentFileError(`it cannot be read (${(error as NodeJS.ErrnoException).code ?? "unknown error"})`);
  }
}
