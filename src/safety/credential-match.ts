import { CREDENTIAL_ENTRIES, PRIVATE_KEY_LABEL, PRIVATE_KEY_NAME, PRIVATE_SSH_SAMPLES, PUBLIC_SSH_NAME, type CredentialEntry } from "./credential-catalogue.js";
import type { CredentialCatalogue } from "./credential-homes.js";
import { hasGlob, matchesGlob } from "../platform/glob.js";

/**
 * The one matching semantics of the credential catalogue (see credential-catalogue.ts). Paths are absolute; the
 * file tools pass real paths, the command rules paths as a command names them, where any segment may be a glob
 * (`~/.ssh/*`): a glob counts when it can name a credential location.
 */

export interface CredentialMatch {
  label: string;
  /** How many leading segments of the path name the location (the rest lies inside it). */
  depth: number;
}

const SYSTEM = CREDENTIAL_ENTRIES.filter((e) => e.scope === "system");
const BELOW_HOME = CREDENTIAL_ENTRIES.filter((e) => e.scope !== "system");
/** Anywhere entries by their first segment: one map look-up per path segment. */
const ANYWHERE = new Map<string, CredentialEntry[]>();
for (const e of CREDENTIAL_ENTRIES.filter((x) => x.scope === "anywhere")) {
  const first = e.segments[0] ?? "";
  ANYWHERE.set(first, [...(ANYWHERE.get(first) ?? []), e]);
}

export function segmentsOf(p: string): string[] {
  return p.split("/").filter((s) => s !== "");
}

/** Whether path segment `a` (maybe a glob) can name `b` (maybe a glob). A glob not starting with "." skips dotfiles, as in bash. */
export function canMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const globA = hasGlob(a);
  const globB = hasGlob(b);
  if (globA && globB) return true;
  if (globA) return !(b.startsWith(".") && !a.startsWith(".")) && matchesGlob(a, b, "path");
  if (globB) return !(a.startsWith(".") && !b.startsWith(".")) && matchesGlob(b, a, "path");
  return false;
}

export function startsWith(segments: readonly string[], prefix: readonly string[], from = 0): boolean {
  if (segments.length - from < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (!canMatch(segments[from + i] ?? "", prefix[i] ?? "")) return false;
  return true;
}

function sshEntryIsPublic(name: string): boolean {
  if (!hasGlob(name)) return PUBLIC_SSH_NAME.test(name);
  return !PRIVATE_SSH_SAMPLES.some((sample) => matchesGlob(name, sample, "path"));
}

/** The entry among `entries` that the segments from `from` on name or lie in, if any. */
function entryAt(segments: readonly string[], from: number, entries: readonly CredentialEntry[]): CredentialEntry | undefined {
  for (const e of entries) {
    if (!startsWith(segments, e.segments, from)) continue;
    // Host fingerprints, public keys and client settings in a .ssh folder are not secret.
    if (e.segments[0] === ".ssh" && segments.length > from + 1 && sshEntryIsPublic(segments[from + 1] ?? "")) continue;
    return e;
  }
  return undefined;
}

/**
 * The credential location `segments` (an absolute path, split) names or lies in. `keyNames` also counts a file
 * named like a private SSH key anywhere; the command rules turn it off for bare words, which are more often
 * search text than paths.
 */
export function matchCredential(catalogue: CredentialCatalogue, segments: readonly string[], keyNames = true): CredentialMatch | undefined {
  for (const e of SYSTEM) if (startsWith(segments, e.segments)) return { label: e.label, depth: e.segments.length };
  for (const root of catalogue.homeRoots) {
    if (!startsWith(segments, root)) continue;
    const e = entryAt(segments, root.length, BELOW_HOME);
    if (e) return { label: e.label, depth: root.length + e.segments.length };
  }
  for (let i = 0; i < segments.length; i++) {
    const candidates = ANYWHERE.get(segments[i] ?? "");
    const e = candidates && entryAt(segments, i, candidates);
    if (e) return { label: e.label, depth: i + e.segments.length };
  }
  for (const alias of catalogue.aliases) {
    if (startsWith(segments, alias.segments)) return { label: alias.entry.label, depth: alias.segments.length };
  }
  const last = segments.at(-1) ?? "";
  const keyLike = PRIVATE_KEY_NAME.test(last) || (hasGlob(last) && last.includes("id_") && matchesGlob(last, "id_rsa", "path"));
  if (keyNames && keyLike) return { label: PRIVATE_KEY_LABEL, depth: segments.length };
  return undefined;
}

/**
 * Whether a folder holds known credential locations below it: `/`, `/home`, a home folder, `~/.config`, `/etc`.
 * (Any folder may hold a copied `.ssh` somewhere deep; that is left to matchCredential on the paths inside.)
 */
export function holdsCredentials(catalogue: CredentialCatalogue, segments: readonly string[]): boolean {
  if (segments.length === 0) return true;
  if (SYSTEM.some((e) => e.segments.length > segments.length && startsWith(e.segments, segments))) return true;
  return catalogue.homeRoots.some((root) => {
    if (segments.length <= root.length) return root.slice(0, segments.length).every((r, i) => canMatch(segments[i] ?? "", r));
    if (!startsWith(segments, root)) return false;
    const rel = segments.slice(root.length);
    return BELOW_HOME.some((e) => e.segments.length > rel.length && startsWith(e.segments, rel));
  });
}
