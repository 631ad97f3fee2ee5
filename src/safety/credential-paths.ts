import type { PathContext } from "./command-paths.js";
import { CREDENTIAL_ENTRIES } from "./credential-catalogue.js";
import { credentialCatalogue } from "./credential-homes.js";
import { holdsCredentials, matchCredential, segmentsOf } from "./credential-match.js";

/**
 * The credential catalogue as the command rules ask it: about paths as a command names them (globs allowed,
 * `~/.ssh/*`), with the home folder of the rules' context. Same list and matching as the file tools and the
 * sandbox (credential-catalogue.ts, credential-match.ts).
 */

/** The longest plain part of a segment (`ssh_host_*_key` → `ssh_host_`), without a leading dot. */
function plainPart(segment: string): string {
  return segment
    .split(/[*?[\]]/)
    .map((part) => part.replace(/^\./, ""))
    .reduce((a, b) => (b.length > a.length ? b : a), "");
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A word that names a credential location, or something inside one, contains the location's last segment (or
 * a glob or expansion standing for it), unless it is relative to a folder inside one, which the rule checks
 * apart. Derived from the catalogue, so the quick test never misses an entry.
 */
const CREDENTIAL_HINT = new RegExp(
  [...new Set(CREDENTIAL_ENTRIES.map((e) => plainPart(e.segments.at(-1) ?? "")))]
    .filter((part) => part !== "")
    .map(escaped)
    .concat(["id_", "[*?[$`{]"])
    .join("|"),
  "i",
);

/**
 * Whether `word` may name a credential location: a cheap test that lets a long command's ordinary words (a
 * 50,000-word echo) skip path resolution. Locations reached through a link (`~/.aws` → elsewhere) count too.
 */
export function mayNameCredential(word: string, pc: PathContext): boolean {
  if (CREDENTIAL_HINT.test(word)) return true;
  return credentialCatalogue(pc.home).aliases.some((a) => word.includes(a.segments.at(-1) ?? "/"));
}

/**
 * The kind of credential an absolute path (globs allowed) names or lies inside, if any. `keyNames` also counts
 * any file named like an SSH key (`id_rsa`); off for bare words, which are more often search text than paths.
 */
export function credentialAt(absolute: string, pc: PathContext, keyNames = true): string | undefined {
  return matchCredential(credentialCatalogue(pc.home), segmentsOf(absolute), keyNames)?.label;
}

/** Whether a folder holds credentials somewhere below it: `/`, `/home`, a home folder, `~/.config`, `/etc`, … */
export function containsCredentials(absolute: string, pc: PathContext): boolean {
  return holdsCredentials(credentialCatalogue(pc.home), segmentsOf(absolute));
}
