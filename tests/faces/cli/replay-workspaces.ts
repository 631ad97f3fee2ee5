import path from "node:path";
import { afterEach, expect } from "vitest";
import type { ScriptedReply, ScriptedRequest, ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { startScriptedWorkspace, type StartedScriptedWorkspace } from "../../helpers/scripted-workspace.js";
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
  // Not useScriptedWorkspace: that one starts before each test with the file's files, while here each test's `start`
  // picks the script and the files, so this keeps its own hook around the same start.
  let scripted: StartedScriptedWorkspace | null = null;
  let elsewhere: TempWorkspace | null = null;
  afterEach(async () => {
    try {
      await scripted?.close();
    } finally {
      await elsewhere?.cleanup();
    }
    scripted = elsewhere = null;
  });
  const started = <T>(value: T | null): T => {
    if (value === null) throw new Error("useReplayWorkspaces: call start() first");
    return value;
  };
  const env = (): Record<string, string> => ({ OPENAI_BASE_URL: started(scripted).server.baseUrl, OPENAI_API_KEY: "sk-test", MINI_CURSOR_MODEL: "scripted" });
  return {
    get server() {
      return started(scripted).server;
    },
    get ws() {
      return started(scripted).ws;
    },
    get elsewhere() {
      return started(elsewhere);
    },
    get env() {
      return env();
    },
    async start(script, files = {}) {
      // Assigned as soon as it exists (a half-made one removes itself), so the after-hook removes it if `elsewhere` fails.
      scripted = await startScriptedWorkspace(script, { files: { "package.json": '{ "name": "demo", "type": "module" }\n', ...files } });
      elsewhere = await makeTempWorkspace();
    },
    async latestId() {
      const listed = await runCli(["sessions", "--json"], { cwd: started(scripted).ws.root, env: env() });
      expect(listed.stderr).toBe("");
      const [session] = JSON.parse(listed.stdout) as { id: string }[];
      if (!session) throw new Error("no session listed");
      return session.id;
    },
    async replayOffline(id, extra = []) {
      const into = path.join(started(elsewhere).root, "replayed");
      return {
        into,
        replay: await runCli(["replay", id, "--into", into, "--workspace", started(scripted).ws.root, ...extra], { cwd: started(elsewhere).root, env: {} }),
      };
    },
  };
}
