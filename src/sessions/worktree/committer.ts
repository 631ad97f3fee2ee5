import { commitWorktree, stepMessage } from "./commit.js";
import { errorMessage } from "../../platform/error-info.js";

/** The step a commit is for. */
export interface CommittedStep {
  id: string;
  agent: string;
  goal: string;
}

/**
 * A worktree session's commits, one per step that may have changed its files, in the order the steps ended. Like the
 * undo snapshots, committing is never allowed to stop the session: the first failure is one notice and committing
 * stops for this run (the changes stay in the folder; a later step's commit would misattribute them).
 */
export class WorktreeCommitter {
  private off = false;
  private latest: Promise<void> = Promise.resolve();
  /** Commits made by this run. */
  made = 0;

  constructor(
    private readonly folder: string,
    private readonly sessionId: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly onProblem: (message: string) => void,
  ) {}

  /** Commits the step's changes after the commits asked for before it. */
  after(step: CommittedStep): Promise<void> {
    const previous = this.latest;
    this.latest = previous.then(() => this.attempt(stepMessage(step.goal, `mini-cursor session ${this.sessionId}, step ${step.id} (${step.agent})`)));
    return this.latest;
  }

  /** Settles when every commit asked for so far is made (the next step's tools wait for it). */
  settled(): Promise<void> {
    return this.latest;
  }

  private async attempt(message: string): Promise<void> {
    if (this.off) return;
    try {
      if ((await commitWorktree(this.folder, message, this.env)) !== null) this.made += 1;
    } catch (error) {
      this.off = true;
      this.onProblem(`Committing on the worktree's branch is off for this run: ${errorMessage(error)}`);
    }
  }
}
