/** The run's own abort (Ctrl-C) or the per-call deadline, whichever comes first. */
export function callSignal(runSignal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const deadline = AbortSignal.timeout(timeoutMs);
  return runSignal ? AbortSignal.any([runSignal, deadline]) : deadline;
}
