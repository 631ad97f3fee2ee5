/** Node's errno code of a thrown value, if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/** A thrown value's message, for one-line reports (never its stack). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
