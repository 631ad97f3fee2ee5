import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../../../sessions/paths.js";
import { ensureDataDir } from "../../../sessions/data-dir.js";

/** Messages kept: enough for weeks of work in one project, small enough to read at every start. */
const KEPT = 500;

/**
 * What was typed in the workspace's conversations, oldest first, across sessions (Up and Down walk through it): one
 * JSON string per line in `.mini-cursor/chat-history`, which is the workspace's runtime data, never committed.
 */
export class InputHistory {
  private constructor(
    private readonly file: string,
    private readonly entries: string[],
  ) {}

  static load(workspace: string): InputHistory {
    const file = path.join(dataDir(workspace), "chat-history");
    let entries: string[] = [];
    try {
      entries = fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line) => {
          try {
            const value: unknown = JSON.parse(line);
            return typeof value === "string" ? [value] : [];
          } catch {
            return []; // a line cut short by a crash: skipped
          }
        });
    } catch {
      // No history yet.
    }
    return new InputHistory(file, entries.slice(-KEPT));
  }

  get all(): readonly string[] {
    return this.entries;
  }

  /** Adds a message (not twice in a row) and keeps the file to the last KEPT; a history that cannot be written is skipped. */
  add(text: string, workspace: string): void {
    if (!text.trim() || this.entries.at(-1) === text) return;
    this.entries.push(text);
    try {
      ensureDataDir(workspace);
      if (this.entries.length > KEPT * 2) {
        this.entries.splice(0, this.entries.length - KEPT);
        fs.writeFileSync(this.file, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
      } else fs.appendFileSync(this.file, `${JSON.stringify(text)}\n`);
    } catch {
      // Read-only workspace: the conversation goes on without a history file.
    }
  }
}
