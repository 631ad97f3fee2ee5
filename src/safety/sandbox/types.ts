/** What `probeSandbox` found: whether commands can run inside bubblewrap here, and why (not). */
export interface SandboxStatus {
  kind: "bubblewrap" | "none";
  /** One sentence for the user: what works, or what is missing and how to fix it. */
  reason: string;
  /** bubblewrap's version, when it ran at all. */
  version?: string;
}

/** How a command sees the workspace: writable, or read-only with throwaway scratch for new output. */
export type WorkspaceAccess = "read-write" | "read-only";

/**
 * How execute_command confines commands (`ToolDeps.sandbox`). `none` (or no value) keeps the process-tree
 * confinement only; `bubblewrap` runs each command in a bwrap sandbox (see bwrap.ts for what it allows).
 */
export type CommandSandbox =
  | { kind: "none" }
  | {
      kind: "bubblewrap";
      /** Share the host network; otherwise the command sees only its own loopback. */
      allowNetwork: boolean;
      /**
       * The network is each run's setting (an agent's tools are built once: src/tools/tool-scope.ts), so the tool's
       * description does not state it; the agent's instructions do (src/graph/nodes/sub-agent.ts).
       */
      networkFromRun?: boolean;
      /** Home folder whose credential locations are hidden; default os.homedir(). */
      home?: string;
      /** Extra paths (files or folders) to hide, e.g. a secrets folder in the workspace. */
      protectedPaths?: string[];
      /**
       * Default "read-write". "read-only" (e.g. for the reviewer): nothing in the workspace can be changed; new
       * output (test caches, coverage) goes to throwaway scratch that is gone after the command.
       */
      workspaceAccess?: WorkspaceAccess;
      /** Extra paths inside the workspace to keep read-only. */
      readOnlyPaths?: string[];
      /** The bwrap binary; default "bwrap" from PATH. */
      bwrapPath?: string;
    };
