import type { EventSink, ProgressEvent, WorktreeView } from "../core/index.js";
import { WorktreeCommitter } from "../sessions/worktree/committer.js";
import { shellQuote } from "./resume-hint.js";

/** A `run --worktree` session as the runner sees it (src/worktree): its files change in `folder`, on `branch`. */
export interface WorktreeRun {
  folder: string;
  branch: string;
  /** The main checkout the session was started from: its database, the session list, the hints printed. */
  home: string;
  /** Only when the worktree was just created from a main checkout with uncommitted changes. */
  uncommittedLeftOut: boolean;
}

type Finished = Extract<ProgressEvent, { type: "session_finished" }>;

/** The session's commits on its branch and what its start and its report say about the worktree. */
export class WorktreeSession {
  readonly committer: WorktreeCommitter;

  constructor(
    private readonly run: WorktreeRun,
    sessionId: string,
    env: NodeJS.ProcessEnv,
    events: EventSink,
  ) {
    this.committer = new WorktreeCommitter(run.folder, sessionId, env, (message) => events.emit({ type: "notice", level: "warn", message }));
  }

  view(): WorktreeView {
    return { branch: this.run.branch, folder: this.run.folder, uncommittedLeftOut: this.run.uncommittedLeftOut, commits: this.committer.made };
  }

  /** Said when the session starts. */
  startNotices(): string[] {
    const lines = [`Worktree: working on branch ${this.run.branch} in ${this.run.folder}; the main checkout ${this.run.home} is not touched.`];
    if (this.run.uncommittedLeftOut) lines.push(this.leftOutLine());
    return lines;
  }

  /** The report with where the work is, how to merge it and how to remove the worktree, once every commit is made. */
  async finished(event: Finished): Promise<Finished> {
    await this.committer.settled();
    const { branch, folder } = this.run;
    const commits = this.committer.made === 1 ? "1 commit" : `${this.committer.made} commits`;
    const lines = [
      `Worktree: branch ${branch} (${commits} this run) in ${folder}. The main checkout was not touched.`,
      `  merge it: git merge ${shellQuote(branch)}    remove it: git worktree remove ${shellQuote(folder)} && git branch -D ${shellQuote(branch)}`,
    ];
    if (this.run.uncommittedLeftOut) lines.push(this.leftOutLine());
    return { ...event, report: `${event.report}\n${lines.join("\n")}`, worktree: this.view() };
  }

  private leftOutLine(): string {
    return "Uncommitted changes in the main checkout were not included: the worktree starts from its last commit (HEAD).";
  }
}
