import { expect } from "vitest";
import { SessionBusyError } from "../../src/sessions/session-lock.js";

/** The SessionBusyError `fn` throws; fails the test when it throws nothing or something else. */
export function busyError(fn: () => unknown): SessionBusyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SessionBusyError);
    return error as SessionBusyError;
  }
  throw new Error("expected a SessionBusyError");
}
