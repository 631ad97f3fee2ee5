import type { PathContext } from "./command-paths.js";
import { credentialCatalogue } from "./credential-homes.js";
import { holdsCredentials, matchCredential, segmentsOf } from "./credential-match.js";

/**
 * The credential catalogue as the command rules ask it: about paths as a command names them (globs allowed,
 * `~/.ssh/*`), with the home folder of the rules' context. Same list and matching as the file tools and the
 * sandbox (credential-catalogue.ts, credential-match.ts).
 */

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
