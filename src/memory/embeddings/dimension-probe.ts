/**
 * A remote or loaded model tells its vector length only by answering: one real call, shared by concurrent callers; a
 * failure is not kept, so the next caller asks again.
 */
export function dimensionProbe(embed: (texts: string[]) => Promise<number[][]>): () => Promise<number> {
  let probe: Promise<number> | undefined;
  return () => {
    probe ??= embed(["dimension probe"]).then(
      (vectors) => vectors[0]?.length ?? 0,
      (error: unknown) => {
        probe = undefined;
        throw error;
      },
    );
    return probe;
  };
}
