import fs from "node:fs";
import type { AgentContext, SessionUpdate } from "@agentclientprotocol/sdk";
import type { McpServerSettings } from "../../platform/config/index.js";
import type { ApprovalMode, SafetyPolicy } from "../../core/index.js";
import { logger } from "../../platform/logger.js";
import type { EditorSettings } from "./config-options.js";
import { EventUpdates } from "./event-updates.js";
import { errorMessage } from "../../platform/error-info.js";
import type { ClientAbilities } from "./editor-files.js";
import { TerminalRelay } from "./terminal-relay.js";

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
  /** Texts the editor gave or took this turn (src/faces/acp/editor-files.ts): an edit's diff shows these, not the disk's. */
  readonly editorTexts = new Map<string, string>();
  private sending: Promise<void> = Promise.resolve();
  private turn: { cancel: AbortController; safety: SafetyPolicy | null } | null = null;

  constructor(
    readonly id: string,
    readonly workspace: string,
    public settings: EditorSettings,
    readonly mcpServers: McpServerSettings[],
    private readonly client: AgentContext,
    readonly abilities: ClientAbilities,
  ) {
    const textOf = (file: string) => this.editorTexts.get(file) ?? readText(file);
    this.updates = new EventUpdates({
      workspace,
      send: (update) => this.send(update),
      sendLater: (make) => this.sendLater(make),
      readText: textOf,
      now: () => Date.now(),
      ...(abilities.terminal ? { openTerminal: () => new TerminalRelay(client, id, workspace) } : {}),
    });
  }

  send(update: SessionUpdate): void {
    this.sendLater(async () => update);
  }

  /** Sends what `make` settles to in its place in the order (a terminal's update waits for the terminal). */
  sendLater(make: () => Promise<SessionUpdate | null>): void {
    this.sending = this.sending
      .then(async () => {
        const update = await make();
        if (update) await this.client.notify("session/update", { sessionId: this.id, update });
      })
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
    // The person may have changed the buffers since the last turn.
    this.editorTexts.clear();
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
