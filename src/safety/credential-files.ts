import os from "node:os";
import path from "node:path";
import { CREDENTIAL_ENTRIES, PRIVATE_KEY_NAMES } from "./credential-catalogue.js";
import { credentialCatalogue, type CredentialCatalogue } from "./credential-homes.js";
import { matchCredential } from "./credential-match.js";
import { isBelow } from "../platform/path-inside.js";

/**
 * The credential catalogue as the file tools ask it: about real, absolute paths. The catalogue (home folders,
 * real paths of linked locations) is built once per home folder and process; a check is then string work only.
 */

export const ALLOW_CREDENTIAL_FILES_VAR = "MINI_CURSOR_ALLOW_CREDENTIAL_FILES";

export function credentialFilesAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[ALLOW_CREDENTIAL_FILES_VAR] === "1";
}

function splitReal(absRealPath: string): string[] {
  return absRealPath.split(path.sep).filter((s) => s !== "");
}

/** A check for many paths at once: the credential location a resolved absolute path is (or lies in), or undefined. */
export function credentialMatcher(home: string = os.homedir()): (absRealPath: string) => string | undefined {
  const catalogue = credentialCatalogue(home);
  return (absRealPath) => {
    const segments = splitReal(absRealPath);
    const found = matchCredential(catalogue, segments);
    return found && `/${segments.slice(0, found.depth).join("/")}`;
  };
}

/** The credential location `absRealPath` is (or lies in), or undefined. `absRealPath` must be absolute and resolved. */
export function credentialLocationOf(absRealPath: string, home: string = os.homedir()): string | undefined {
  return credentialMatcher(home)(absRealPath);
}

export function isCredentialPath(absRealPath: string, home: string = os.homedir()): boolean {
  return credentialLocationOf(absRealPath, home) !== undefined;
}

/**
 * ripgrep `--glob` exclusions for credential locations inside `root` (a real path): names that count anywhere
 * at any depth, home and system locations where they lie inside `root`. A `.ssh` folder is left out whole,
 * public keys included. Search results are still checked one by one with credentialMatcher.
 */
export function credentialSearchExclusions(root: string, home: string = os.homedir()): string[] {
  const catalogue = credentialCatalogue(home);
  // The same for the same root and homes (every search of a session): computed once, ~0.3 ms each time otherwise.
  const key = [root, home, ...catalogue.existingHomes].join("\0");
  let globs = exclusionsByKey.get(key);
  if (!globs) {
    globs = exclusionGlobs(root, catalogue);
    if (exclusionsByKey.size >= 16) exclusionsByKey.clear();
    exclusionsByKey.set(key, globs);
  }
  return [...globs];
}

const exclusionsByKey = new Map<string, readonly string[]>();

function exclusionGlobs(root: string, catalogue: CredentialCatalogue): string[] {
  const globs = new Set<string>();
  for (const e of CREDENTIAL_ENTRIES) {
    const rel = e.segments.join("/");
    if (e.scope === "anywhere") globs.add(e.segments.length === 1 ? `!${rel}` : `!**/${rel}`);
    else if (e.scope === "system" && isBelow(root, `/${rel}`)) globs.add(`!/${path.relative(root, `/${rel}`)}`);
    else if (e.scope === "home") {
      for (const h of catalogue.existingHomes) {
        const location = path.join(h, ...e.segments);
        if (isBelow(root, location)) globs.add(`!/${path.relative(root, location).split(path.sep).join("/")}`);
      }
    }
  }
  for (const name of PRIVATE_KEY_NAMES) globs.add(`!${name}`);
  return [...globs];
}

/** The tool error for a refused credential path (without the "Error: " prefix). */
export function credentialRefusal(inputPath: string, location: string): string {
  return `path "${inputPath}" holds credentials (${location}); set ${ALLOW_CREDENTIAL_FILES_VAR}=1 if you really want the agent to read it.`;
}
