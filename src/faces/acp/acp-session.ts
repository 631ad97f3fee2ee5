import fs from "node:fs";
import type { AgentContext, SessionUpdate } from "@agentclientprotocol/sdk";
import type { McpServerSettings } from "../../platform/config/index.js";
import type { ApprovalMode, SafetyPolicy } from "../../core/index.js";
import { logger } from "../../platform/logger.js";
import type { EditorSettings } from "./config-options.js";
import { EventUpdates } from "./event-updates.js";
import { errorMessage } from "../../platform/error-info.js";

/** Diffs show whole files; past this size an edit shows its result line only. */
const MAX_DIFF_BYTES = 512 * 1024;

function readText(file: string): string | null {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > MAX_DIFF_BYTES) return null;
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * One editor session: a mini-cursor session (same id) in a workspace, the settings the editor sets (approval mode,
 * network, file-change approvals, budget), the MCP servers the editor gave, and the turn running now. Updates are sent in order, one after another: a prompt's response waits for them.
 */
export class AcpSession {
  readonly updates: EventUpdates;
  private sending: Promise<void> = Promise.resolve();
  private turn: { cancel: AbortController; safety: SafetyPolicy | null } | null = null;

  constructor(
    readonly id: string,
    readonly workspace: string,
    public settings: EditorSettings,
    readonly mcpServers: McpServerSettings[],
    private readonly client: AgentContext,
  ) {
    this.updates = new EventUpdates({ workspace, send: (update) => this.send(update), readText, now: () => Date.now() });
  }

  send(update: SessionUpdate): void {
    this.sending = this.sending
      .then(() => this.client.notify("session/update", { sessionId: this.id, update }))
      .catch((error: unknown) => logger.warn(`session/update not sent: ${errorMessage(error)}`));
  }

  /** Settles once every update sent so far is written. */
  flush(): Promise<void> {
    return this.sending;
  }

  get running(): boolean {
    return this.turn !== null;
  }

  /** Starts a turn; null when one is running already (one prompt at a time per session). */
  beginTurn(): AbortController | null {
    if (this.turn) return null;
    const cancel = new AbortController();
    this.turn = { cancel, safety: null };
    return cancel;
  }

  /** The running turn's safety policy, which a mode switch changes in place (the next graph run reads it). */
  useSafety(safety: SafetyPolicy): void {
    if (this.turn) this.turn.safety = safety;
  }

  endTurn(): void {
    this.turn = null;
  }

  cancel(): void {
    this.turn?.cancel.abort();
  }

  get mode(): ApprovalMode {
    return this.settings.approval;
  }

  /**
   * New settings: the running turn's safety policy follows in place (the agents' next step reads it); a budget counts
   * from the next prompt.
   */
  set(next: EditorSettings): void {
    this.settings = next;
    const safety = this.turn?.safety;
    if (!safety) return;
    safety.approval = next.approval;
    safety.allowNetwork = next.allowNetwork;
    safety.approveFileChanges = next.approveFileChanges;
  }
}
