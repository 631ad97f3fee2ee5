/**
 * The quick part of the build (main.ts and what it imports statically, bundled as one CommonJS file) leaves out the
 * modules a listing command needs only now and then: deleting a session, PostgreSQL, starting Chroma. In that
 * file they are replaced by this (scripts/bundle.mjs), and main.ts hands the command to the full CLI instead, which
 * runs it again from the start. Nothing is done twice that matters: they are reached before any change is made.
 */
export class DeferToApp extends Error {
  constructor() {
    super("this command needs the full CLI");
  }
}

/** What each left-out export becomes in the quick file. */
export function deferToApp(): never {
  throw new DeferToApp();
}
