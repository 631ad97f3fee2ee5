/**
 * One attempt at a time at something slow that every caller wants the same answer to (a model load, a probe, a
 * check): concurrent callers share the attempt, a success is kept, a failure is forgotten so the next caller tries
 * again (a network that came back, a server that started).
 */
export function sharedAttempt<T>(attempt: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= attempt().catch((error: unknown) => {
      running = undefined;
      throw error;
    });
    return running;
  };
}
