import { expect } from "vitest";
import { EmbedderError } from "../../../src/memory/embeddings/index.js";

/** The EmbedderError a promise rejects with; fails the test when it settles otherwise. */
export async function embedderError(promise: Promise<unknown>): Promise<EmbedderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EmbedderError);
    return error as EmbedderError;
  }
  throw new Error("expected an EmbedderError");
}
