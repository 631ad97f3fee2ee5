import os from "node:os";
import type { SandboxSpawnOptions } from "./sandboxed-command.js";

/**
 * What the model is told about the sandbox: once in the tool description, and as a note when a command's
 * output shows it ran into a limit, so it changes approach instead of retrying the same thing.
 */
export function sandboxDescription(sandbox: SandboxSpawnOptions, statesNetwork = true): string {
  const network = !statesNetwork
    ? "network access is as your instructions say"
    : sandbox.allowNetwork
      ? "network access is allowed"
      : "there is no network access (only a private loopback)";
  if (sandbox.workspaceAccess === "read-only") {
    return (
      "Commands run in a sandbox that sees the workspace read-only: they can run tests and checks but cannot change any project file " +
      `(new files and caches land in throwaway scratch that is gone after the command; /tmp is private), credential files are hidden, ${network}, and no process outlives the command.`
    );
  }
  return (
    "Commands run in a sandbox: only the workspace and a private /tmp are writable (the rest of the system, the home folder " +
    `and the workspace's .mini-cursor folder are read-only), credential files are hidden, ${network}, and no process outlives the command.`
  );
}

const READ_ONLY = /Read-only file system|EROFS|Device or resource busy|EBUSY/;
const OFFLINE =
  /Could not resolve host|Temporary failure in name resolution|getaddrinfo E(?:AI_AGAIN|NOTFOUND)|Network is unreachable|ENETUNREACH|Couldn't connect to server|Connection refused|ECONNREFUSED/;

/** bwrap reports a command killed by a signal as exit code 128 + the signal's number. */
function signalName(exitCode: number | null): string | undefined {
  if (exitCode === null || exitCode <= 128) return undefined;
  return Object.entries(os.constants.signals).find(([, n]) => n === exitCode - 128)?.[0];
}

export function sandboxNotes(output: string, exitCode: number | null, sandbox: SandboxSpawnOptions): string[] {
  const notes: string[] = [];
  const signal = signalName(exitCode);
  if (signal) notes.push(`Note: in the sandbox a command killed by a signal reports exit code 128 + its number; ${exitCode} usually means ${signal}.`);
  if (/^bwrap: /m.test(output)) {
    notes.push("Note: the sandbox (bubblewrap) reported an error; if the command did not start at all, `mini-cursor doctor` shows why.");
  }
  if (READ_ONLY.test(output) && sandbox.workspaceAccess === "read-only") {
    notes.push("Note: your commands see the workspace read-only: you check the work, you do not change it. Report what needs changing in your review instead.");
  } else if (READ_ONLY.test(output)) {
    notes.push(
      "Note: the sandbox lets commands write only inside the workspace and /tmp (not .mini-cursor, the home folder or system folders); write there instead, e.g. set a cache folder under /tmp.",
    );
  }
  if (!sandbox.allowNetwork && OFFLINE.test(output)) {
    notes.push(
      "Note: commands have no network access in this sandbox (not even to services running elsewhere on this machine; a server the command itself starts is reachable on 127.0.0.1 within the same command). Do not retry network operations; work offline instead.",
    );
  }
  return notes;
}
