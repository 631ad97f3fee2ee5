import { afterEach, beforeEach } from "vitest";
import type { Script, ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { useScriptedWorkspace } from "../../helpers/scripted-workspace.js";
import type { TempWorkspace } from "../../helpers/temp-workspace.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/** What a conversation test at the terminal works with. */
export interface ChatTerminal {
  readonly server: ScriptedServer;
  readonly ws: TempWorkspace;
  /** The conversation's variables: the scripted server, approval "ask", no colours. A test may replace them for itself. */
  env: Record<string, string>;
  /** Starts `mini-cursor args` in a 100-column tmux pane (40 rows unless said), closing the one before; `env` adds to {@link env}. */
  start(args: string[], o?: { env?: Record<string, string>; rows?: number }): TmuxTerminal;
}

/**
 * Per test: a scripted model server, a workspace of `files`, the variables pointing the CLI at the server, and the
 * terminal the test started; the terminal closed and the rest removed afterwards, even when the test failed.
 */
export function useChatTerminal(script: Script, files: Record<string, string>): ChatTerminal {
  const shared = useScriptedWorkspace(script, { files });
  let env: Record<string, string> | null = null;
  let terminal: TmuxTerminal | null = null;
  // Runs after useScriptedWorkspace's before-hook, once the server has its address.
  beforeEach(() => {
    env = { OPENAI_BASE_URL: shared.server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "ask", NO_COLOR: "1" };
  });
  // Registered after useScriptedWorkspace's hook, so it runs before it (vitest runs after-hooks in reverse): the CLI
  // in the pane goes before the server it talks to and the workspace it runs in.
  afterEach(() => {
    terminal?.close();
    terminal = null;
    env = null;
  });
  const inTest = <T>(value: T | null): T => {
    if (value === null) throw new Error("useChatTerminal: the server and workspace exist only inside a test");
    return value;
  };
  return {
    get server() {
      return shared.server;
    },
    get ws() {
      return shared.ws;
    },
    get env() {
      return inTest(env);
    },
    set env(value) {
      inTest(env);
      env = value;
    },
    start(args, o = {}) {
      terminal?.close();
      terminal = TmuxTerminal.start(args, { cwd: shared.ws.root, env: { ...inTest(env), ...o.env }, cols: 100, rows: o.rows ?? 40 });
      return terminal;
    },
  };
}
