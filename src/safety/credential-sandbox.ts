import fs from "node:fs";
import path from "node:path";
import { STATE_DIR_NAME } from "../core/index.js";
import { logger } from "../platform/logger.js";
import { CREDENTIAL_ENTRIES, PRIVATE_KEY_NAME, PUBLIC_SSH_NAME } from "./credential-catalogue.js";
import { credentialCatalogue, type CredentialCatalogue } from "./credential-homes.js";
import { matchCredential } from "./credential-match.js";
import { globMatcher, hasGlob } from "../platform/glob.js";
import { isBelow } from "../platform/path-inside.js";
import { realPath } from "../platform/real-path.js";

/**
 * The credential catalogue as the command sandbox needs it: the existing locations to hide, as real paths. A
 * mount can only cover what exists, so this looks at the file system on every command (a key created since the
 * last one is hidden too): the home and system locations, and the workspace walked for names that count
 * anywhere. Hosts' /proc/<pid>/environ needs nothing: the sandbox mounts its own /proc, which shows only the
 * command's own processes (whose environment has no secrets: see src/services/commands/command-env.ts).
 */
export interface CredentialMounts {
  /** Locations to hide: a folder becomes empty, a file unreadable. */
  hide: string[];
  /** Public entries of hidden `.ssh` folders (host fingerprints, public keys, client settings), shown again read-only. */
  reveal: string[];
}

/** Machine-managed folders the workspace walk skips: git objects, installed packages, the agent's own state. */
const WALK_SKIPS: ReadonlySet<string> = new Set([".git", "node_modules", STATE_DIR_NAME]);
/** Entries the workspace walk looks at, at most: about 10 ms on a 2-core machine. */
export const MAX_WALK_ENTRIES = 20_000;
/** Names worth a full check during the walk: every segment of an anywhere entry, and private key names. */
const WALK_NAMES: ReadonlySet<string> = new Set(CREDENTIAL_ENTRIES.filter((e) => e.scope === "anywhere").flatMap((e) => e.segments));

function isDirectory(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function segmentsOf(p: string): string[] {
  return p.split(path.sep).filter((s) => s !== "");
}

/** Existing paths a system entry with globs names (`/etc/ssh/ssh_host_*_key`), one folder read per glob. */
function expand(segments: readonly string[]): string[] {
  let found = ["/"];
  for (const segment of segments) {
    if (!hasGlob(segment)) {
      found = found.map((p) => path.join(p, segment));
      continue;
    }
    const matches = globMatcher(segment, "path");
    found = found.flatMap((p) => {
      try {
        return fs
          .readdirSync(p)
          .filter((name) => matches(name))
          .map((name) => path.join(p, name));
      } catch {
        return [];
      }
    });
  }
  return found;
}

const truncatedWalks = new Set<string>();

function warnTruncated(root: string): void {
  if (truncatedWalks.has(root)) return;
  truncatedWalks.add(root);
  logger.warn(
    `the sandbox looked at the first ${MAX_WALK_ENTRIES} entries of ${root} for credential files (.ssh, .aws, id_rsa, …); any deeper in stay visible to commands, though the file tools and command rules still refuse them.`,
  );
}

/**
 * Credential locations inside the workspace, found by name. A symlink's target is checked and, when a folder,
 * walked at its real path (once: links may loop), since that is where bwrap must hide what lies below it.
 */
function walkWorkspace(root: string, catalogue: CredentialCatalogue, found: Set<string>): void {
  const stack = [root];
  const walked = new Set(stack);
  let budget = MAX_WALK_ENTRIES;
  while (stack.length > 0 && budget > 0) {
    const dir = stack.pop() ?? root;
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (--budget < 0) {
        warnTruncated(root);
        break;
      }
      const p = path.join(dir, e.name);
      if (e.isSymbolicLink()) {
        const real = realPath(p);
        if (real === undefined) continue;
        if (matchCredential(catalogue, segmentsOf(real))) found.add(real);
        else if (!walked.has(real) && isDirectory(real)) {
          walked.add(real);
          stack.push(real);
        }
        continue;
      }
      if (WALK_NAMES.has(e.name) || PRIVATE_KEY_NAME.test(e.name)) {
        const segments = segmentsOf(p);
        if (matchCredential(catalogue, segments)?.depth === segments.length) {
          found.add(p);
          continue;
        }
      }
      if (e.isDirectory() && !WALK_SKIPS.has(e.name)) stack.push(p);
    }
  }
}

/** Public entries of a `.ssh` folder: plain files only (a `config` linked to a key must stay hidden). */
function publicSshEntries(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && PUBLIC_SSH_NAME.test(e.name))
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/** What the sandbox for a command in `workspace` (a real path) hides, for the home folder `home`. */
export function sandboxCredentialMounts(home: string, workspace: string): CredentialMounts {
  const catalogue = credentialCatalogue(home);
  const candidates = new Set<string>();
  for (const e of CREDENTIAL_ENTRIES) {
    if (e.scope === "system") {
      // /proc/<pid>/environ: the sandbox's own /proc shows no host process.
      if (e.segments[0] !== "proc") expand(e.segments).forEach((p) => candidates.add(p));
    } else for (const h of catalogue.existingHomes) candidates.add(path.join(h, ...e.segments));
  }
  catalogue.aliases.forEach((a) => candidates.add(a.path));
  const found = new Set<string>();
  for (const p of candidates) {
    const real = realPath(p);
    if (real !== undefined) found.add(real);
  }
  walkWorkspace(workspace, catalogue, found);
  // A location inside another one is covered by it (and could not be mounted on inside an empty folder).
  const sorted = [...found].sort();
  const hide = sorted.filter((p) => !sorted.some((other) => isBelow(other, p)));
  const reveal = hide.filter((p) => path.basename(p) === ".ssh").flatMap(publicSshEntries);
  return { hide, reveal };
}
