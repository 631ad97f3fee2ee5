import path from "node:path";
import { afterEach, expect } from "vitest";
import { startScriptedOpenAIServer, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";

/** What a replay test works with: the recording's model and workspace, and an empty folder elsewhere to replay into. */
export interface ReplayWorkspaces {
  readonly server: ScriptedServer;
  readonly ws: TempWorkspace;
  readonly elsewhere: TempWorkspace;
  /** Points the CLI at the scripted server. */
  readonly env: Record<string, string>;
  /** Starts the model with `script` and makes the workspace (a package.json and `files`) and the folder elsewhere. */
  start(script: (req: ScriptedRequest) => ScriptedReply, files?: Record<string, string>): Promise<void>;
  /** The workspace's newest session, listed with nothing on stderr. */
  latestId(): Promise<string>;
  /** Replays offline (no OPENAI_* variables, nothing pointing at the server) into a new folder elsewhere, stdin closed. */
  replayOffline(id: string, extra?: string[]): Promise<{ into: string; replay: Awaited<ReturnType<typeof runCli>> }>;
}

/**
 * Per test, once the test calls `start` (each test picks its model script): the scripted server and both folders, all
 * removed afterwards, even when the test failed.
 */
export function useReplayWorkspaces(): ReplayWorkspaces {
  let server: ScriptedServer | null = null;
  let ws: TempWorkspace | null = null;
  let elsewhere: TempWorkspace | null = null;
  afterEach(async () => {
    await server?.close();
    await ws?.cleanup();
    await elsewhere?.cleanup();
    server = ws = elsewhere = null;
  });
  const started = <T>(value: T | null): T => {
    if (value === null) throw new Error("useReplayWorkspaces: call start() first");
    return value;
  };
  const env = (): Record<string, string> => ({ OPENAI_BASE_URL: started(server).baseUrl, OPENAI_API_KEY: "sk-test", MINI_CURSOR_MODEL: "scripted" });
  return {
    get server() {
      return started(server);
    },
    get ws() {
      return started(ws);
    },
    get elsewhere() {
      return started(elsewhere);
    },
    get env() {
      return env();
    },
    async start(script, files = {}) {
      // Each assigned as soon as it exists, so the after-hook removes what a failed start left.
      server = await startScriptedOpenAIServer(script);
      ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n', ...files });
      elsewhere = await makeTempWorkspace();
    },
    async latestId() {
      const listed = await runCli(["sessions", "--json"], { cwd: started(ws).root, env: env() });
      expect(listed.stderr).toBe("");
      const [session] = JSON.parse(listed.stdout) as { id: string }[];
      if (!session) throw new Error("no session listed");
      return session.id;
    },
    async replayOffline(id, extra = []) {
      const into = path.join(started(elsewhere).root, "replayed");
      return {
        into,
        replay: await runCli(["replay", id, "--into", into, "--workspace", started(ws).root, ...extra], { cwd: started(elsewhere).root, env: {} }),
      };
    },
  };
}
