// Exit codes are decided where sessions run (src/host); the CLI's commands import them from here with its errors.
export { EXIT, exitCodeForStatus, interruptedLine } from "../../host/session-exit.js";

/** A bad command line or configuration: one clear line, exit 2. */
export class UsageError extends Error {}

/** An option the command does not have; main.ts names the command when the parser was not told it. */
export class UnknownOptionError extends UsageError {
  constructor(
    readonly option: string,
    readonly suggestion: string | undefined,
    readonly command: string | undefined,
  ) {
    super(UnknownOptionError.line(option, suggestion, command));
  }

  static line(option: string, suggestion: string | undefined, command: string | undefined): string {
    const where = command ? ` for mini-cursor ${command}` : "";
    const help = `see mini-cursor ${command ? `${command.split(" ")[0]} ` : ""}--help`;
    return `unknown option ${option}${where}; ${suggestion ? `did you mean ${suggestion}?` : help}`;
  }

  /** The line with `command` named, unless the parser already named one. */
  forCommand(command: string): string {
    return UnknownOptionError.line(this.option, this.suggestion, this.command ?? command);
  }
}
