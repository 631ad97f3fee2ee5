import { ConfigError, resolveMcpConfig, updateTrustedMcpServers } from "../../platform/config/index.js";
import type { CliIo } from "./io.js";
import { runsWhat } from "./commands/mcp-trust.js";
import { createTerminalPrompter } from "./terminal-prompter.js";

/**
 * Before a session at a terminal: the project's MCP servers not trusted yet are shown with what they run, and the
 * person may trust them there (as `mini-cursor mcp trust` does) so that this session starts them. Without a terminal,
 * or when the answer is no, the session says in one line that it goes on without them.
 */
export async function offerMcpTrust(workspace: string, io: CliIo): Promise<void> {
  if (!io.stdin.isTTY || !io.stdout.isTTY) return;
  let untrusted;
  try {
    untrusted = resolveMcpConfig(io.env, workspace).filter((s) => !s.trusted && !s.disabled);
  } catch (error) {
    // A file that cannot be used: the session says so itself, once, and goes on without servers.
    if (error instanceof ConfigError) return;
    throw error;
  }
  if (untrusted.length === 0) return;
  const lines = untrusted.map((s) => `  ${s.name}  ${runsWhat(s)}  (from ${s.source})`);
  io.stdout.write(`This project declares MCP servers that run outside the sandbox, with your rights:\n${lines.join("\n")}\n`);
  const prompter = createTerminalPrompter(io.stdin, io.stdout);
  let yes: boolean | null;
  try {
    yes = await prompter.confirm("Trust them and start them in this session? [y/N] ");
  } finally {
    prompter.close();
  }
  if (!yes) return;
  updateTrustedMcpServers(io.env, workspace, (current) => {
    for (const s of untrusted) current[s.name] = s.declaration;
    return current;
  });
  io.stdout.write(`Trusted (mini-cursor mcp untrust takes it back).\n`);
}
