/** How a session's process ends, the same for every face (the CLI's exit codes; the ACP face maps them to stop reasons). */
export const EXIT = {
  done: 0,
  failed: 1,
  usage: 2,
  interrupted: 130,
} as const;

/** The line a signal prints when no session runner handles it (start-up, other commands): the runner's words. */
export function interruptedLine(signal: NodeJS.Signals): string {
  return `Interrupted (${signal}): stopping.`;
}

export function exitCodeForStatus(status: string): number {
  return status === "done" ? EXIT.done : EXIT.failed;
}
