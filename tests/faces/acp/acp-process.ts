import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import {
  client,
  ndJsonStream,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type WriteTextFileRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { afterEach } from "vitest";
import { CLI } from "../cli/cli-process.js";
import type { ClientTerminals } from "./client-terminals.js";
import type { Script, ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { useScriptedWorkspace, type ScriptedWorkspace, type ScriptedWorkspaceOptions } from "../../helpers/scripted-workspace.js";
import type { TempWorkspace } from "../../helpers/temp-workspace.js";

/** A permission request as the client saw it, and how the test answers it. */
export type PermissionHandler = (request: RequestPermissionRequest) => Promise<RequestPermissionResponse> | RequestPermissionResponse;

export interface AcpProcess {
  child: ChildProcess;
  /** The agent side, through the SDK's client. */
  agent: ClientContext;
  /** Every session/update received, in order. */
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  stderr: () => string;
  /** Settles at the next update that satisfies `test` (or one already received). */
  waitForUpdate(test: (update: SessionUpdate) => boolean, timeoutMs?: number): Promise<SessionUpdate>;
  /** Ends stdin (the editor goes away) and waits for the process to exit. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `mini-cursor acp` from the build (dist/cli/main.js) as a child process, driven by the ACP SDK's client over its
 * stdin/stdout: what an editor does. Memory is off and the model is whatever `env` points at.
 */
export function startAcp(options: {
  cwd: string;
  env: Record<string, string>;
  onPermission?: PermissionHandler;
  /** Answers elicitation/create (the client then says it has forms in initialize). */
  onElicitation?: (request: CreateElicitationRequest) => CreateElicitationResponse;
  /** The editor's buffers: answers fs/read_text_file and fs/write_text_file (the test says so in initialize). */
  files?: {
    read(request: ReadTextFileRequest): Promise<ReadTextFileResponse> | ReadTextFileResponse;
    write(request: WriteTextFileRequest): Promise<void> | void;
  };
  /** The editor's terminals: answers terminal/* (the test says so in initialize). */
  terminals?: ClientTerminals;
}): AcpProcess {
  const child = spawn(process.execPath, [CLI, "acp"], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off", MINI_CURSOR_CHROMA_IDLE: "0", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const waiters: { test: (u: SessionUpdate) => boolean; resolve: (u: SessionUpdate) => void }[] = [];
  const terminals = () => {
    if (!options.terminals) throw new Error("this client has no terminals");
    return options.terminals;
  };
  const app = client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
      for (const waiter of [...waiters]) {
        if (waiter.test(params.update)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params.update);
        }
      }
    })
    .onRequest("session/request_permission", async ({ params }) => {
      permissions.push(params);
      return options.onPermission ? options.onPermission(params) : { outcome: { outcome: "selected", optionId: "allow_once" } };
    })
    .onRequest("elicitation/create", ({ params }) => {
      if (!options.onElicitation) throw new Error("this client has no elicitation");
      return options.onElicitation(params);
    })
    .onRequest("fs/read_text_file", async ({ params }) => {
      if (!options.files) throw new Error("this client has no buffers");
      return options.files.read(params);
    })
    .onRequest("fs/write_text_file", async ({ params }) => {
      if (!options.files) throw new Error("this client has no buffers");
      await options.files.write(params);
      return {};
    })
    .onRequest("terminal/create", ({ params }) => terminals().create(params))
    .onRequest("terminal/output", ({ params }) => terminals().output(params.terminalId))
    .onRequest("terminal/wait_for_exit", ({ params }) => terminals().waitForExit(params.terminalId))
    .onRequest("terminal/kill", ({ params }) => (terminals().kill(params.terminalId), {}))
    .onRequest("terminal/release", ({ params }) => (terminals().release(params.terminalId), {}));
  if (!child.stdin || !child.stdout) throw new Error("startAcp: no stdio");
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  return {
    child,
    agent: connection.agent,
    updates,
    permissions,
    stderr: () => err,
    waitForUpdate(test, timeoutMs = 30_000) {
      const seen = updates.find((n) => test(n.update));
      if (seen) return Promise.resolve(seen.update);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such session/update within ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
        waiters.push({ test, resolve: (u) => (clearTimeout(timer), resolve(u)) });
      });
    },
    async close() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const result = await exited;
      clearTimeout(timer);
      connection.close();
      return result;
    },
  };
}

/** Updates of one kind, typed. */
export function updatesOf<K extends SessionUpdate["sessionUpdate"]>(process: AcpProcess, kind: K): Extract<SessionUpdate, { sessionUpdate: K }>[] {
  return process.updates.map((n) => n.update).filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
}

/** The agent's messages of the session so far, joined. */
export function agentText(process: AcpProcess): string {
  return updatesOf(process, "agent_message_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");
}

/** Per test: a scripted model server, a workspace, and every agent process the test started. */
export interface AcpAgents extends ScriptedWorkspace {
  /**
   * Starts `mini-cursor acp` in the workspace against the server, with the model "scripted" and approval "ask" unless
   * `env` says otherwise; it is killed after the test if still running.
   */
  start(options?: Omit<Parameters<typeof startAcp>[0], "cwd" | "env"> & { env?: Record<string, string> }): AcpProcess;
}

/**
 * Per test: a scripted model server (listing `models`, if given) and a workspace of `files` (default: a package.json);
 * every agent `start` made is killed and closed afterwards, then the server and workspace go, even when the test failed.
 */
export function useAcpAgents(script: Script, options: ScriptedWorkspaceOptions = {}): AcpAgents {
  const shared = useScriptedWorkspace(script, options);
  const agents: AcpProcess[] = [];
  // Registered after useScriptedWorkspace's hook, so it runs before it (vitest runs after-hooks in reverse): an agent
  // still waiting on the model would otherwise outlive the server it talks to.
  afterEach(async () => {
    for (const agent of agents.splice(0)) {
      agent.child.kill("SIGKILL");
      await agent.close();
    }
  });
  return {
    get server() {
      return shared.server;
    },
    get ws() {
      return shared.ws;
    },
    get script() {
      return shared.script;
    },
    set script(value) {
      shared.script = value;
    },
    start(o = {}) {
      const agent = startAcp({
        ...o,
        cwd: shared.ws.root,
        env: { OPENAI_BASE_URL: shared.server.baseUrl, MINI_CURSOR_MODEL: "scripted", MINI_CURSOR_APPROVAL: "ask", ...o.env },
      });
      agents.push(agent);
      return agent;
    },
  };
}

/** What a test file of one scripted greet-like task shares: the model server, a workspace, the agent process. */
export interface AcpFixture {
  readonly server: ScriptedServer;
  readonly ws: TempWorkspace;
  acp: AcpProcess | null;
}

/**
 * Per test: a scripted model server and a workspace with a package.json, and whatever agent process the test starts
 * in `acp`; all stopped and removed afterwards, even when the test failed.
 */
export function useAcpFixture(script: Script): AcpFixture {
  const shared = useAcpAgents(script);
  const fx: AcpFixture = {
    get server() {
      return shared.server;
    },
    get ws() {
      return shared.ws;
    },
    acp: null,
  };
  // Registered after useAcpAgents' hook, so it runs before it (vitest runs after-hooks in reverse): agent, then server.
  afterEach(async () => {
    fx.acp?.child.kill("SIGKILL");
    await fx.acp?.close();
    fx.acp = null;
  });
  return fx;
}
