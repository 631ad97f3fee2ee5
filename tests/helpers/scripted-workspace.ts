/**
 * A scripted model server and a temporary workspace together: what the end-to-end fixtures of the faces (ACP, the
 * terminal conversation, replay) each start before a test and remove after it.
 */
import { afterEach, beforeEach } from "vitest";
import { startScriptedOpenAIServer, type Script, type ScriptedServer } from "./scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "./temp-workspace.js";

export interface ScriptedWorkspaceOptions {
  /** The workspace's files (default: a package.json of an ES module package). */
  files?: Record<string, string>;
  /** The ids `GET /v1/models` lists (default: the server's one model). */
  models?: string[];
}

export interface StartedScriptedWorkspace {
  server: ScriptedServer;
  ws: TempWorkspace;
  /** Stops the server and removes the workspace (the workspace also when stopping failed). Safe to call twice. */
  close(): Promise<void>;
}

const DEFAULT_FILES = { "package.json": '{ "name": "demo", "type": "module" }\n' };

/**
 * Starts a scripted model server and makes a workspace of `files`; when the workspace cannot be made, the server is
 * stopped before the error is thrown, so a caller never holds half of it.
 */
export async function startScriptedWorkspace(script: Script, options: ScriptedWorkspaceOptions = {}): Promise<StartedScriptedWorkspace> {
  const server = await startScriptedOpenAIServer(script, options.models ? { models: options.models } : {});
  let ws: TempWorkspace;
  try {
    ws = await makeTempWorkspace(options.files ?? DEFAULT_FILES);
  } catch (err) {
    await server.close();
    throw err;
  }
  return {
    server,
    ws,
    async close() {
      try {
        await server.close();
      } finally {
        await ws.cleanup();
      }
    },
  };
}

/** Per test: the scripted model server and the workspace. */
export interface ScriptedWorkspace {
  readonly server: ScriptedServer;
  readonly ws: TempWorkspace;
  /**
   * The model's script. Setting it inside a test replaces it for that test's requests from then on (for a file whose
   * tests each script their own model); the next test starts with the one given to {@link useScriptedWorkspace}.
   */
  script: Script;
}

/**
 * Per test: a scripted model server running `script` and a workspace of `options.files`, made before each test and
 * removed after it, even when the test failed. Its after-hook is registered here, so a fixture built on it that
 * registers its own afterwards (processes talking to the server, say) has it run first: vitest runs after-hooks in
 * reverse order of registration.
 */
export function useScriptedWorkspace(script: Script, options: ScriptedWorkspaceOptions = {}): ScriptedWorkspace {
  let started: StartedScriptedWorkspace | null = null;
  let current = script;
  beforeEach(async () => {
    // The server asks `current` on each request, so a test can swap the script after the server started.
    started = await startScriptedWorkspace((req) => current(req), options);
  });
  afterEach(async () => {
    current = script;
    await started?.close();
    started = null;
  });
  const inTest = (): StartedScriptedWorkspace => {
    if (started === null) throw new Error("useScriptedWorkspace: the server and workspace exist only inside a test");
    return started;
  };
  return {
    get server() {
      return inTest().server;
    },
    get ws() {
      return inTest().ws;
    },
    get script() {
      return current;
    },
    set script(value) {
      // Outside a test the after-hook would silently undo it: say so instead.
      inTest();
      current = value;
    },
  };
}
