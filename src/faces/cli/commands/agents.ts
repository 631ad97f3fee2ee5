import { AGENT_SPECS, BUILTIN_AGENT_DESCRIPTIONS, customAgentSpec, loadCustomAgents } from "../../../agents/index.js";
import { BUILTIN_AGENT_NAMES } from "../../../core/index.js";
import { COMMON_OPTIONS, parse, resolveWorkspace } from "../args.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { AGENTS_HELP } from "../help.js";
import type { CliIo } from "../io.js";

interface ListedAgent {
  name: string;
  /** "built-in", or where its file was found: workspace, workspace-claude, user, user-claude. */
  source: string;
  file: string | null;
  description: string;
  tools: string[];
  extraTools: string[];
  model: string | null;
}

/**
 * `mini-cursor agents`: the agents a session in this workspace can use, built-in and from agent files, with their
 * tools. A file that would be skipped is listed with its problem, and the exit code is 1 (a check for CI).
 */
export async function agentsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, COMMON_OPTIONS, "agents");
  if (values.help) {
    io.stdout.write(`${AGENTS_HELP}\n`);
    return EXIT.done;
  }
  if (positionals.length > 0) throw new UsageError(`agents takes no arguments, got "${positionals[0]}"`);
  const workspace = resolveWorkspace(values.workspace, io.cwd);
  const { agents: custom, problems } = loadCustomAgents(workspace, io.env);
  const listed: ListedAgent[] = [
    ...BUILTIN_AGENT_NAMES.map((name) => ({
      name,
      source: "built-in",
      file: null,
      description: BUILTIN_AGENT_DESCRIPTIONS[name],
      tools: [...AGENT_SPECS[name].tools],
      extraTools: [],
      model: null,
    })),
    ...custom.map((d) => ({
      name: d.name,
      source: d.source,
      file: d.displayPath,
      description: d.description,
      tools: [...customAgentSpec(d).tools],
      extraTools: d.extraTools,
      model: d.model ?? null,
    })),
  ];
  const code = problems.length > 0 ? EXIT.failed : EXIT.done;
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ agents: listed, problems })}\n`);
    return code;
  }
  for (const a of listed) {
    io.stdout.write(`${a.name}  (${a.file ?? a.source})\n`);
    io.stdout.write(`  ${a.description}\n`);
    const tools = [...a.tools, ...a.extraTools].join(", ") || "none";
    io.stdout.write(`  tools: ${tools}${a.model ? `; model: ${a.model}` : ""}\n`);
  }
  if (custom.length === 0 && problems.length === 0) {
    io.stdout.write("No custom agents. Add Markdown files to .mini-cursor/agents/ (see mini-cursor agents --help).\n");
  }
  for (const p of problems) io.stdout.write(`${p}\n`);
  return code;
}
