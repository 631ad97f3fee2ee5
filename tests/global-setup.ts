import { existsSync, mkdirSync, rmSync, rmdirSync, writeFileSync } from "node:fs";

/**
 * The system credential locations tests/safety/credential-catalogue.int.test.ts checks the sandbox hides, made to exist
 * for the whole run (those this machine lacks) and removed at its end. Made and removed by that test alone, they
 * appeared and vanished while other test files started sandboxed commands, whose bwrap then failed on a mount of a
 * path that had just gone. One run: they exist from the first test to the last.
 */
const LOCATIONS: { path: string; kind: "file" | "folder" }[] = [
  { path: "/etc/sudoers", kind: "file" },
  { path: "/etc/ssl/private", kind: "folder" },
  { path: "/run/secrets", kind: "folder" },
];

export default function setup(): () => void {
  const made: { path: string; kind: "file" | "folder" }[] = [];
  for (const location of LOCATIONS) {
    if (existsSync(location.path)) continue;
    try {
      if (location.kind === "folder") mkdirSync(location.path, { recursive: true, mode: 0o700 });
      else writeFileSync(location.path, "FAKE-SECRET system\n", { mode: 0o600 });
      made.push(location);
    } catch {
      // Not root: the credential test says what it could not set up.
    }
  }
  return () => {
    for (const location of made.reverse()) {
      try {
        if (location.kind === "folder") rmdirSync(location.path);
        else rmSync(location.path, { force: true });
      } catch {
        // Something was left inside it by a test: leave the folder.
      }
    }
  };
}
