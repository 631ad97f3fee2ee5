/**
 * Every list in the session state is capped, because a checkpoint stores each changed channel whole at every step:
 * unbounded lists would make the database grow with the square of the session length.
 */
export const caps = {
  text: 600,
  result: 400,
  findings: 40,
  commands: 40,
  reviews: 6,
  filesChanged: 300,
  criteria: 6,
  /** Finished steps kept in full in the plan; older ones are folded into counts. */
  finishedSteps: 16,
} as const;

export function clip(text: string, max: number = caps.text): string {
  return text.length <= max ? text : `${text.slice(0, max - 15)}… [truncated]`;
}
