import { type EventSink, RunStopped } from "../core/index.js";
import type { HeldSessionLock } from "../sessions/session-records.js";
import { killActiveCommands } from "../services/commands/active-commands.js";
import { EXIT } from "./session-exit.js";

export interface RunInterruptOptions {
  printer: EventSink;
  /** How to continue the session, as the person can type it from where they are. */
  resumeCommand: string;
  /** An editor's `session/cancel`: stops this run only. */
  cancel?: AbortSignal;
  lock: HeldSessionLock;
  databaseLabel: string;
}

/**
 * What can stop a running session from outside its graph: Ctrl-C or SIGTERM (a second one exits at once), an
 * editor's cancel, and the loss of the session lock's database connection. Each aborts the graph between writes and
 * kills its commands; at a prompt (`asking`) a signal only settles `signal`, so the question stops waiting.
 */
export class RunInterrupts {
  readonly controller = new AbortController();
  interrupted = false;
  /** A question or approval is waiting for the person: nothing runs, its own lines say what happened. */
  asking = false;
  /** Set when the lock's connection broke: another process could take the session now. */
  lostDatabase: string | null = null;
  /** Settles on the first Ctrl-C or SIGTERM. */
  readonly signal: Promise<"interrupted">;
  private signalled: () => void = () => {};
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.interrupted) {
      this.o.printer.emit({ type: "notice", level: "warn", message: `Stopped at once. Continue later with: ${this.o.resumeCommand}` });
      process.exit(EXIT.interrupted);
    }
    this.stop(true, signal === "SIGINT" ? "Ctrl-C" : signal);
  };
  // Other sessions of the process (an editor's) go on: only this run stops.
  private readonly onCancel = () => {
    // A face may name what stopped the turn (the terminal's Esc) as the abort's reason.
    const reason: unknown = this.o.cancel?.reason;
    if (!this.interrupted) this.stop(false, typeof reason === "string" ? reason : "the editor's cancel");
  };

  constructor(private readonly o: RunInterruptOptions) {
    this.signal = new Promise((resolve) => (this.signalled = () => resolve("interrupted")));
    if (o.cancel?.aborted) this.onCancel();
    o.lock.onLost?.((reason) => {
      this.lostDatabase ??= `lost the connection to the session database ${o.databaseLabel} (${reason})`;
      // The abort kills this run's commands; other sessions of the process (an editor's) find out on their own.
      this.controller.abort();
    });
    o.cancel?.addEventListener("abort", this.onCancel, { once: true });
    process.on("SIGINT", this.onSignal);
    process.on("SIGTERM", this.onSignal);
  }

  /** Stops listening (the run is over). */
  detach(): void {
    process.off("SIGINT", this.onSignal);
    process.off("SIGTERM", this.onSignal);
    this.o.cancel?.removeEventListener("abort", this.onCancel);
  }

  private stop(killAll: boolean, by: string): void {
    this.interrupted = true;
    this.signalled();
    if (this.asking) return;
    // The session's last lines say how to continue it; a second signal, which exits at once, says it itself.
    this.o.printer.emit({ type: "notice", level: "warn", message: "Interrupted: stopping (again to stop at once)." });
    // The reason names who stopped the run: a tool cut short says so (src/agents/middleware/tool-calls.ts).
    this.controller.abort(new RunStopped(by));
    // The abort kills this run's commands; a signal also stops every other command of the process.
    if (killAll) killActiveCommands();
  }
}
