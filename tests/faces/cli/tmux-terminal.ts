import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CLI } from "./cli-process.js";

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The built CLI in a real pseudo-terminal: a private tmux server runs it in a pane of a fixed size, and the test
 * reads the screen as a person sees it (`capture-pane`). After the CLI exits the pane shows `[exit N]`.
 */
export class TmuxTerminal {
  private constructor(
    private readonly socket: string,
    private readonly dir: string,
  ) {}

  static start(args: string[], o: { cwd: string; env: Record<string, string>; cols?: number; rows?: number }): TmuxTerminal {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-tmux-"));
    const socket = path.join(dir, "sock");
    const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TERM: "screen", MINI_CURSOR_MEMORY: "off", ...o.env };
    const vars = Object.entries(env).map(([k, v]) => quote(`${k}=${v}`));
    const command = `env -i ${vars.join(" ")} ${quote(process.execPath)} ${quote(CLI)} ${args.map(quote).join(" ")}; echo "[exit $?]"; sleep 86400`;
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", String(o.cols ?? 100), "-y", String(o.rows ?? 40), "-c", o.cwd, command]);
    return new TmuxTerminal(socket, dir);
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-S", this.socket, ...args], { encoding: "utf8" });
  }

  /** The visible screen, one string per row, trailing spaces trimmed. */
  screen(): string {
    return this.tmux("capture-pane", "-p");
  }

  /** Everything printed so far: the scrollback and the screen. */
  history(): string {
    return this.tmux("capture-pane", "-p", "-S", "-", "-E", "-");
  }

  /** The same with colours and attributes as escape sequences. */
  styledHistory(): string {
    return this.tmux("capture-pane", "-p", "-e", "-S", "-", "-E", "-");
  }

  type(text: string): void {
    this.tmux("send-keys", "-t", "0", "-l", text);
  }

  /** Types a line and Enter. */
  sendLine(line: string): void {
    this.type(line);
    this.type("\r");
  }

  /**
   * Waits until `text` has appeared `times` times in everything the terminal showed (a conversation redraws its input
   * line in place, so positions in the history are no marks; counts are); returns the history.
   */
  shows(text: string, times: number, what: string): Promise<string> {
    return this.waitFor(
      (s) => s.split(text).length - 1 >= times,
      what,
      60_000,
      () => this.history(),
    );
  }

  /** A key by its tmux name: "Escape", "C-c", "Up", "Tab". */
  key(name: string): void {
    this.tmux("send-keys", "-t", "0", name);
  }

  /** Polls the screen until `test` holds; fails with the last screen when it does not within the time. */
  async waitFor(test: (screen: string) => boolean, what: string, timeoutMs = 60_000, read: () => string = () => this.screen()): Promise<string> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const text = read();
      if (test(text)) return text;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; the screen:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits for the CLI to exit and returns its exit code. */
  async exitCode(): Promise<number> {
    const text = await this.waitFor(
      (s) => /\[exit \d+\]/.test(s),
      "the CLI to exit",
      120_000,
      () => this.history(),
    );
    return Number(/\[exit (\d+)\]/.exec(text)?.[1]);
  }

  close(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // Already gone.
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
