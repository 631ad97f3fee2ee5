import type { ShadowStore } from "./shadow-store.js";
import { errorMessage } from "../../platform/error-info.js";

/**
 * The session's handle on the undo store. Undo is a convenience: a snapshot that fails (git missing, disk
 * full) must never stop the session, so the first failure is reported through `onProblem` and recording
 * stops for the rest of this run (a later `after` on top of a failed one would misattribute changes).
 */
export class UndoRecorder {
  private off = false;
  private baseline: Promise<boolean> | null = null;
  /** The latest snapshot asked for: each waits for the one before, so they land in the order they were asked. */
  private latest: Promise<boolean> = Promise.resolve(true);

  constructor(
    private readonly store: ShadowStore,
    private readonly sessionId: string,
    private readonly onProblem: (message: string) => void,
  ) {}

  /**
   * Baseline, before the session's first tool call; a no-op for a resumed session. False when recording is off.
   * Taken once: later calls wait for the same snapshot, so it can start early and be awaited where tools begin.
   */
  before(): Promise<boolean> {
    return (this.baseline ??= this.attempt(() => this.store.snapshotBefore(this.sessionId)));
  }

  /** The baseline was asked for in this process (a session that never got that far has nothing to record after). */
  get started(): boolean {
    return this.baseline !== null;
  }

  /** Settles when the baseline and every snapshot asked for so far are taken; at once when none was. */
  async settled(): Promise<void> {
    await this.baseline;
    await this.latest;
  }

  /**
   * The session's result so far: after each step that wrote files or ran commands, and at the end. The CLI does not
   * wait for it after a step (the planner's turn goes on meanwhile); the next step's tools wait through settled().
   */
  after(): Promise<boolean> {
    const previous = this.latest;
    this.latest = (async () => {
      // An "after" must never precede its baseline (it would become the baseline's content), nor an earlier after.
      if (this.baseline) await this.baseline;
      await previous;
      return this.attempt(() => this.store.snapshotAfter(this.sessionId));
    })();
    return this.latest;
  }

  private async attempt(work: () => Promise<void>): Promise<boolean> {
    if (this.off) return false;
    try {
      await work();
      return true;
    } catch (error) {
      this.off = true;
      this.onProblem(`Undo is off for this session: ${errorMessage(error)}`);
      return false;
    }
  }
}
