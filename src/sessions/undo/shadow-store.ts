import fs from "node:fs";
import path from "node:path";
import { systemClock, type Clock } from "../../platform/clock.js";
import { logger } from "../../platform/logger.js";
import { GitCommandError, UndoError, UnknownSessionError } from "./errors.js";
import { firstErrorLine, GitRunner } from "./git-runner.js";
import { restoreSession } from "./restore.js";
import { readMeta, removeMeta, writeMeta } from "./session-meta.js";
import {
  assertSessionId,
  indexFile,
  prepareShadowRepo,
  pruneIndexes,
  recordIndexUse,
  seedIndex,
  shadowDir,
  snapshotRef,
  type SnapshotKind,
} from "./shadow-repo.js";
import { withStoreLock } from "./store-lock.js";
import { DROP_GITLINKS, takeSnapshot } from "./snapshot-script.js";
import { diffTrees } from "./tree-diff.js";
import type { FileChange, UndoReport } from "./types.js";

export interface ShadowStoreOptions {
  /** Environment git runs with (PATH to find it, HOME); its GIT_* variables are ignored. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** The git executable. Default: "git" on PATH. */
  gitBinary?: string;
  clock?: Clock;
}

interface Snapshot {
  commit: string;
  tree: string;
}

/** What the store holds for one session. */
export interface SessionRecord {
  session: string;
  before: Snapshot;
  after?: Snapshot;
  /** ISO time of the undo, when the session was undone. */
  undoneAt?: string;
}

/**
 * Per-workspace history of what sessions changed, in a private git repository at
 * `<workspace>/.mini-cursor/shadow.git` used with the workspace as its work tree. The user's own `.git`
 * (HEAD, index, config, hooks, refs) is never read or written. Tracked: every file except `.git`,
 * `.mini-cursor/`, `node_modules/` and what the workspace's .gitignore files ignore.
 */
export class ShadowStore {
  private prepared = false;
  /**
   * The snapshot refs this instance read or wrote, by session: a running session's refs change only through the
   * process running it (`undo` refuses a running session), so its snapshots after each step need not ask git again.
   */
  private readonly known = new Map<string, Partial<Record<SnapshotKind, Snapshot>>>();

  private constructor(
    readonly workspace: string,
    readonly gitDir: string,
    private readonly git: GitRunner,
    private readonly clock: Clock,
  ) {}

  /** Cheap: nothing is created and git is not run until the first operation. */
  static open(workspace: string, options: ShadowStoreOptions = {}): ShadowStore {
    const resolved = path.resolve(workspace);
    const root = fs.existsSync(resolved) ? fs.realpathSync(resolved) : resolved;
    const gitDir = shadowDir(root);
    const git = new GitRunner({ gitDir, workTree: root, env: options.env ?? process.env, binary: options.gitBinary ?? "git" });
    return new ShadowStore(root, gitDir, git, options.clock ?? systemClock);
  }

