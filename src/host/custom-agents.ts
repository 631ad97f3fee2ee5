import { customAgentSpec, loadCustomAgents, type CustomAgentSpec } from "../agents/index.js";
import type { ModelProvider } from "../models/chat-model.js";
import { setupModels, type ModelSetup } from "./model-setup.js";

export interface SessionCustomAgents {
  agents: CustomAgentSpec[];
  /** The session's models, with each custom agent's own `model` for its role. */
  models: ModelProvider;
  /** One line per agent file that was skipped (said as notices; the session goes on without those agents). */
  problems: string[];
}

/**
 * The workspace's and the user's agent files (src/agents/custom), loaded before the session graph is built: each
 * becomes a node of it. An agent whose file names a model calls that model on the session's endpoint.
 */
export async function loadSessionAgents(workspace: string, env: NodeJS.ProcessEnv, models: ModelSetup): Promise<SessionCustomAgents> {
  const { agents: definitions, problems } = loadCustomAgents(workspace, env);
  const agents = definitions.map(customAgentSpec);
  const own = Object.fromEntries(definitions.flatMap((d) => (d.model ? [[d.name, d.model]] : [])));
  if (Object.keys(own).length === 0) return { agents, models: models.provider, problems };
  const withOwn = (await setupModels({ ...models.settings, roleModels: { ...models.settings.roleModels, ...own } })).provider;
  const mine = (role: string) => Object.hasOwn(own, role);
  return {
    agents,
    problems,
    models: {
      forRole: (role) => (mine(role) ? withOwn : models.provider).forRole(role),
      describe: (role) => (mine(role) ? withOwn : models.provider).describe(role),
    },
  };
}

/** The line a session starts with when it has custom agents. */
export function customAgentsNotice(agents: readonly CustomAgentSpec[]): string {
  return `Custom agents: ${agents.map((a) => `${a.name} (${a.definition.displayPath})`).join(", ")}`;
}
