import { afterEach, beforeEach } from "vitest";
import { startScriptedOpenAIServer, type Script, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";

/** What a test of the built CLI against a scripted model works with; read it inside a test or hook. */
export interface CliSession {
  readonly server: ScriptedServer;
  readonly root: string;
  /** The CLI's environment: the scripted endpoint and model. */
  readonly env: Record<string, string>;
  cli(args: string[], input?: string): ReturnType<typeof runCli>;
}

const DEMO_PACKAGE = { "package.json": '{ "name": "demo", "type": "module" }\n' };

/**
 * A scripted OpenAI-compatible server and a temporary workspace for every test of the calling file (started before
 * each, stopped and deleted after each, also on failure), and the built CLI pointed at them.
 */
export function useCliSession(script: Script, files: Record<string, string> = DEMO_PACKAGE): CliSession {
  let current: { server: ScriptedServer; ws: TempWorkspace } | null = null;
  beforeEach(async () => {
    const server = await startScriptedOpenAIServer(script);
    try {
      current = { server, ws: await makeTempWorkspace(files) };
    } catch (error) {
      await server.close();
      throw error;
    }
  });
  afterEach(async () => {
    await current?.server.close();
    await current?.ws.cleanup();
    current = null;
  });
  const now = () => {
    if (!current) throw new Error("useCliSession: the session exists only inside a test");
    return current;
  };
  const session: CliSession = {
    get server() {
      return now().server;
    },
    get root() {
      return now().ws.root;
    },
    get env() {
      return { OPENAI_BASE_URL: now().server.baseUrl, MINI_CURSOR_MODEL: "scripted" };
    },
    cli: (args, input) => runCli(args, { cwd: session.root, env: session.env, ...(input === undefined ? {} : { input }) }),
  };
  return session;
}