  /**
   * Records the workspace as the session's baseline. Only the first call per session records: a resumed
   * session keeps the baseline of its first run. Call it before the session's first tool call.
   */
  async snapshotBefore(sessionId: string): Promise<void> {
    await this.locked(sessionId, async () => {
      if (await this.record(sessionId)) return;
      const index = this.index(sessionId);
      const snapshot = await takeSnapshot(this.git, {
        ...(await this.seeded(index)),
        unlessTree: "",
        parent: "",
        message: `mini-cursor ${sessionId} before`,
        ref: snapshotRef(sessionId, "before"),
        // The empty old value makes git refuse if another process created the ref meanwhile.
        oldValue: "",
        listUntracked: true,
      });
      this.staged(index, snapshot.addProblem);
      const { tree, commit } = snapshot;
      if (commit === null) throw new UndoError(`undo store: no baseline commit was made for session ${sessionId}`);
      // Untracked after staging everything = empty folders (git records none) that undo must keep.
      const emptyDirs = snapshot.untracked.filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1));
      writeMeta(this.gitDir, sessionId, { ...readMeta(this.gitDir, sessionId), emptyDirs });
      this.known.set(sessionId, { before: { commit, tree } });
      pruneIndexes(this.gitDir);
    });
  }

  /**
   * Records the workspace as the session's result so far; the last call wins. Call after each step that
   * wrote files or ran commands, and when the session ends (however it ends). Needs the baseline first.
   * An undone session records nothing more: its undo must stay meaningful.
   */
  async snapshotAfter(sessionId: string): Promise<void> {
    await this.locked(sessionId, async () => {
      const record = await this.requireRecord(sessionId);
      if (record.undoneAt) {
        logger.warn(`undo store: session ${sessionId} was undone at ${record.undoneAt}; not recording further changes`);
        return;
      }
      const index = this.index(sessionId);
      const snapshot = await takeSnapshot(this.git, {
        ...(await this.seeded(index)),
        unlessTree: record.after?.tree ?? "",
        parent: record.before.commit,
        message: `mini-cursor ${sessionId} after`,
        ref: snapshotRef(sessionId, "after"),
        oldValue: null,
        listUntracked: false,
      });
      this.staged(index, snapshot.addProblem);
      const known = this.known.get(sessionId);
      if (snapshot.commit !== null && known) known.after = { commit: snapshot.commit, tree: snapshot.tree };
    });
  }

  /** Files the session created, modified or deleted (against the working tree while it has no `after` yet). */
  async changes(sessionId: string): Promise<FileChange[]> {
    return this.locked(sessionId, async () => {
      const record = await this.requireRecord(sessionId);
      const to = record.after?.tree ?? (await this.stage(sessionId));
      return (await diffTrees(this.git, record.before.tree, to)).map((d) => ({ path: d.path, change: d.kind }));
    });
  }

  /** The session's changes as a unified diff (binary files as "Binary files … differ"). */
  async diff(sessionId: string): Promise<string> {
    return this.locked(sessionId, async () => {
      const record = await this.requireRecord(sessionId);
      const to = record.after?.tree ?? (await this.stage(sessionId));
      const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--ignore-submodules=all"];
      return (await this.git.run([...args, record.before.tree, to])).stdout.toString("utf8");
    });
  }

  /**
   * Puts back every file the session changed, created or deleted as it was before the session, except files
   * changed since the session's last snapshot (reported as skipped). A second call reports the first.
   */
  async undo(sessionId: string): Promise<UndoReport> {
    return this.locked(sessionId, async () => {
      const record = await this.requireRecord(sessionId);
      const meta = readMeta(this.gitDir, sessionId);
      if (meta.undone) {
        const { at, ...lists } = meta.undone;
        return { session: sessionId, alreadyUndone: true, undoneAt: at, ...lists };
      }
      const current = await this.stage(sessionId);
      // Never snapshotted after a change (killed mid-step): everything since the baseline is the session's.
      const after = record.after?.tree ?? current;
      if (!record.after) await this.commitAfter(sessionId, current, record.before.commit);
      const result = await restoreSession({
        git: this.git,
        workspace: this.workspace,
        index: this.index(sessionId),
        before: record.before.tree,
        after,
        current,
        emptyDirs: meta.emptyDirs,
      });
      const undoneAt = new Date(this.clock.now()).toISOString();
      writeMeta(this.gitDir, sessionId, { ...meta, undone: { at: undoneAt, ...result } });
      return { session: sessionId, alreadyUndone: false, undoneAt, ...result };
    });
  }

  /**
   * Copies a session's undo records to a new id (`mini-cursor fork`): its snapshot refs (same commits: nothing is
   * re-recorded) and its meta file, so the fork's diff and undo start where the original's are and its later snapshots
   * move only its own refs. False when the original has no baseline (it changed nothing yet): the fork records its own.
   */
  async fork(from: string, to: string): Promise<boolean> {
    assertSessionId(to);
    return this.locked(from, async () => {
      const snapshots = await this.readSnapshots(from);
      if (!snapshots.before) return false;
      if ((await this.readSnapshots(to)).before) throw new UndoError(`the undo store already has a session ${to}`);
      for (const kind of ["before", "after"] as const) {
        const snapshot = snapshots[kind];
        // The empty old value makes git refuse if another process created the ref meanwhile.
        if (snapshot) await this.git.run(["update-ref", snapshotRef(to, kind), snapshot.commit, ""]);
      }
      writeMeta(this.gitDir, to, readMeta(this.gitDir, from));
      this.known.delete(to);
      return true;
    });
  }

  /**
   * Removes a session's undo records (`sessions delete`, or a fork that could not be completed): its snapshot refs,
   * its meta file and its index. True when it had a baseline. A workspace without a store keeps having none.
   */
  async forget(sessionId: string): Promise<boolean> {
    assertSessionId(sessionId);
    if (!fs.existsSync(path.join(this.gitDir, "HEAD"))) return false;
    return this.locked(sessionId, async () => {
      const had = (await this.readSnapshots(sessionId)).before !== undefined;
      for (const kind of ["before", "after"] as const) await this.git.run(["update-ref", "-d", snapshotRef(sessionId, kind)], { okCodes: [0, 1] });
      removeMeta(this.gitDir, sessionId);
      fs.rmSync(this.index(sessionId), { force: true });
      this.known.delete(sessionId);
      return had;
    });
  }

  /** The session's snapshots, or undefined when it has no baseline here. A workspace without a store keeps having none. */
  async session(sessionId: string): Promise<SessionRecord | undefined> {
    // `diff` and `undo` ask this first: a mistyped id in a folder that never had a session must leave it untouched.
    if (!fs.existsSync(path.join(this.gitDir, "HEAD"))) {
      assertSessionId(sessionId);
      return undefined;
    }
    return this.locked(sessionId, () => this.record(sessionId));
  }

  /** The session whose baseline was recorded last, or undefined when there is none (or no store yet). */
  async latestSession(): Promise<string | undefined> {
    if (!fs.existsSync(path.join(this.gitDir, "HEAD"))) return undefined;
    const names = await withStoreLock(this.gitDir, () =>
      // Newest first; the sortable session id breaks ties within a second. The last --sort is the main key.
      this.git.text(["for-each-ref", "--count=1", "--sort=-refname", "--sort=-committerdate", "--format=%(refname:lstrip=2)", "refs/mini-cursor/*/before"]),
    );
    return names.split("/")[0] || undefined;
  }

  private index(sessionId: string): string {
    return indexFile(this.gitDir, sessionId);
  }

  private async locked<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    assertSessionId(sessionId);
    fs.mkdirSync(this.gitDir, { recursive: true });
    return withStoreLock(this.gitDir, async () => {
      if (!this.prepared) {
        await prepareShadowRepo(this.git, this.gitDir);
        this.prepared = true;
      }
      return work();
    });
  }

  private async record(sessionId: string): Promise<SessionRecord | undefined> {
    const snapshots = this.known.get(sessionId) ?? (await this.readSnapshots(sessionId));
    if (!snapshots.before) return undefined;
    this.known.set(sessionId, snapshots);
    const undoneAt = readMeta(this.gitDir, sessionId).undone?.at;
    return { session: sessionId, before: snapshots.before, after: snapshots.after, undoneAt };
  }

  private async readSnapshots(sessionId: string): Promise<Partial<Record<SnapshotKind, Snapshot>>> {
    const lines = await this.git.text(["for-each-ref", "--format=%(refname:lstrip=3) %(objectname) %(tree)", `refs/mini-cursor/${sessionId}/`]);
    const snapshots: Partial<Record<SnapshotKind, Snapshot>> = {};
    for (const line of lines.split("\n")) {
      const [kind, commit, tree] = line.split(" ");
      if ((kind === "before" || kind === "after") && commit && tree) snapshots[kind] = { commit, tree };
    }
    return snapshots;
  }

  private async requireRecord(sessionId: string): Promise<SessionRecord> {
    const found = await this.record(sessionId);
    if (!found) throw new UnknownSessionError(`no undo snapshot for session ${sessionId} in ${this.workspace}`);
    return found;
  }

  /** Stages the whole workspace into the session's index and returns the tree id. */
  private async stage(sessionId: string): Promise<string> {
    const index = this.index(sessionId);
    const { addConfig } = await this.seeded(index);
    const dropped = await this.git.script(DROP_GITLINKS, [], { index });
    if (dropped.code !== 0) throw new GitCommandError(`git update-index failed (exit ${dropped.code}): ${firstErrorLine(dropped.stderr)}`);
    // --ignore-errors: an unreadable file must not stop the snapshot of the others (git exits 1 then).
    const added = await this.git.run(["add", "--all", "--ignore-errors"], { index, config: addConfig, okCodes: [0, 1] });
    this.staged(index, added.code === 0 ? null : (added.stderr.trim().split("\n")[0] ?? ""));
    return this.git.text(["write-tree"], { index });
  }

  /** A session's first index starts from a copy of another's when one exists; the `-c` settings its `add` needs. */
  private async seeded(index: string): Promise<{ index: string; addConfig: readonly string[] }> {
    if (fs.existsSync(index)) return { index, addConfig: [] };
    // Nothing to start from: every file is new to git. Streaming them into one pack instead of a loose object file
    // each makes this first snapshot several times faster (this setting also makes diffs treat files as binary, so it
    // is given to this one `add` only).
    if (seedIndex(this.gitDir, index)) {
      await this.untrackIgnored(index);
      return { index, addConfig: [] };
    }
    return { index, addConfig: ["core.bigFileThreshold=1"] };
  }

  private staged(index: string, addProblem: string | null): void {
    recordIndexUse(this.gitDir, index);
    if (addProblem !== null) logger.warn(`undo store: some files could not be recorded: ${addProblem}`);
  }

  /** A copied index may track files the workspace ignores now; a new session must not start with them. */
  private async untrackIgnored(index: string): Promise<void> {
    const ignored = await this.git.records(["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"], { index });
    if (ignored.length === 0) return;
    await this.git.run(["rm", "--cached", "-q", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"], {
      index,
      input: `${ignored.join("\0")}\0`,
    });
  }

  private async commitAfter(sessionId: string, tree: string, parent: string): Promise<void> {
    const commit = await this.git.text(["commit-tree", tree, "-p", parent, "-m", `mini-cursor ${sessionId} after`]);
    await this.git.run(["update-ref", snapshotRef(sessionId, "after"), commit]);
    const known = this.known.get(sessionId);
    if (known) known.after = { commit, tree };
  }
}
